import { csvLine } from '../../../../src/core/csv';

/** Saves rows as a CSV file (formulas neutralised by the same code as the server's exports). */
export function downloadCsv(filename: string, header: string[], rows: unknown[][]) {
  const text = [header, ...rows].map(csvLine).join('');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The click has started the download; the address can go on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
