import type { CSSToken } from '@csstools/css-tokenizer';
import { TokenType } from '@csstools/css-tokenizer';

/**
 * Writes CSS tokens back as text in one canonical form (CSS Syntax Level 3, §9 "Serialization", and
 * CSSOM's serialisation of identifiers and strings), so that a spec-conforming tokenizer reading the
 * output finds the same tokens with the same values: escapes only where they are needed, every address
 * quoted, and an empty comment between two tokens that would otherwise run together (`a/**\/b`).
 * `<` is always a hex escape inside names and strings, so that no `</style` or tag can be written
 * through them.
 */

/** The kind of the last piece written, which decides whether the next one needs a separating comment. */
export type Piece = string;

const hex = (c: string) => `\\${c.codePointAt(0)!.toString(16)} `;
/**
 * Name code points as CSS Syntax Level 3 defines them today: ASCII letters, digits, `_`, `-`, and the
 * non-ASCII ranges below. Browsers that still take every code point from U+0080 as a name character
 * read an escape the same way, so anything outside these is written escaped and both read one name.
 */
const NON_ASCII_NAME: Array<[number, number]> = [
  [0xb7, 0xb7], [0xc0, 0xd6], [0xd8, 0xf6], [0xf8, 0x37d], [0x37f, 0x1fff], [0x200c, 0x200d], [0x203f, 0x2040],
  [0x2070, 0x218f], [0x2c00, 0x2fef], [0x3001, 0xd7ff], [0xf900, 0xfdcf], [0xfdf0, 0xfffd], [0x10000, 0x10ffff],
];
const isNameChar = (c: string) => {
  if (/[a-zA-Z0-9_-]/.test(c)) return true;
  const n = c.codePointAt(0)!;
  return NON_ASCII_NAME.some(([from, to]) => n >= from && n <= to);
};
const isControl = (c: string) => {
  const n = c.codePointAt(0)!;
  return (n >= 0x1 && n <= 0x1f) || n === 0x7f;
};

/** CSSOM "serialize an identifier", with `<` hex-escaped. */
const PLAIN_IDENTIFIER = /^(?:-?[a-zA-Z_]|--)[a-zA-Z0-9_-]*$/;
const PLAIN_NAME = /^[a-zA-Z0-9_-]+$/;
/** No quote, backslash, `<` or control character: nothing to escape. */
const PLAIN_STRING = /^[^"\\<\p{Cc}]*$/u;

export function identifier(value: string): string {
  // Most names are plain ASCII and are written as they are.
  if (value !== '--' && PLAIN_IDENTIFIER.test(value)) return value;
  const chars = [...value];
  if (chars.length === 1 && chars[0] === '-') return '\\-';
  // `--` then `>` would read as `-->` (CDC), which the serialisation table of the spec misses.
  if (value === '--') return '-\\-';
  let out = '';
  chars.forEach((c, i) => {
    if (c === '\0') out += '\uFFFD';
    else if (isControl(c) || c === '<' || (!isNameChar(c) && c.codePointAt(0)! >= 0x80)) out += hex(c);
    else if (/[0-9]/.test(c) && (i === 0 || (i === 1 && chars[0] === '-'))) out += hex(c);
    else if (isNameChar(c)) out += c;
    else out += `\\${c}`;
  });
  return out;
}

/** A hash's name: any name code point as it is, so `#123` stays the colour it was. */
function name(value: string): string {
  if (PLAIN_NAME.test(value)) return value;
  let out = '';
  for (const c of value) {
    if (c === '\0') out += '\uFFFD';
    else if (isControl(c) || c === '<' || (!isNameChar(c) && c.codePointAt(0)! >= 0x80)) out += hex(c);
    else if (isNameChar(c)) out += c;
    else out += `\\${c}`;
  }
  return out;
}

/** CSSOM "serialize a string", double-quoted, with `<` hex-escaped. */
export function string(value: string): string {
  if (PLAIN_STRING.test(value)) return `"${value}"`;
  let out = '"';
  for (const c of value) {
    if (c === '\0') out += '\uFFFD';
    else if (isControl(c) || c === '<') out += hex(c);
    else if (c === '"' || c === '\\') out += `\\${c}`;
    else out += c;
  }
  return `${out}"`;
}

const NUMBER = /^[+-]?(?:\d*\.\d+|\d+)(?:[eE][+-]?\d+)?/;

/** A dimension's unit: an identifier that cannot be read as the number's exponent (`1\65 3` is 1 with unit e3). */
function unit(value: string): string {
  const written = identifier(value);
  return /^[eE]-?\d/.test(value) ? hex(value[0]!) + written.slice(1) : written;
}

/** Text and kind of one token (not a function, block or url: those are written by the caller). */
export function token(t: CSSToken): [text: string, kind: Piece] {
  const value = (t[4] as { value?: unknown } | undefined)?.value;
  switch (t[0]) {
    case TokenType.Ident:
      return [identifier(value as string), 'ident'];
    case TokenType.AtKeyword:
      return [`@${identifier(value as string)}`, 'at'];
    case TokenType.Hash:
      // An id-type hash (`#\31 23`, a valid ID selector) stays one; an unrestricted one (`#123`) stays as written.
      return [`#${(t[4] as { type: string }).type === 'id' ? identifier(value as string) : name(value as string)}`, 'hash'];
    case TokenType.String:
      return [string(value as string), 'string'];
    case TokenType.Number:
      return [t[1], 'number'];
    case TokenType.Percentage:
      return [`${NUMBER.exec(t[1])![0]}%`, 'percentage'];
    case TokenType.Dimension:
      return [NUMBER.exec(t[1])![0] + unit((t[4] as { unit: string }).unit), 'dimension'];
    case TokenType.Whitespace:
      return [' ', 'space'];
    case TokenType.Delim:
      return [value as string, `delim${value as string}`];
    case TokenType.Colon:
      return [':', 'colon'];
    case TokenType.Semicolon:
      return [';', 'semicolon'];
    case TokenType.Comma:
      return [',', 'comma'];
    case TokenType.CloseParen:
      return [')', ')'];
    case TokenType.CloseSquare:
      return [']', ']'];
    case TokenType.CloseCurly:
      return ['}', '}'];
    default:
      throw new Error(`${t[0]} is not written by token()`);
  }
}

const STARTS_NAME = new Set(['ident', 'function', 'delim-', 'number', 'percentage', 'dimension', 'cdc']);
const NUMERIC = new Set(['number', 'percentage', 'dimension']);

/** Whether `previous` followed directly by `next` would tokenize differently (CSS Syntax §9's table). */
export function needsComment(previous: Piece, next: Piece): boolean {
  switch (previous) {
    case 'ident':
      return STARTS_NAME.has(next) || next === '(';
    case 'at':
    case 'hash':
    case 'dimension':
    case 'delim#':
    case 'delim-':
      return STARTS_NAME.has(next) && !(next === 'cdc' && (previous === 'delim#' || previous === 'delim-'));
    case 'number':
      return (STARTS_NAME.has(next) && next !== 'delim-' && next !== 'cdc') || next === 'delim%';
    case 'delim@':
      return next === 'ident' || next === 'function' || next === 'delim-';
    case 'delim.':
    case 'delim+':
      return NUMERIC.has(next);
    case 'delim/':
      return next === 'delim*';
    default:
      return false;
  }
}
