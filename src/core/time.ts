import { z } from 'zod';
import { invalid } from './errors';

/** ISO 8601 UTC with milliseconds, the only timestamp format on the wire. */
export function iso(date: Date): string;
export function iso(date: Date | null | undefined): string | null;
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

export const timestamp = z.iso.datetime().meta({ example: '2026-11-21T10:00:00.000Z' });

/** A date filter: `YYYY-MM-DD` (a whole UTC day) or a full ISO timestamp. */
export const dateFilter = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Resolves a date filter to an instant: a bare day is its first millisecond, or its last when `endOfDay`. */
export function resolveDateFilter(value: string, endOfDay: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = new Date(`${value}T00:00:00.000Z`);
    return endOfDay ? new Date(start.getTime() + 86_400_000 - 1) : start;
  }
  return new Date(value);
}

/** Parses durations such as `500ms`, `10s`, `5m`, `2h`, `5d`. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration such as 500ms, 10s, 5m, 2h or 5d`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'ms'];
  return Math.round(Number(match[1]) * unit);
}

/** A range's instants from its optional bounds; an end before the start is a 400 that names both. */
export function resolveDateRange(startDate: string | undefined, endDate: string | undefined) {
  const from = startDate ? resolveDateFilter(startDate, false) : undefined;
  const to = endDate ? resolveDateFilter(endDate, true) : undefined;
  if (from && to && to < from) {
    throw invalid('end_date is before start_date', [
      { field: 'start_date', message: 'must be on or before end_date' },
      { field: 'end_date', message: 'must be on or after start_date' },
    ]);
  }
  return { from, to };
}
