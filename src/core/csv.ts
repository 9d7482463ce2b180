/**
 * CSV (RFC 4180) for exports that people open in spreadsheets. A cell that begins with = + - @ (or a tab
 * or carriage return) is a formula to Excel and LibreOffice: it gets a leading apostrophe, so a label
 * chosen by a user (a key or demo name) cannot run as a formula on the reader's machine.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF-terminated as RFC 4180 asks. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
