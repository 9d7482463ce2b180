// When the next attempt of a failed delivery runs: the configured delays, or the receiver's Retry-After.
/** Longest Retry-After we honour: a receiver cannot park a delivery for longer than a day. */
const MAX_RETRY_AFTER_MS = 86_400_000;
const JITTER = 0.1;

/**
 * The wait before the retry that follows failed attempt `attempt` (1 for the first attempt), or null when
 * the schedule is used up. ±10 % jitter spreads retries of many deliveries that failed together (a
 * receiver outage) so that they do not all come back in the same second.
 */
export function retryDelay(attempt: number, schedule: number[], random: () => number = Math.random): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

export type AttemptVerdict =
  | { kind: 'succeeded' }
  /** Retry on the schedule, or after `retryAfterMs` when the receiver said when. */
  | { kind: 'retry'; reason: string; retryAfterMs: number | null }
  /** 410 Gone: the receiver asks us to stop for good. */
  | { kind: 'gone'; reason: string };

/** What an HTTP answer means for the delivery. Redirects are failures: following one could leave the URL that was checked. */
export function judgeResponse(status: number, headers: Record<string, string>, now: Date): AttemptVerdict {
  if (status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'gone', reason: 'the receiver answered 410 Gone' };
  if (status >= 300 && status < 400) {
    const to = headers.location ? ` to ${headers.location}` : '';
    return { kind: 'retry', reason: `redirect (${status})${to} not followed`, retryAfterMs: null };
  }
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(headers['retry-after'], now) : null;
  return { kind: 'retry', reason: `the receiver answered ${status}`, retryAfterMs };
}
