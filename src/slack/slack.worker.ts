// The Slack send loop of a worker process (core/delivery): woken at commit (NOTIFY) or by its poll, it claims due messages and sends them.
import { DeliveryLoop } from '../core/delivery/delivery-loop';
import { nextAttemptAt } from '../core/delivery/retry-schedule';
import type { Clock } from '../core/clock';
import { unseal } from '../core/crypto';
import type { SafeFetch } from '../core/net/safe-fetch';
import { EVENTS_CHANNEL } from '../db/channels';
import type { Database, Db } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { postToSlack, type SlackExchange } from './slack.sender';
import * as repo from './slack.repo';

/** Slack takes about one message a second per webhook: a few at once is plenty. */
const CONCURRENCY = 4;

export interface SlackWorkerDeps {
  database: Database;
  clock: Clock;
  net: SafeFetch;
  sealingKey: Buffer;
  /** Tells the destination's owners when Slack says its URL is dead (APP_URL links them to the settings). */
  mailer: Mailer;
  appUrl: string;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  settings: { retryDelays: readonly number[]; timeoutMs: number; pollIntervalMs: number };
}

/** The messages table is the loop's queue, retry schedule and log, as webhook deliveries are theirs. */
export function slackWorker(deps: SlackWorkerDeps): DeliveryLoop<Db, repo.ClaimedMessage> {
  return new DeliveryLoop(deps, {
    name: 'slack send',
    channel: EVENTS_CHANNEL,
    concurrency: CONCURRENCY,
    claimDue: repo.claimDue,
    nextDueAt: repo.nextDueAt,
    attempt: (claim) => sendClaimed(deps, claim),
    logFields: (claim) => ({ message_id: claim.id }),
  });
}

/**
 * One claimed attempt: a destination deleted meanwhile took its messages along; a disabled one gets
 * nothing; an attempt past the last allowed (its worker died) fails the message. Otherwise send, then
 * record in one transaction the message's next state and, for a dead URL, the destination disabled with
 * its waiting messages cancelled.
 */
export async function sendClaimed(deps: SlackWorkerDeps, claim: repo.ClaimedMessage): Promise<void> {
  const { database, clock } = deps;
  const destination = await repo.findDestinationById(database.db, claim.destinationId);
  if (!destination) return;
  const ended = (status: 'failed' | 'cancelled', lastError: string): repo.Settlement => ({
    status,
    nextAttemptAt: null,
    lastStatusCode: null,
    lastError,
    completedAt: clock.now(),
  });
  if (destination.disabledAt) {
    await repo.settle(database.db, claim, ended('cancelled', 'the Slack destination is disabled'));
    return;
  }
  if (claim.attempt > claim.maxAttempts) {
    await repo.settle(database.db, claim, ended('failed', 'the last attempt was lost with its worker'));
    return;
  }
  let url: string;
  try {
    url = unseal(deps.sealingKey, destination.urlSealed);
  } catch {
    await repo.settle(database.db, claim, ended('failed', 'the saved URL cannot be read (SECRET_KEY changed since it was saved): save it again'));
    return;
  }
  const exchange = await postToSlack(deps.net, url, claim.body, deps.settings.timeoutMs, () => clock.now());
  const disabled = await database.db.transaction(async (tx) => {
    if (!(await repo.lockDestination(tx, destination.id))) return false;
    if (!(await repo.settle(tx, claim, settlement(deps, claim, exchange)))) return false;
    const now = clock.now();
    if (exchange.verdict.kind === 'sent') await repo.updateDestination(tx, destination.id, { lastDeliveryAt: now });
    if (exchange.verdict.kind !== 'dead') return false;
    await repo.updateDestination(tx, destination.id, { disabledAt: now, disabledReason: exchange.verdict.reason });
    await repo.cancelWaiting(tx, destination.id, now, 'not sent: the Slack URL is dead');
    deps.log.warn({ destination_id: destination.id, reason: exchange.verdict.reason }, 'slack destination disabled');
    return true;
  });
  // After the commit, once: only the attempt that disabled it gets here (a disabled destination sends nothing).
  if (disabled && exchange.verdict.kind === 'dead') await notifyDisabled(deps, destination, exchange.verdict.reason);
}

/** An e-mail to the destination's owners: alerts stopped, why, and where to save a new URL. */
async function notifyDisabled(deps: SlackWorkerDeps, destination: repo.DestinationRow, reason: string) {
  const personal = destination.memberId !== null;
  const where = personal ? `${deps.appUrl}/account` : `${deps.appUrl}/settings/slack`;
  const whose = personal ? 'Your Demoshare alerts in Slack' : "Your workspace's Demoshare alerts in Slack";
  const recipients = await repo.alertOwners(deps.database.db, destination).catch((error) => {
    deps.log.warn({ err: error, destination_id: destination.id }, 'could not find who to tell of the disabled Slack destination');
    return [];
  });
  for (const to of recipients) {
    await deps.mailer
      .send({
        to,
        subject: 'Demoshare alerts to Slack stopped',
        text:
          `${whose} stopped: ${reason}, which means the incoming-webhook URL no longer exists (the app was ` +
          'removed, or the channel archived). Messages waiting to be sent were cancelled.\n\n' +
          `Save a new incoming-webhook URL, or send a test message once it works again: ${where}\n`,
      })
      .catch((error) => deps.log.warn({ err: error, destination_id: destination.id }, 'could not send the Slack-disabled e-mail'));
  }
}

function settlement(deps: SlackWorkerDeps, claim: repo.ClaimedMessage, exchange: SlackExchange): repo.Settlement {
  const { verdict, statusCode } = exchange;
  const now = deps.clock.now();
  const outcome = { lastStatusCode: statusCode, lastError: verdict.kind === 'sent' ? null : verdict.reason };
  const ended = (status: 'sent' | 'failed'): repo.Settlement => ({ status, nextAttemptAt: null, completedAt: now, ...outcome });
  if (verdict.kind !== 'retry') return ended(verdict.kind === 'sent' ? 'sent' : 'failed');
  // A message sent again from the log starts the schedule over: count attempts from where that round began.
  const roundStart = Math.max(0, claim.maxAttempts - (deps.settings.retryDelays.length + 1));
  const next = claim.attempt < claim.maxAttempts ? nextAttemptAt(claim.attempt - roundStart, deps.settings.retryDelays, now, verdict.retryAfterMs) : null;
  return next ? { status: 'pending', nextAttemptAt: next, completedAt: null, ...outcome } : ended('failed');
}
