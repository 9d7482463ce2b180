// XLIFF 2.0 (OASIS core): written by hand, read with htmlparser2's XML mode. Markup and variables are inline codes.
import { type AnyNode, type Element, isCDATA, isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { codesOf, type Piece, piecesOf, type TargetPiece } from './segments';
import type { ExportFile, ParsedFile } from './translation-files';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attr = (s: string) => esc(s).replace(/"/g, '&quot;');

function inline(pieces: Piece[]): string {
  return pieces
    .map((p) => {
      if (typeof p === 'string') return esc(p);
      if (p.code === 'ph') {
        return `<ph id="${p.id}" dataRef="d${p.id}" equiv="${attr(p.text)}" disp="${attr(p.text)}"${p.variable ? ' type="other"' : ' type="fmt"'}/>`;
      }
      return `<pc id="${p.id}" dataRefStart="d${p.id}s" dataRefEnd="d${p.id}e" type="fmt">${inline(p.children)}</pc>`;
    })
    .join('');
}

function originalData(pieces: Piece[]): string {
  const data = [...codesOf(pieces).values()].flatMap((c) =>
    c.code === 'ph' ? [`<data id="d${c.id}">${esc(c.text)}</data>`] : [`<data id="d${c.id}s">${esc(c.start)}</data>`, `<data id="d${c.id}e">${esc(c.end)}</data>`],
  );
  return data.length > 0 ? `      <originalData>\n${data.map((d) => `        ${d}\n`).join('')}      </originalData>\n` : '';
}

/**
 * The demo's units as one XLIFF 2.0 document: one `<file>` whose `original` names the demo, a note with the
 * source digest, one `<unit>` per text (its note says where it shows) with the translation as `<target>` where
 * one exists. Rich text's elements are `<pc>` and line breaks and `{{variables}}` are `<ph>`, their markup in
 * `<originalData>`; a file's codes are matched by id on import.
 */
export function writeXliff(file: ExportFile): string {
  const units = file.units
    .map((u) => {
      const source = piecesOf(u.kind, u.source);
      const state = u.target === undefined ? 'initial' : file.reviewed ? 'reviewed' : 'translated';
      const target = u.target === undefined ? '' : `\n          <target>${inline(piecesOf(u.kind, u.target))}</target>`;
      return (
        `    <unit id="${attr(u.id)}">\n` +
        `      <notes><note category="location">${esc(u.note)}</note>${u.kind === 'html' ? '<note category="format">rich text</note>' : ''}</notes>\n` +
        originalData(source) +
        `      <segment state="${state}">\n          <source>${inline(source)}</source>${target}\n      </segment>\n` +
        '    </unit>\n'
      );
    })
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${attr(file.sourceLang)}" trgLang="${attr(file.lang)}">\n` +
    `  <file id="${attr(file.demoId)}" original="demoshare:${attr(file.demoId)}">\n` +
    `    <notes><note id="source-digest" category="demoshare">${file.digest}</note><note category="demoshare">${esc(file.title)}</note></notes>\n` +
    units +
    '  </file>\n</xliff>\n'
  );
}

const tags = (nodes: AnyNode[], name: string) => nodes.filter((n): n is Element => isTag(n) && n.name === name);
const descendants = (el: Element, name: string): Element[] =>
  el.children.flatMap((c) => (isTag(c) ? (c.name === name ? [c] : descendants(c, name)) : []));

/** What a `<source>` or `<target>` holds, as target pieces (codes by id); `<mrk>` annotations are read through. */
function piecesIn(nodes: AnyNode[]): TargetPiece[] {
  const out: TargetPiece[] = [];
  for (const n of nodes) {
    if (isText(n)) out.push(n.data);
    else if (isCDATA(n)) out.push(...piecesIn(n.children));
    else if (isTag(n)) {
      const id = n.attribs.id ?? '';
      if (n.name === 'ph') out.push({ code: 'ph', id });
      else if (n.name === 'pc') out.push({ code: 'pc', id, children: piecesIn(n.children) });
      else if (n.name === 'mrk') out.push(...piecesIn(n.children));
      else throw new Error(`<${n.name}> is not supported inside a segment (use <pc> and <ph> as exported)`);
    }
  }
  return out;
}

/** An XLIFF 2.0 document as the import reads it; a malformed document throws with what is wrong. */
export function readXliff(text: string): ParsedFile {
  const doc = parseDocument(text, { xmlMode: true, decodeEntities: true });
  const root = tags(doc.children, 'xliff')[0];
  if (!root) throw new Error('no <xliff> element: not an XLIFF document');
  if (root.attribs.version && !root.attribs.version.startsWith('2.')) throw new Error(`XLIFF ${root.attribs.version}: only XLIFF 2.x is read`);
  const files = tags(root.children, 'file');
  if (files.length !== 1) throw new Error(`${files.length} <file> elements: a Demoshare file has exactly one`);
  const file = files[0]!;
  const original = file.attribs.original ?? '';
  const units: ParsedFile['units'] = [];
  for (const unit of descendants(file, 'unit')) {
    const id = unit.attribs.id ?? '';
    const segments = [...tags(unit.children, 'segment'), ...tags(unit.children, 'ignorable')];
    const source: TargetPiece[] = [];
    let target: TargetPiece[] | null = null;
    for (const seg of segments) {
      const s = tags(seg.children, 'source')[0];
      const t = tags(seg.children, 'target')[0];
      source.push(...piecesIn(s?.children ?? []));
      if (t) target = [...(target ?? []), ...piecesIn(t.children)];
    }
    units.push({ id, source: { pieces: source }, target: target && { pieces: target } });
  }
  return {
    demoId: original.startsWith('demoshare:') ? original.slice('demoshare:'.length) : null,
    lang: root.attribs.trgLang ?? null,
    units,
  };
}
