// When the next attempt of a failed outgoing request runs: the schedule's delays, or the receiver's Retry-After (webhooks, Slack, HubSpot).
/** Longest Retry-After we honour: a receiver cannot park a delivery for longer than a day. */
const MAX_RETRY_AFTER_MS = 86_400_000;
const JITTER = 0.1;

/**
 * The wait before the retry that follows failed attempt `attempt` (1 for the first attempt), or null when
 * the schedule is used up. ±10 % jitter spreads retries of many deliveries that failed together (a
 * receiver outage) so that they do not all come back in the same second.
 *
 * @example
 * ```ts
 * retryDelay(1, [60_000, 300_000]); // about 60 000
 * retryDelay(3, [60_000, 300_000]); // null: give up
 * ```
 */
export function retryDelay(attempt: number, schedule: readonly number[], random: () => number = Math.random): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * When the retry after failed attempt `attempt` runs, or null when the schedule is used up. Retry-After
 * (`retryAfterMs`) moves the retry sooner or later but never grants an attempt the schedule does not have.
 *
 * @example
 * ```ts
 * nextAttemptAt(1, [60_000], endedAt, 5_000); // endedAt + 5 s; nextAttemptAt(2, ...) is null: give up
 * ```
 */
export function nextAttemptAt(
  attempt: number,
  schedule: readonly number[],
  endedAt: Date,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): Date | null {
  const scheduled = retryDelay(attempt, schedule, random);
  if (scheduled === null) return null;
  return new Date(endedAt.getTime() + (retryAfterMs ?? scheduled));
}

/** How every HTTP-date form opens: the day's name, short or long. */
const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/**
 * Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfter('30', new Date()); // 30 000
 * ```
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // Only an HTTP-date (RFC 9110: IMF-fixdate, or the obsolete RFC 850 and asctime forms, each opening with
    // the day's name) may be a date: JavaScript's parser would read "-5" or "1.5" as a day in 2001.
    if (!HTTP_DATE_START.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
