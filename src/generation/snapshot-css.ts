import { type CSSToken, TokenType, tokenize } from '@csstools/css-tokenizer';
import { AT_RULES, DATA_URL, DROPPED_PROPERTIES, PLAIN_FUNCTIONS, STRING_URL_FUNCTIONS, URL_FUNCTIONS } from './css-allow-lists';
import { needsComment, type Piece, string, identifier, token as tokenText } from './css-serialize';

/**
 * The CSS of a snapshot (style elements, inlined stylesheets, style attributes, SVG presentation
 * attributes), cleaned as a browser will read it. The text goes through a CSS Syntax Level 3 tokenizer,
 * which resolves escapes (`u\72l(` and `u\rl(` are `url(`), comments and bad-url tokens exactly as a
 * browser does; every address is resolved against the stylesheet and judged by `mayReach` (the SSRF
 * guard's syntax check) after that; and the result is written back from the tokens, so what the viewer's
 * browser parses is what was checked. The walk is iterative and nesting is capped.
 *
 * What is dropped, with the declaration or rule it stands in: an address `mayReach` refuses or that is
 * not http(s), a fragment (`#id`, a reference into the snapshot) or a picture/font `data:` URL; a
 * function or at-rule not on the allow-lists (css-allow-lists.ts); a bad url or bad string; any string
 * that reads as an address `mayReach` refuses (a custom property's string can become an `image-set()`
 * address through `var()`). Nesting deeper than MAX_CSS_NESTING drops the whole text.
 */

export type MayReach = (url: string) => boolean;

/** Blocks and functions inside one another, at most; deeper CSS is dropped whole. */
export const MAX_CSS_NESTING = 64;

interface Leaf {
  kind: 'token';
  token: CSSToken;
  /** An address as it will be written (a url token, or a string that is an address), once judged. */
  address?: string;
}
interface Group {
  kind: 'function' | 'block';
  /** Decoded, ASCII-lowercased function name; '(' '[' '{' for a block. */
  name: string;
  /** The function's name as written back (decoded, re-escaped). */
  opener: string;
  children: Node[];
}
type Node = Leaf | Group;

const CLOSERS: Record<string, TokenType> = { '(': TokenType.CloseParen, '[': TokenType.CloseSquare, '{': TokenType.CloseCurly };
const CLOSE_TEXT: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const tokenValue = (t: CSSToken) => (t[4] as { value?: unknown } | undefined)?.value;
// A plain boolean, not a type guard: a guard would also narrow the other branch, wrongly, by token type.
const isLeaf = (n: Node | undefined, type: TokenType): boolean => n?.kind === 'token' && n.token[0] === type;
const leafValue = (n: Node) => tokenValue((n as Leaf).token) as string;
const isSpace = (n: Node) => isLeaf(n, TokenType.Whitespace);

/** Component values (CSS Syntax §5.4.7): tokens with functions and blocks as groups; null when nested too deep. */
function componentValues(css: string): Node[] | null {
  const root: Node[] = [];
  const open: Group[] = [];
  const here = () => open.at(-1)?.children ?? root;
  for (const t of tokenize({ css })) {
    const type = t[0];
    if (type === TokenType.Comment || type === TokenType.EOF) continue;
    let group: Group | null = null;
    if (type === TokenType.Function) {
      const name = tokenValue(t) as string;
      group = { kind: 'function', name: lower(name), opener: `${identifier(name)}(`, children: [] };
    } else if (type === TokenType.OpenParen || type === TokenType.OpenSquare || type === TokenType.OpenCurly) {
      group = { kind: 'block', name: t[1], opener: t[1], children: [] };
    }
    if (group) {
      here().push(group);
      open.push(group);
      if (open.length > MAX_CSS_NESTING) return null;
      continue;
    }
    const top = open.at(-1);
    if (top && type === CLOSERS[top.kind === 'function' ? '(' : top.name]) open.pop();
    else here().push({ kind: 'token', token: t });
  }
  return root;
}

interface Context {
  baseUrl: string;
  mayReach: MayReach;
}

/** The address as it will be written, or null when it may not stay. */
function judgeAddress(raw: string, ctx: Context, from: 'value' | 'import'): string | null {
  // The URL parser strips the same C0-and-space edges; done here too so `#` and `data:` are seen.
  const value = raw.replace(/^[\0-\x20]+|[\0-\x20]+$/g, '');
  if (value === '') return null;
  if (from === 'value' && value.startsWith('#')) return value;
  if (/^data:/i.test(value)) return from === 'value' && DATA_URL.test(value) ? value : null;
  let url: URL;
  try {
    url = new URL(value, ctx.baseUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return ctx.mayReach(url.href) ? url.href : null;
}

/** A string outside an address slot: refused only when it reads as an http(s) address `mayReach` refuses. */
function refusedString(value: string, ctx: Context): boolean {
  let url: URL;
  try {
    url = new URL(value, ctx.baseUrl);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && !ctx.mayReach(url.href);
}

/** The one string inside `url("…")` / `src("…")`, or null when there is anything else (modifiers, var()). */
function soleString(group: Group): Leaf | null {
  const parts = group.children.filter((n) => !isSpace(n));
  return parts.length === 1 && isLeaf(parts[0], TokenType.String) ? (parts[0] as Leaf) : null;
}

/**
 * Checks every component value in `nodes`, at any depth, and fixes the addresses it keeps in place.
 * False when something must go: the caller drops the statement these belong to.
 */
function checkValues(nodes: Node[], ctx: Context, property = ''): boolean {
  const stack: Node[] = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'token') {
      const t = node.token;
      switch (t[0]) {
        case TokenType.URL:
          if (!judge(node, tokenValue(t) as string, ctx, 'value')) return false;
          break;
        case TokenType.String:
          if (node.address === undefined && refusedString(tokenValue(t) as string, ctx)) return false;
          break;
        case TokenType.BadURL:
        case TokenType.BadString:
        case TokenType.CDO:
        case TokenType.CDC:
          return false;
        case TokenType.Delim:
          // A lone backslash (before a newline) cannot be written back as itself.
          if (tokenValue(t) === '\\') return false;
          break;
      }
      continue;
    }
    if (node.kind === 'function') {
      if (URL_FUNCTIONS.has(node.name)) {
        const inner = soleString(node);
        if (!inner || !judge(inner, tokenValue(inner.token) as string, ctx, 'value')) return false;
        continue;
      }
      if (node.name === 'attr' && property === 'content' && plainAttr(node)) continue;
      if (STRING_URL_FUNCTIONS.has(node.name)) {
        for (const child of node.children) {
          if (isLeaf(child, TokenType.String) && !judge(child as Leaf, leafValue(child), ctx, 'value')) return false;
        }
      } else if (!PLAIN_FUNCTIONS.has(node.name)) {
        return false;
      }
    }
    stack.push(...node.children);
  }
  return true;
}

/**
 * `content: attr(data-label)` (tooltips draw their text so): an attribute's text as text, and nothing
 * else: the CSS Values 5 forms that type the value (`attr(x type(<url>))`) are left out.
 */
function plainAttr(group: Group): boolean {
  const parts = group.children.filter((n) => !isSpace(n));
  return (
    isLeaf(parts[0], TokenType.Ident) &&
    (parts.length === 1 || (parts.length === 3 && isLeaf(parts[1], TokenType.Comma) && isLeaf(parts[2], TokenType.String)))
  );
}

/** Judges the address `raw` that `leaf` holds, recording how it is written back; false when it may not stay. */
function judge(leaf: Leaf, raw: string, ctx: Context, from: 'value' | 'import'): boolean {
  const address = judgeAddress(raw, ctx, from);
  if (address === null) return false;
  leaf.address = address;
  return true;
}

/** The stylesheet an @import loads, first in its prelude: a url, `url("…")`/`src("…")`, or a string. */
function checkImport(prelude: Node[], ctx: Context): boolean {
  const at = prelude.findIndex((n) => !isSpace(n));
  const target = prelude[at];
  if (!target) return false;
  let judged = false;
  if (isLeaf(target, TokenType.URL) || isLeaf(target, TokenType.String)) {
    judged = judge(target as Leaf, leafValue(target), ctx, 'import');
  } else if (target.kind === 'function' && URL_FUNCTIONS.has(target.name)) {
    const inner = soleString(target);
    judged = inner !== null && judge(inner, tokenValue(inner.token) as string, ctx, 'import');
  }
  return judged && checkValues(prelude.slice(at + 1), ctx);
}

const firstSolid = (nodes: Node[]) => nodes.find((n) => !isSpace(n));

/** Whether a statement's prelude (a declaration, or a rule's selector or at-rule prelude) may stay. */
function keepStatement(prelude: Node[], ctx: Context): boolean {
  const first = firstSolid(prelude);
  if (first && isLeaf(first, TokenType.AtKeyword)) {
    const name = lower(leafValue(first));
    if (!AT_RULES.has(name)) return false;
    const rest = prelude.slice(prelude.indexOf(first) + 1);
    return name === 'import' ? checkImport(rest, ctx) : checkValues(rest, ctx);
  }
  const next = first && isLeaf(first, TokenType.Ident) ? firstSolid(prelude.slice(prelude.indexOf(first) + 1)) : undefined;
  const property = next && isLeaf(next, TokenType.Colon) ? lower(leafValue(first!)) : '';
  if (DROPPED_PROPERTIES.has(property)) return false;
  return checkValues(prelude, ctx, property);
}

/**
 * Cleans a list of statements (a stylesheet, a style attribute, a block's contents) and every block
 * inside the ones kept, in place. A statement runs to a `;` or through a `{}` block. A dropped
 * declaration leaves its `;`, so its neighbours read as before; a dropped at-rule takes its `;` along
 * (at the top of a stylesheet a stray `;` would become part of the next rule's selector).
 */
function cleanStatements(root: Node[], ctx: Context, stylesheet: boolean): void {
  // At the top of a stylesheet `<!--` and `-->` are skipped, as browsers do for old inline styles.
  const top = stylesheet ? root.filter((n) => !isLeaf(n, TokenType.CDO) && !isLeaf(n, TokenType.CDC)) : root;
  const work: Array<{ list: Node[]; into: Node[] }> = [{ list: top, into: root }];
  while (work.length > 0) {
    const { list, into } = work.pop()!;
    const kept: Node[] = [];
    for (let i = 0; i < list.length; ) {
      let end = i;
      let body: Group | null = null;
      let semicolon = false;
      while (end < list.length && !body && !semicolon) {
        const node = list[end++]!;
        semicolon = isLeaf(node, TokenType.Semicolon);
        if (node.kind === 'block' && node.name === '{') body = node;
      }
      const statement = list.slice(i, end);
      i = end;
      const prelude = body || semicolon ? statement.slice(0, -1) : statement;
      if (keepStatement(prelude, ctx)) {
        kept.push(...statement);
        if (body) work.push({ list: body.children, into: body.children });
      } else if (semicolon && !isLeaf(firstSolid(prelude), TokenType.AtKeyword)) {
        kept.push(statement.at(-1)!);
      }
    }
    into.length = 0;
    into.push(...kept);
  }
}

/** An address that reads back as the same url token unquoted: no space, quote, parenthesis, escape or `&<>`. */
const PLAIN_ADDRESS = /^[A-Za-z0-9\-._~:/?#[\]@!$*+,;=%]+$/;

/** Writes the component values back as canonical text (css-serialize.ts), iteratively. */
function write(nodes: Node[]): string {
  const out: string[] = [];
  let previous: Piece = 'space';
  // White space is written only between two other pieces: never first, last, or twice in a row.
  let space = false;
  const put = (text: string, kind: Piece) => {
    if (kind === 'space') {
      space = out.length > 0;
      return;
    }
    if (space) {
      out.push(' ');
      previous = 'space';
      space = false;
    }
    if (needsComment(previous, kind)) out.push('/**/');
    out.push(text);
    previous = kind;
  };
  const stack: Array<Node | { close: string }> = [...nodes].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('close' in item) {
      put(item.close, item.close);
    } else if (item.kind === 'token') {
      if (item.address !== undefined && item.token[0] === TokenType.URL && PLAIN_ADDRESS.test(item.address)) {
        // Unquoted as it came, when nothing in it needs a quote: `fill:url(#g)` in an SVG style stays free
        // of the quotes that SVG text would carry as character references (sanitize.ts).
        put(`url(${item.address})`, 'function');
        put('', ')');
      } else if (item.address !== undefined && item.token[0] === TokenType.URL) {
        put('url(', 'function');
        put(string(item.address), 'string');
        put(')', ')');
      } else if (item.address !== undefined) {
        put(string(item.address), 'string');
      } else {
        put(...tokenText(item.token));
      }
    } else {
      put(item.opener, item.kind === 'function' ? 'function' : item.opener);
      stack.push({ close: item.kind === 'function' ? ')' : CLOSE_TEXT[item.name]! });
      for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]!);
    }
  }
  return out.join('');
}

function cleanOnce(css: string, ctx: Context, stylesheet: boolean): string {
  const nodes = componentValues(css);
  if (nodes === null) return '';
  cleanStatements(nodes, ctx, stylesheet);
  return write(nodes);
}

/**
 * Cleans, then cleans the result again: the two must agree, or nothing is kept. This is what makes the
 * output safe whatever the input: the text handed to the browser is one this check leaves unchanged.
 */
function clean(css: string, ctx: Context, stylesheet: boolean): string {
  const once = cleanOnce(css, ctx, stylesheet);
  return cleanOnce(once, ctx, stylesheet) === once ? once : '';
}

/** A stylesheet (a style element's text, an inlined stylesheet) as a snapshot may keep it. */
export function cleanStylesheet(css: string, baseUrl: string, mayReach: MayReach): string {
  return clean(css, { baseUrl, mayReach }, true);
}

/** A style attribute's declarations as a snapshot may keep them ('' when none may). */
export function cleanDeclarations(css: string, baseUrl: string, mayReach: MayReach): string {
  return clean(css, { baseUrl, mayReach }, false);
}

/** One property value (an SVG presentation attribute such as fill or filter), or null when it may not stay. */
export function cleanValue(value: string, baseUrl: string, mayReach: MayReach): string | null {
  const ctx = { baseUrl, mayReach };
  const check = (text: string) => {
    const nodes = componentValues(text);
    return nodes !== null && !nodes.some((n) => isLeaf(n, TokenType.Semicolon)) && checkValues(nodes, ctx) ? write(nodes) : null;
  };
  const once = check(value);
  return once !== null && check(once) === once ? once : null;
}
