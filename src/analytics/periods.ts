// Series periods (day, week from Monday, month) in UTC: a day's period start, and every start of a range.
import { invalid } from '../core/errors';

/** The period of a series' entries. */
export type Granularity = 'day' | 'week' | 'month';

/** The first day of the period (UTC) that `day` (YYYY-MM-DD) falls in; weeks start on Monday. */
export function periodStart(day: string, granularity: Granularity): string {
  if (granularity === 'day') return day;
  if (granularity === 'month') return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00.000Z`);
  const offset = (date.getUTCDay() + 6) % 7;
  return new Date(date.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
}

/** A series answers at most this many periods: ten years of days. */
export const MAX_PERIODS = 3_660;

/** The start of every period from the one `first` falls in to the one `last` falls in (YYYY-MM-DD, UTC). */
export function periodStarts(first: string, last: string, granularity: Granularity): string[] {
  const out: string[] = [];
  const end = periodStart(last, granularity);
  let at = periodStart(first, granularity);
  while (at <= end) {
    out.push(at);
    if (out.length > MAX_PERIODS) {
      throw invalid(`This range has more than ${MAX_PERIODS} periods of a ${granularity}: choose a shorter range or a coarser granularity`, [
        { field: 'granularity', message: `more than ${MAX_PERIODS} periods in the range` },
      ]);
    }
    const date = new Date(`${at}T00:00:00.000Z`);
    if (granularity === 'day') date.setUTCDate(date.getUTCDate() + 1);
    else if (granularity === 'week') date.setUTCDate(date.getUTCDate() + 7);
    else date.setUTCMonth(date.getUTCMonth() + 1);
    at = date.toISOString().slice(0, 10);
  }
  return out;
}
