// Time on the wire: one timestamp format, and the one parser of the dates a request may filter by, kept in the range PostgreSQL accepts.
import { z } from 'zod';
import { invalid } from './errors';

/**
 * ISO 8601 UTC with milliseconds, the only timestamp format on the wire.
 *
 * @example
 * ```ts
 * import { iso } from './time';
 *
 * iso(new Date(Date.UTC(2026, 10, 21, 10))); // '2026-11-21T10:00:00.000Z'
 * iso(null); // null
 * ```
 */
export function iso(date: Date): string;
export function iso(date: Date | null | undefined): string | null;
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/**
 * The schema of a timestamp on the wire (for response schemas and the OpenAPI document).
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { timestamp } from './time';
 *
 * const demo = z.object({ created_at: timestamp, published_at: timestamp.nullable() });
 * ```
 */
export const timestamp = z.iso.datetime().meta({ example: '2026-11-21T10:00:00.000Z' });

/**
 * The instants a date filter may name. PostgreSQL has no year 0 (JavaScript's `0000` is 1 BC) and JavaScript
 * writes years past 9999 as `+010000`, which PostgreSQL refuses: either reached a query as a 500. Nothing in
 * the service predates the Unix epoch, so the range starts there and ends where four-digit years do.
 *
 * @example
 * ```ts
 * import { dateFilter, EARLIEST_DATE } from './time';
 *
 * dateFilter.safeParse(EARLIEST_DATE).success; // true
 * dateFilter.safeParse('1969-12-31').success; // false
 * ```
 */
export const EARLIEST_DATE = '1970-01-01';
/**
 * The last day a date filter may name (see EARLIEST_DATE).
 *
 * @example
 * ```ts
 * import { dateFilter, LATEST_DATE } from './time';
 *
 * dateFilter.safeParse(LATEST_DATE).success; // true
 * ```
 */
export const LATEST_DATE = '9999-12-31';
const EARLIEST_MS = Date.parse(`${EARLIEST_DATE}T00:00:00.000Z`);
const LATEST_MS = Date.parse(`${LATEST_DATE}T23:59:59.999Z`);

const DATE_FORMAT_MESSAGE = 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone, such as 2026-11-21 or 2026-11-21T10:00:00Z';
const DATE_RANGE_MESSAGE = `must be between ${EARLIEST_DATE} and ${LATEST_DATE} (UTC)`;

/**
 * What every date parameter's description ends with: the accepted forms and range.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { DATE_FILTER_RANGE_TEXT, dateFilter } from './time';
 *
 * const query = z.object({ start_date: dateFilter.optional().meta({ description: `First day counted. ${DATE_FILTER_RANGE_TEXT}` }) });
 * ```
 */
export const DATE_FILTER_RANGE_TEXT = `Dates from ${EARLIEST_DATE} to ${LATEST_DATE} (UTC); anything else is a 400 naming the parameter.`;

const BARE_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The instant a well-formed date filter names: a bare day is its first millisecond, or its last when `endOfDay`. */
function instantOf(value: string, endOfDay: boolean): number {
  if (!BARE_DAY.test(value)) return Date.parse(value);
  const start = Date.parse(`${value}T00:00:00.000Z`);
  return endOfDay ? start + 86_400_000 - 1 : start;
}

const inRange = (ms: number) => ms >= EARLIEST_MS && ms <= LATEST_MS;

/**
 * A date filter: `YYYY-MM-DD` (a whole UTC day) or a full ISO timestamp, within EARLIEST_DATE..LATEST_DATE.
 * The one parser of dates a request carries (query parameters and MCP tool arguments): routes validate with
 * it, services resolve with `resolveDateRange`.
 *
 * @example
 * ```ts
 * import { dateFilter } from './time';
 *
 * dateFilter.safeParse('2026-11-21').success; // true
 * dateFilter.safeParse('2026-11-21T10:00:00+02:00').success; // true
 * dateFilter.safeParse('21/11/2026').success; // false
 * ```
 */
export const dateFilter = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: DATE_FORMAT_MESSAGE })
  // A timestamp's offset can carry a day in range past either end (9999-12-31T23:00:00-05:00).
  .refine((value) => inRange(instantOf(value, false)), DATE_RANGE_MESSAGE);

/**
 * Resolves a date filter to an instant: a bare day is its first millisecond, or its last when `endOfDay`.
 *
 * @example
 * ```ts
 * import { resolveDateFilter } from './time';
 *
 * resolveDateFilter('2026-11-21', true).toISOString(); // '2026-11-21T23:59:59.999Z'
 * ```
 */
export function resolveDateFilter(value: string, endOfDay: boolean): Date {
  return new Date(instantOf(value, endOfDay));
}

/**
 * Parses durations such as `500ms`, `10s`, `5m`, `2h`, `5d`.
 *
 * @example
 * ```ts
 * import { parseDuration } from './time';
 *
 * parseDuration('15m'); // 900000
 * parseDuration('1.5s'); // 1500
 * ```
 */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration such as 500ms, 10s, 5m, 2h or 5d`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'ms'];
  return Math.round(Number(match[1]) * unit);
}

/**
 * A range's instants from its optional bounds, each checked as `dateFilter` checks it (a caller that skipped
 * the schema still gets a 400, never a query with a date PostgreSQL refuses); an end before the start is a
 * 400 that names both.
 *
 * @example
 * ```ts
 * import { resolveDateRange } from './time';
 *
 * const { from, to } = resolveDateRange('2026-11-01', '2026-11-30'); // to: 2026-11-30T23:59:59.999Z
 * resolveDateRange('2026-12-01', '2026-11-01'); // throws a 400 that names both dates
 * ```
 */
export function resolveDateRange(startDate: string | undefined, endDate: string | undefined) {
  const bound = (field: string, value: string | undefined, endOfDay: boolean) => {
    if (value === undefined) return undefined;
    const parsed = dateFilter.safeParse(value);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? DATE_FORMAT_MESSAGE;
      throw invalid(`${field} ${message}`, [{ field, message }]);
    }
    return resolveDateFilter(value, endOfDay);
  };
  const from = bound('start_date', startDate, false);
  const to = bound('end_date', endDate, true);
  if (from && to && to < from) {
    throw invalid('end_date is before start_date', [
      { field: 'start_date', message: 'must be on or before end_date' },
      { field: 'end_date', message: 'must be on or after start_date' },
    ]);
  }
  return { from, to };
}
