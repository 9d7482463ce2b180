import type { DayRange, Granularity } from '../../api/analytics.api';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

export const PRESETS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
] as const;

/** The last `days` UTC days, today included. */
export function lastDays(days: number, now = Date.now()): DayRange {
  const today = ms(iso(now));
  return { start: iso(today - (days - 1) * DAY_MS), end: iso(today) };
}

export const lengthInDays = (range: DayRange) => Math.round((ms(range.end) - ms(range.start)) / DAY_MS) + 1;

/** The same number of days just before `range`: what "change" compares with. */
export function previousRange(range: DayRange): DayRange {
  const days = lengthInDays(range);
  return { start: iso(ms(range.start) - days * DAY_MS), end: iso(ms(range.start) - DAY_MS) };
}

/** A readable number of points: days up to three months, weeks up to a year, months beyond. */
export function defaultGranularity(range: DayRange): Granularity {
  const days = lengthInDays(range);
  return days <= 92 ? 'day' : days <= 366 ? 'week' : 'month';
}

export function isValidRange(range: DayRange): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(range.start) && /^\d{4}-\d{2}-\d{2}$/.test(range.end) && range.start <= range.end;
}

/** The range in a page address (`?from=…&to=…`), so a view of the figures can be bookmarked and shared. */
export function rangeFromSearch(params: URLSearchParams, fallbackDays = 30): DayRange {
  const range = { start: params.get('from') ?? '', end: params.get('to') ?? '' };
  return isValidRange(range) ? range : lastDays(fallbackDays);
}

const short = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const long = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

export const formatDay = (day: string) => long.format(new Date(ms(day)));
export const formatShortDay = (day: string) => short.format(new Date(ms(day)));

export function describeRange(range: DayRange): string {
  return range.start === range.end ? formatDay(range.start) : `${formatDay(range.start)} – ${formatDay(range.end)}`;
}

/** The label of a series period: a day, "week of 3 Nov", or "Nov 2026". */
export function periodLabel(start: string, granularity: Granularity): string {
  if (granularity === 'month') {
    return new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(ms(start)));
  }
  return granularity === 'week' ? `Week of ${formatShortDay(start)}` : formatShortDay(start);
}
