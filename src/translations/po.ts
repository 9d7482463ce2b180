// gettext PO: one entry per unit, its id as msgctxt. Markup and variables stay as written; the import matches them to the source's.
import type { ExportFile, ParsedFile } from './translation-files';

function quoted(s: string): string {
  const escaped = s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
  const lines = escaped.split('\n');
  if (lines.length === 1) return `"${lines[0]}"`;
  // Multi-line strings as gettext writes them: an empty first line, then one line per line of text.
  return `""\n${lines.map((l, i) => `"${l}${i < lines.length - 1 ? '\\n' : ''}"`).filter((l) => l !== '""').join('\n')}`;
}

const comment = (s: string) => s.replace(/\s+/g, ' ');

/**
 * The demo's units as a PO file: a header naming the demo, its languages and the source digest; per unit an
 * extracted comment (where it shows; "rich text" when its markup must be kept), `msgctxt` the unit id, `msgid`
 * the source as stored (rich text as HTML), `msgstr` the translation or empty.
 */
export function writePo(file: ExportFile): string {
  const header = [
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    'MIME-Version: 1.0',
    `Language: ${file.lang}`,
    `X-Demoshare-Demo: ${file.demoId}`,
    `X-Demoshare-Source-Language: ${file.sourceLang}`,
    `X-Demoshare-Source-Digest: ${file.digest}`,
  ]
    .map((l) => `"${l}\\n"`)
    .join('\n');
  const entries = file.units.map((u) => {
    const notes = [`#. ${comment(u.note)}`];
    if (u.kind === 'html') notes.push('#. rich text: keep the HTML tags and {{variables}}');
    return `${notes.join('\n')}\nmsgctxt ${quoted(u.id)}\nmsgid ${quoted(u.source)}\nmsgstr ${quoted(u.target ?? '')}\n`;
  });
  return `# ${comment(file.title)}\nmsgid ""\nmsgstr ""\n${header}\n\n${entries.join('\n')}`;
}

function unquote(line: string, at: number): string {
  const m = /^"(.*)"\s*$/.exec(line.trim());
  if (!m) throw new Error(`line ${at}: expected a quoted string`);
  return m[1]!.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' })[c] ?? c);
}

interface Entry {
  ctxt?: string;
  id?: string;
  str?: string;
  fuzzy: boolean;
}

/** A PO file as the import reads it. Fuzzy entries count as untranslated (gettext's rule); obsolete ones (`#~`) are ignored. */
export function readPo(text: string): ParsedFile {
  const entries: Entry[] = [];
  let current: Entry = { fuzzy: false };
  let field: 'ctxt' | 'id' | 'str' | null = null;
  const flush = () => {
    if (current.id !== undefined) entries.push(current);
    current = { fuzzy: false };
    field = null;
  };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const at = i + 1;
    if (line === '') return;
    if (line.startsWith('#')) {
      if (current.str !== undefined) flush();
      if (line.startsWith('#,') && /\bfuzzy\b/.test(line)) current.fuzzy = true;
      return;
    }
    const m = /^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")\s*$/.exec(line);
    if (m) {
      const key = m[1]!;
      if ((key === 'msgctxt' || key === 'msgid') && current.str !== undefined) flush();
      const value = unquote(m[2]!, at);
      if (key === 'msgctxt') [current.ctxt, field] = [value, 'ctxt'];
      else if (key === 'msgid') [current.id, field] = [value, 'id'];
      else if (key === 'msgstr' || key === 'msgstr[0]') [current.str, field] = [value, 'str'];
      else field = null; // plurals: Demoshare writes none
      return;
    }
    if (line.startsWith('"')) {
      if (field) current[field] = (current[field] ?? '') + unquote(line, at);
      return;
    }
    throw new Error(`line ${at}: not PO syntax (${line.slice(0, 40)})`);
  });
  flush();
  const header = entries.find((e) => e.id === '' && e.ctxt === undefined)?.str ?? '';
  const headerField = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'mi').exec(header)?.[1]?.trim() ?? null;
  return {
    demoId: headerField('X-Demoshare-Demo'),
    lang: headerField('Language'),
    units: entries
      .filter((e) => !(e.id === '' && e.ctxt === undefined))
      .map((e) => ({
        id: e.ctxt ?? '',
        source: { text: e.id ?? '' },
        target: e.fuzzy || !e.str ? null : { text: e.str },
      })),
  };
}
