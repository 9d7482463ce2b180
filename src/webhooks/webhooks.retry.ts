// When the next attempt of a failed delivery runs: the configured delays, or the receiver's Retry-After.
import { parseRetryAfter } from '../core/retry-schedule';

// The schedule itself is shared with the Slack alerts (core/retry-schedule.ts).
export { parseRetryAfter, retryDelay } from '../core/retry-schedule';

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
