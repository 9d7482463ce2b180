import type { FastifyReply } from 'fastify';

/**
 * CSV (RFC 4180) for exports that people open in spreadsheets. A cell that begins with = + - @ (or a tab
 * or carriage return) is a formula to Excel and LibreOffice: it gets a leading apostrophe, so a label
 * chosen by a user (a key or demo name) cannot run as a formula on the reader's machine.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: quoted when it holds a comma, quote or line break, a leading formula character defused,
 * `null` and `undefined` empty, a date as ISO 8601.
 *
 * @example
 * ```ts
 * import { csvCell } from './csv';
 *
 * csvCell('=1+1'); // "'=1+1"
 * csvCell('say "hi"'); // '"say ""hi"""'
 * csvCell(null); // ''
 * ```
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One line, CRLF-terminated as RFC 4180 asks.
 *
 * @example
 * ```ts
 * import { csvLine } from './csv';
 *
 * csvLine(['Onboarding, v2', 42]); // '"Onboarding, v2",42\r\n'
 * ```
 */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * Sends the rows (a header first) as a CSV download named `<name>-<YYYY-MM-DD>.csv` (the UTC day of `now`),
 * never cached: an export holds what viewers typed.
 *
 * @example
 * ```ts
 * import { sendCsv } from './csv';
 *
 * return sendCsv(reply, 'leads', [['email'], ['ada@example.com']], clock.now());
 * ```
 */
export function sendCsv(reply: FastifyReply, name: string, rows: readonly (readonly unknown[])[], now: Date) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${now.toISOString().slice(0, 10)}.csv"`)
    .header('cache-control', 'no-store')
    .send(rows.map(csvLine).join(''));
}
