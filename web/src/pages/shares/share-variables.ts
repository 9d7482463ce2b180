// A share link's personalisation values as the share form edits them: one `name = value` per line.

/** The values as lines, in the order the link holds them. */
export function formatVariables(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([name, value]) => `${name} = ${value}`)
    .join('\n');
}

/**
 * Lines of `name = value` (or `name: value`) into the link's `variables`; blank lines are skipped. A line
 * without a separator is an error naming it; names and lengths are the server's to check (its 400 names the
 * entry).
 */
export function parseVariables(text: string): { variables: Record<string, string> } | { error: string } {
  const variables: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const at = line.search(/[=:]/);
    if (at <= 0) return { error: `Line ${i + 1}: write it as name = value, e.g. company = Acme` };
    variables[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { variables };
}
