/**
 * A side-by-side count comparison, one table a line (tables empty on both sides summed up in one line);
 * `ok` is false if any count differs.
 */
export function compareCounts(
  left: Record<string, number>,
  right: Record<string, number>,
  headings: [string, string],
): { ok: boolean; text: string } {
  const names = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  const width = Math.max(5, ...names.map((n) => n.length));
  let ok = true;
  let empty = 0;
  const lines = [`${'table'.padEnd(width)}  ${headings[0].padStart(10)}  ${headings[1].padStart(10)}`];
  for (const name of names) {
    const a = left[name];
    const b = right[name];
    const same = a === b;
    if (!same) ok = false;
    if (same && a === 0) {
      empty++;
      continue;
    }
    lines.push(`${name.padEnd(width)}  ${String(a ?? '-').padStart(10)}  ${String(b ?? '-').padStart(10)}${same ? '' : '  MISMATCH'}`);
  }
  if (empty > 0) lines.push(`(${empty} more tables, empty on both sides)`);
  return { ok, text: lines.join('\n') };
}
