// One delivery attempt: sign, POST through the SSRF guard, record the outcome, schedule a retry or give up.
import { performance } from 'node:perf_hooks';
import type { Clock } from '../core/clock';
import { unseal } from '../core/crypto';
import { describeSendError } from '../core/delivery/answers';
import { nextAttemptAt } from '../core/delivery/retry-schedule';
import type { SafeFetch } from '../core/net/safe-fetch';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';
import * as deliveries from './webhook-deliveries.repo';
import type { ClaimedDelivery, NewAttempt, Settlement } from './webhook-deliveries.repo';
import * as hooks from './webhooks.repo';
import type { WebhookRow } from './webhooks.repo';
import { type AttemptVerdict, judgeResponse } from './webhooks.retry';
import { signatureHeaders } from './webhooks.signing';
import type { WarningLog } from '../core/log';

/** What the log keeps of a response body. */
export const EXCERPT_BYTES = 2048;

export interface AttemptDeps {
  database: Database;
  clock: Clock;
  net: SafeFetch;
  mailer: Mailer;
  sealingKey: Buffer;
  appUrl: string;
  log: WarningLog;
  settings: { retryDelays: number[]; timeoutMs: number; disableAfterMs: number };
}

/** One signed request, fixed before it is sent so that the log shows exactly what went out. */
interface SignedRequest {
  startedAt: Date;
  headers: Record<string, string>;
  body: Buffer;
}

/** What came back, or why nothing did. */
interface Exchange {
  verdict: AttemptVerdict;
  response?: { status: number; headers: Record<string, string>; excerpt: string; truncated: boolean };
  durationMs: number;
  endedAt: Date;
}

type DisableReason = 'failing' | 'gone';

/**
 * One claimed attempt of one delivery, as named steps: load the webhook → settle what a dead worker left →
 * sign → send → record the outcome, which schedules the retry or disables the webhook → tell the admins.
 * The claim (webhook-deliveries.repo claimDue) makes this attempt number this worker's alone; every write
 * that moves the delivery requires still holding it, and the log's key (delivery, attempt) turns a second
 * record of one attempt into nothing, so a worker that lost its lease cannot undo its successor's work.
 */
export async function attemptDelivery(deps: AttemptDeps, claim: ClaimedDelivery): Promise<void> {
  const hook = await hooks.findWebhookById(deps.database.db, claim.webhookId);
  // Deleted meanwhile: its deliveries went with it.
  if (!hook) return;
  if (claim.takenOver) await recordLostAttempt(deps, claim, hook.url);
  if (claim.attempt > claim.maxAttempts) return giveUp(deps, claim);
  if (!hook.active) return cancel(deps, claim);
  const request = sign(deps, claim, hook);
  const exchange = await send(deps, hook.url, request);
  const disabled = await recordOutcome(deps, claim, hook, request, exchange);
  if (disabled) await notifyDisabled(deps, disabled.hook, disabled.reason);
}

/** The previous holder died between sending and recording: the receiver may have the request, the log says so. */
async function recordLostAttempt(deps: AttemptDeps, claim: ClaimedDelivery, url: string) {
  await deliveries.insertAttempt(deps.database.db, {
    deliveryId: claim.id,
    attempt: claim.attempt - 1,
    webhookId: claim.webhookId,
    startedAt: deps.clock.now(),
    outcome: 'lost',
    error: 'the worker stopped before recording the outcome; the receiver may have received it',
    url,
    requestHeaders: {},
  });
}

/** The lost attempt was the last one allowed. */
async function giveUp(deps: AttemptDeps, claim: ClaimedDelivery) {
  await deliveries.failClaimed(deps.database.db, claim, claim.maxAttempts, deps.clock.now(), 'the last attempt was lost with its worker');
}

/** A disabled webhook receives nothing; the attempt was not made, so it does not count. */
async function cancel(deps: AttemptDeps, claim: ClaimedDelivery) {
  await deliveries.cancelClaimed(deps.database.db, claim, deps.clock.now(), 'the webhook is disabled');
}

/** Signs with the current secret, and with the previous one while a rotation's grace period runs. */
function sign(deps: AttemptDeps, claim: ClaimedDelivery, hook: WebhookRow): SignedRequest {
  const startedAt = deps.clock.now();
  const secrets = [unseal(deps.sealingKey, hook.secretSealed)];
  if (hook.previousSecretSealed && hook.previousSecretExpiresAt && hook.previousSecretExpiresAt > startedAt) {
    secrets.push(unseal(deps.sealingKey, hook.previousSecretSealed));
  }
  const body = Buffer.from(claim.body, 'utf8');
  const headers = signatureHeaders({ messageId: claim.eventId, eventKind: claim.eventKind, body, secrets, sentAt: startedAt });
  return { startedAt, headers, body };
}

/** POSTs once, never following a redirect; a network error or timeout is a verdict, not an exception. */
async function send(deps: AttemptDeps, url: string, request: SignedRequest): Promise<Exchange> {
  const { net, clock, settings } = deps;
  const t0 = performance.now();
  let verdict: AttemptVerdict;
  let response: Exchange['response'];
  try {
    // The guard checks the address again at connect time: a URL that was public at creation may not be now.
    const res = await net.fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      timeoutMs: settings.timeoutMs,
      maxBytes: EXCERPT_BYTES,
      maxRedirects: 0,
    });
    response = { status: res.status, headers: res.headers, excerpt: res.body.toString('utf8'), truncated: res.truncated };
    verdict = judgeResponse(res.status, res.headers, clock.now());
  } catch (error) {
    verdict = { kind: 'retry', reason: describeSendError(error, settings.timeoutMs), retryAfterMs: null };
  }
  return { verdict, response, durationMs: Math.round(performance.now() - t0), endedAt: clock.now() };
}

/** Where the delivery goes after this attempt: done, failed for good, or pending until its retry falls due. */
function settlement(deps: AttemptDeps, claim: ClaimedDelivery, exchange: Exchange): Settlement {
  const { verdict, response, endedAt } = exchange;
  const outcome = { lastStatusCode: response?.status ?? null, lastError: verdict.kind === 'succeeded' ? null : verdict.reason };
  const ended = (status: 'succeeded' | 'failed'): Settlement => ({ status, nextAttemptAt: null, completedAt: endedAt, ...outcome });
  if (verdict.kind === 'succeeded') return ended('succeeded');
  if (verdict.kind === 'gone') return ended('failed');
  const next = nextAttemptAt(claim.attempt, deps.settings.retryDelays, endedAt, verdict.retryAfterMs);
  return next ? { status: 'pending', nextAttemptAt: next, completedAt: null, ...outcome } : ended('failed');
}

function attemptRow(claim: ClaimedDelivery, hook: WebhookRow, request: SignedRequest, exchange: Exchange): NewAttempt {
  const { verdict, response } = exchange;
  return {
    deliveryId: claim.id,
    attempt: claim.attempt,
    webhookId: hook.id,
    startedAt: request.startedAt,
    durationMs: exchange.durationMs,
    outcome: verdict.kind === 'succeeded' ? 'succeeded' : 'failed',
    statusCode: response?.status ?? null,
    error: verdict.kind === 'succeeded' ? null : verdict.reason,
    url: hook.url,
    requestHeaders: request.headers,
    responseHeaders: response?.headers ?? null,
    responseExcerpt: response?.excerpt ?? null,
    responseTruncated: response?.truncated ?? false,
  };
}

/**
 * Logs the attempt, moves the delivery on and updates the webhook's counters in one transaction, so the
 * log, the schedule and the disabling rule never disagree. Says so when this attempt disabled the webhook.
 */
async function recordOutcome(
  deps: AttemptDeps,
  claim: ClaimedDelivery,
  hook: WebhookRow,
  request: SignedRequest,
  exchange: Exchange,
): Promise<{ hook: WebhookRow; reason: DisableReason } | null> {
  return deps.database.db.transaction(async (tx) => {
    if (!(await hooks.lockWebhook(tx, hook.id))) return null;
    await deliveries.insertAttempt(tx, attemptRow(claim, hook, request, exchange));
    // Only the holder of this attempt moves the delivery on; after a lease takeover the newer attempt owns it.
    if (!(await deliveries.settleAttempt(tx, claim, settlement(deps, claim, exchange)))) return null;
    const now = exchange.endedAt;
    if (exchange.verdict.kind === 'succeeded') {
      await hooks.noteSuccess(tx, hook.id, now);
      return null;
    }
    const failingSince = await hooks.noteFailure(tx, hook.id, now);
    const reason = disableReason(deps, exchange.verdict, failingSince, now);
    if (!reason) return null;
    const off = await hooks.disableWebhook(tx, hook.id, reason, now);
    return off ? { hook: off, reason } : null;
  });
}

/** 410 Gone at once; otherwise when every attempt has failed for WEBHOOK_DISABLE_AFTER since the last success. */
function disableReason(deps: AttemptDeps, verdict: AttemptVerdict, failingSince: Date | null, now: Date): DisableReason | null {
  if (verdict.kind === 'gone') return 'gone';
  const failingFor = failingSince ? now.getTime() - failingSince.getTime() : 0;
  return failingFor >= deps.settings.disableAfterMs ? 'failing' : null;
}

async function notifyDisabled(deps: AttemptDeps, hook: WebhookRow, reason: DisableReason) {
  const { database, mailer, appUrl, log, settings } = deps;
  const why =
    reason === 'gone'
      ? 'its receiver answered 410 Gone, which asks senders to stop'
      : `every delivery to it has failed for ${humanDuration(settings.disableAfterMs)} or more`;
  const emails = await hooks.adminEmails(database.db, hook.workspaceId);
  for (const to of emails) {
    await mailer
      .send({
        to,
        subject: 'A Demoshare webhook was disabled',
        text:
          `The webhook ${hook.id} (${hook.url}) was disabled because ${why}.\n\n` +
          `No further events are sent to it. Fix the receiver, then re-enable the webhook in Settings → Webhooks: ${appUrl}/settings/webhooks/${hook.id}\n`,
      })
      .catch((error) => log.warn({ err: error, webhook_id: hook.id }, 'could not send the webhook-disabled e-mail'));
  }
}

function humanDuration(ms: number): string {
  for (const [unit, size] of [['days', 86_400_000], ['hours', 3_600_000], ['minutes', 60_000]] as const) {
    if (ms >= size) return `${Math.round(ms / size)} ${unit}`;
  }
  return `${Math.round(ms / 1000)} seconds`;
}
