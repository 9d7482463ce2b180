// What a receiver's answer means for a webhook delivery; the schedule and the classes are every delivery's (core/delivery).
import { classifyAnswer } from '../core/delivery/answers';

export type AttemptVerdict =
  | { kind: 'succeeded' }
  /** Retry on the schedule, or after `retryAfterMs` when the receiver said when. */
  | { kind: 'retry'; reason: string; retryAfterMs: number | null }
  /** 410 Gone: the receiver asks us to stop for good. */
  | { kind: 'gone'; reason: string };

/** What an HTTP answer means for the delivery: every failure but 410 is retried, a redirect included (never followed). */
export function judgeResponse(status: number, headers: Record<string, string>, now: Date): AttemptVerdict {
  const { kind, retryAfterMs } = classifyAnswer(status, headers, now);
  if (kind === 'success') return { kind: 'succeeded' };
  if (status === 410) return { kind: 'gone', reason: 'the receiver answered 410 Gone' };
  if (kind === 'redirect') {
    const to = headers.location ? ` to ${headers.location}` : '';
    return { kind: 'retry', reason: `redirect (${status})${to} not followed`, retryAfterMs: null };
  }
  return { kind: 'retry', reason: `the receiver answered ${status}`, retryAfterMs };
}
