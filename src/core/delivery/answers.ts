// What an outbound request's answer means before a receiver's own rules (HubSpot's 401, Slack's 404): the classes every delivery shares.
import { BlockedUrlError } from '../net/safe-fetch';
import { parseRetryAfter } from './retry-schedule';

/**
 * The class of an HTTP answer, which each domain reads after the statuses that mean more to it (410 Gone, a
 * dead Slack URL): `success` 2xx; `redirect` 3xx, never followed (it could leave the address that was
 * checked); `transient` 408, 429 and 5xx, worth another attempt; `refused` any other status, which the same
 * request would get again. `retryAfterMs` is the Retry-After of a 429 or a 503, the two statuses that carry it.
 *
 * @example
 * ```ts
 * classifyAnswer(429, { 'retry-after': '7' }, now); // { kind: 'transient', retryAfterMs: 7000 }
 * ```
 */
export function classifyAnswer(status: number, headers: Record<string, string>, now: Date): { kind: AnswerKind; retryAfterMs: number | null } {
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(headers['retry-after'], now) : null;
  if (status >= 200 && status < 300) return { kind: 'success', retryAfterMs };
  if (status >= 300 && status < 400) return { kind: 'redirect', retryAfterMs };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'transient', retryAfterMs };
  return { kind: 'refused', retryAfterMs };
}

export type AnswerKind = 'success' | 'redirect' | 'transient' | 'refused';

/**
 * Why a request got no answer, for the delivery log: the guard's refusal, a timeout, or the network error's
 * code. A request that throws is a failed attempt to retry, never an exception of the loop.
 *
 * @example
 * ```ts
 * describeSendError(Object.assign(new Error('x'), { name: 'TimeoutError' }), 10_000); // 'timed out after 10 s'
 * ```
 */
export function describeSendError(error: unknown, timeoutMs: number): string {
  if (error instanceof BlockedUrlError) return error.message;
  const err = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `timed out after ${timeoutMs / 1000} s`;
  if (err?.cause instanceof BlockedUrlError) return err.cause.message;
  const code = err?.code ?? err?.cause?.code;
  const message = err?.cause?.message ?? err?.message ?? String(error);
  return code ? `${code}: ${message}` : `network error: ${message}`;
}
