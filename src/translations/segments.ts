// A unit's text as translators see it: words, and the inline codes (markup, variables) that must come back intact.
import render from 'dom-serializer';
import { type ChildNode, Element, isTag, isText, Text } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { sanitizeRichText } from '../demos/rich-text';

/** `plain`: text shown as text. `html`: the sanitised rich text of descriptions and tooltips (rich-text.ts). */
export type UnitKind = 'plain' | 'html';

/** An element of rich text, kept around its words: XLIFF `<pc>`. */
export interface PairedCode {
  code: 'pc';
  id: string;
  /** The element's tag as stored (`<a href="…" …>`), and its end (`</a>`). */
  start: string;
  end: string;
  children: Piece[];
}

/** A code with no words inside: a line break, or a `{{variable}}` (whose fallback is kept as written). XLIFF `<ph>`. */
export interface StandaloneCode {
  code: 'ph';
  id: string;
  /** What it stands for, as stored: `<br>` or `{{company|your team}}`. */
  text: string;
  variable: boolean;
}

export type Piece = string | PairedCode | StandaloneCode;

/** One code the source has and how it shows, for messages: `<strong>` or `{{company}}`. */
export const codeLabel = (c: PairedCode | StandaloneCode) => (c.code === 'pc' ? c.start.replace(/\s.*>$/, '>') : c.text);

// A fresh copy of the pattern of story.schemas.ts (a global RegExp keeps state between calls).
const VARIABLE = /\{\{\s*([a-z][a-z0-9_]{0,39})\s*(?:\|([^{}]*))?\}\}/g;

function splitVariables(text: string, nextId: () => string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(VARIABLE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({ code: 'ph', id: nextId(), text: m[0], variable: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');

function startTag(el: Element): string {
  const attrs = Object.entries(el.attribs)
    .map(([k, v]) => ` ${k}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  return `<${el.name}${attrs}>`;
}

/**
 * A unit's source as pieces, codes numbered 1, 2, … in document order. Rich text is parsed (it is already
 * sanitised: only b, strong, i, em, a, ul, ol, li, p, br); variables become standalone codes in both kinds.
 *
 * @example
 * piecesOf('html', 'Click <strong>Save</strong>, {{first_name|friend}}')
 * // ['Click ', {code: 'pc', id: '1', start: '<strong>', end: '</strong>', children: ['Save']}, ', ', {code: 'ph', id: '2', text: '{{first_name|friend}}', variable: true}]
 */
export function piecesOf(kind: UnitKind, source: string): Piece[] {
  let n = 0;
  const nextId = () => String(++n);
  if (kind === 'plain') return splitVariables(source, nextId);
  const walk = (nodes: ChildNode[]): Piece[] => {
    const out: Piece[] = [];
    for (const node of nodes) {
      if (isText(node)) out.push(...splitVariables(node.data, nextId));
      else if (isTag(node)) {
        if (node.name === 'br') out.push({ code: 'ph', id: nextId(), text: '<br>', variable: false });
        else {
          const code: PairedCode = { code: 'pc', id: nextId(), start: startTag(node), end: `</${node.name}>`, children: [] };
          out.push(code);
          code.children = walk(node.children);
        }
      }
    }
    return out;
  };
  return walk(parseDocument(source, { decodeEntities: true }).children);
}

/** Every code of the pieces, by id. */
export function codesOf(pieces: Piece[], into = new Map<string, PairedCode | StandaloneCode>()) {
  for (const p of pieces) {
    if (typeof p === 'string') continue;
    into.set(p.id, p);
    if (p.code === 'pc') codesOf(p.children, into);
  }
  return into;
}

/** The pieces back as the unit's text: HTML for rich units (words escaped), the words as they are for plain ones. */
export function textOf(kind: UnitKind, pieces: Piece[]): string {
  return pieces
    .map((p) => {
      if (typeof p === 'string') return kind === 'html' ? escapeHtml(p) : p;
      if (p.code === 'ph') return p.text;
      return `${p.start}${textOf(kind, p.children)}${p.end}`;
    })
    .join('');
}

/** A translation's pieces as the translator wrote them: codes by the ids the source gave them. */
export type TargetPiece =
  | string
  | { code: 'pc'; id: string; children: TargetPiece[] }
  /** `text`: a variable as the translator wrote it (same name, the fallback translated). */
  | { code: 'ph'; id: string; text?: string };

/** Why a translated unit cannot be taken, in words naming the code. */
export class UnitProblem extends Error {}

/**
 * The translation as stored, checked against the source: every code of the source exactly once (markup and
 * variables survive), no code the source lacks, a paired code where the source has one. The codes' markup is
 * the source's (a translation cannot bring an address or an element of its own); rich text is sanitised again.
 */
export function targetText(kind: UnitKind, source: Piece[], target: TargetPiece[]): string {
  const text = assemble(kind, source, target);
  return kind === 'html' ? sanitizeRichText(text).html : text;
}

/** The pieces as text with the source's codes, checked as {@link targetText} says, not sanitised. */
export function assemble(kind: UnitKind, source: Piece[], target: TargetPiece[]): string {
  const codes = codesOf(source);
  const seen = new Set<string>();
  const build = (pieces: TargetPiece[]): Piece[] =>
    pieces.map((p) => {
      if (typeof p === 'string') return p;
      const code = codes.get(p.id);
      if (!code) throw new UnitProblem(`has a code the source does not have (id ${p.id})`);
      if (seen.has(p.id)) throw new UnitProblem(`repeats ${codeLabel(code)} (id ${p.id})`);
      seen.add(p.id);
      if (code.code !== p.code) throw new UnitProblem(`uses ${codeLabel(code)} (id ${p.id}) as the wrong kind of code`);
      if (code.code === 'pc' && p.code === 'pc') return { ...code, children: build(p.children) };
      if (code.code === 'ph' && p.code === 'ph' && code.variable && p.text) return { ...code, text: p.text };
      return code;
    });
  const built = build(target);
  const missing = [...codes.values()].filter((c) => !seen.has(c.id));
  if (missing.length > 0) throw new UnitProblem(`lacks ${missing.map((c) => `${codeLabel(c)} (id ${c.id})`).join(', ')}`);
  return textOf(kind, built);
}

/**
 * A translation written as text (a PO file's msgstr, a model's answer) as target pieces: its markup and
 * variables matched to the source's codes by how they are written (`<a href="…">` to the source's link with
 * that address). Markup or a variable the source does not have is a problem.
 */
export function targetPiecesOfText(kind: UnitKind, source: Piece[], text: string): TargetPiece[] {
  const free = [...codesOf(source).values()];
  const take = (match: (c: PairedCode | StandaloneCode) => boolean, what: string) => {
    const i = free.findIndex(match);
    if (i < 0) throw new UnitProblem(`has ${what}, which the source does not have (or has fewer times)`);
    return free.splice(i, 1)[0]!;
  };
  const words = (s: string): TargetPiece[] => {
    const out: TargetPiece[] = [];
    let last = 0;
    for (const m of s.matchAll(VARIABLE)) {
      if (m.index > last) out.push(s.slice(last, m.index));
      const code = take((c) => c.code === 'ph' && c.variable && variableName(c.text) === m[1], m[0]);
      out.push({ code: 'ph', id: code.id, text: m[0] });
      last = m.index + m[0].length;
    }
    if (last < s.length) out.push(s.slice(last));
    return out;
  };
  if (kind === 'plain') {
    // Plain text shows as written: a tag the source does not have would show as characters, so it is a mistake.
    const tag = /<\/?[a-z][a-z0-9]*(\s[^<>]*)?>/i.exec(text)?.[0];
    if (tag && !source.some((p) => typeof p === 'string' && p.includes(tag))) throw new UnitProblem(`has markup (${tag}) where the source is plain text`);
    return words(text);
  }
  const walk = (nodes: ChildNode[]): TargetPiece[] => {
    const out: TargetPiece[] = [];
    for (const node of nodes) {
      if (isText(node)) out.push(...words(node.data));
      else if (isTag(node)) {
        if (node.name === 'br') {
          out.push({ code: 'ph', id: take((c) => c.code === 'ph' && !c.variable, '<br>').id });
          continue;
        }
        const start = startTag(new Element(node.name, sanitizedAttributes(node)));
        const code = take((c) => c.code === 'pc' && c.start === start, startTag(node));
        out.push({ code: 'pc', id: code.id, children: walk(node.children) });
      }
    }
    return out;
  };
  return walk(parseDocument(text, { decodeEntities: true }).children);
}

/** An element's attributes as the sanitiser stores them, so `<a href="x">` matches the stored `<a href="x" target=… rel=…>`. */
function sanitizedAttributes(el: Element): Record<string, string> {
  const html = sanitizeRichText(render(new Element(el.name, el.attribs, [new Text('x')]))).html;
  const parsed = parseDocument(html).children.find(isTag);
  return parsed && parsed.name === el.name ? parsed.attribs : el.attribs;
}

const variableName = (written: string) => [...written.matchAll(VARIABLE)][0]?.[1];
