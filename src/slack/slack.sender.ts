// One POST of a message to an incoming webhook through the SSRF guard, and what Slack's answer means.
import { classifyAnswer, describeSendError } from '../core/delivery/answers';
import type { SafeFetch } from '../core/net/safe-fetch';

/** What the log keeps of Slack's answer (it is a word: `ok`, `no_service`, `invalid_payload`). */
const EXCERPT_BYTES = 512;

export type SlackVerdict =
  | { kind: 'sent' }
  /** Try again on the schedule, or after `retryAfterMs` when Slack said when (429). */
  | { kind: 'retry'; reason: string; retryAfterMs: number | null }
  /** This message will never be taken (400 `invalid_payload`...): failed, the destination stays. */
  | { kind: 'rejected'; reason: string }
  /** The URL is dead (404 `no_service`, `channel_not_found`, 410 `channel_is_archived`, 403): stop and tell. */
  | { kind: 'dead'; reason: string };

export interface SlackExchange {
  verdict: SlackVerdict;
  statusCode: number | null;
}

/**
 * What an answer of an incoming webhook means. Slack answers `ok` with 200; a dead URL with 404 or 410
 * (`no_service`, `channel_not_found`, `channel_is_archived`) or 403 (`invalid_token`, `action_prohibited`,
 * `team_disabled`); a message it cannot take with 400; its limits with 429 and Retry-After; trouble with 5xx.
 *
 * @example
 * ```ts
 * judgeSlackAnswer(404, {}, 'no_service', now); // { kind: 'dead', reason: 'Slack answered 404 no_service' }
 * ```
 */
export function judgeSlackAnswer(status: number, headers: Record<string, string>, body: string, now: Date): SlackVerdict {
  const word = body.trim().replace(/\s+/g, ' ').slice(0, 200);
  const reason = `Slack answered ${status}${word ? ` ${word}` : ''}`;
  const { kind, retryAfterMs } = classifyAnswer(status, headers, now);
  if (kind === 'success') return { kind: 'sent' };
  if (status === 404 || status === 410 || status === 403) return { kind: 'dead', reason };
  if (kind === 'redirect') return { kind: 'retry', reason: `redirect (${status}) not followed`, retryAfterMs: null };
  if (kind === 'transient') return { kind: 'retry', reason, retryAfterMs };
  return { kind: 'rejected', reason };
}

/**
 * POSTs `body` (JSON) to `url` once, never following a redirect; a network error or a timeout is a verdict
 * (retry), not an exception. The guard checks the address again at connect time.
 */
export async function postToSlack(net: SafeFetch, url: string, body: string, timeoutMs: number, now: () => Date): Promise<SlackExchange> {
  try {
    const res = await net.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Demoshare-Slack/1.0' },
      body: Buffer.from(body, 'utf8'),
      timeoutMs,
      maxBytes: EXCERPT_BYTES,
      maxRedirects: 0,
    });
    return { verdict: judgeSlackAnswer(res.status, res.headers, res.body.toString('utf8'), now()), statusCode: res.status };
  } catch (error) {
    return { verdict: { kind: 'retry', reason: describeSendError(error, timeoutMs), retryAfterMs: null }, statusCode: null };
  }
}
