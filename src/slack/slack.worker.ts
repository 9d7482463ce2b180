// The Slack send loop of a worker process: woken at commit (NOTIFY) or by its poll, it claims due messages and sends them.
import type { Clock } from '../core/clock';
import { unseal } from '../core/crypto';
import type { SafeFetch } from '../core/net/safe-fetch';
import { retryDelay } from '../core/retry-schedule';
import { EVENTS_CHANNEL } from '../db/channels';
import type { Database } from '../db/client';
import { postToSlack, type SlackExchange } from './slack.sender';
import * as repo from './slack.repo';

const MIN_SLEEP_MS = 20;
const LEASE_MARGIN_MS = 30_000;
/** Slack takes about one message a second per webhook: a few at once is plenty. */
const CONCURRENCY = 4;

export interface SlackWorkerDeps {
  database: Database;
  clock: Clock;
  net: SafeFetch;
  sealingKey: Buffer;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  settings: { retryDelays: readonly number[]; timeoutMs: number; pollIntervalMs: number };
}

/**
 * The loop that sends Slack messages, one per worker process; the messages table is its queue, retry
 * schedule and log, as webhook deliveries are theirs. Claims are leased (SKIP LOCKED), so any number of
 * these run side by side and a killed one loses nothing: its claims are taken over when the lease ends.
 */
export class SlackWorker {
  private stopped = false;
  private woken = false;
  private release: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly deps: SlackWorkerDeps) {}

  async start(): Promise<void> {
    this.unlisten = await this.deps.database.listen(EVENTS_CHANNEL, () => this.wake());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.unlisten?.().catch(() => {});
    await this.loop;
  }

  wake(): void {
    this.woken = true;
    this.release?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.release = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(MIN_SLEEP_MS, ms));
      this.release = done;
    });
  }

  private async run(): Promise<void> {
    const { database, clock, settings } = this.deps;
    while (!this.stopped) {
      this.woken = false;
      try {
        const now = clock.now();
        const claims = await repo.claimDue(database.db, now, new Date(now.getTime() + settings.timeoutMs + LEASE_MARGIN_MS), CONCURRENCY);
        if (claims.length > 0) {
          await Promise.all(claims.map((claim) => sendClaimed(this.deps, claim).catch((err) => this.deps.log.error({ err, message_id: claim.id }, 'slack attempt failed'))));
          continue;
        }
        const due = await repo.nextDueAt(database.db);
        await this.sleep(due ? Math.min(settings.pollIntervalMs, due.getTime() - clock.now().getTime()) : settings.pollIntervalMs);
      } catch (error) {
        if (this.stopped) break;
        this.deps.log.error({ err: error }, 'slack send loop failed; retrying');
        await this.sleep(settings.pollIntervalMs);
      }
    }
  }
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
  await database.db.transaction(async (tx) => {
    if (!(await repo.settle(tx, claim, settlement(deps, claim, exchange)))) return;
    const now = clock.now();
    if (exchange.verdict.kind === 'sent') await repo.updateDestination(tx, destination.id, { lastDeliveryAt: now });
    if (exchange.verdict.kind === 'dead') {
      await repo.updateDestination(tx, destination.id, { disabledAt: now, disabledReason: exchange.verdict.reason });
      await repo.cancelWaiting(tx, destination.id, now, 'not sent: the Slack URL is dead');
      deps.log.warn({ destination_id: destination.id, reason: exchange.verdict.reason }, 'slack destination disabled');
    }
  });
}

function settlement(deps: SlackWorkerDeps, claim: repo.ClaimedMessage, exchange: SlackExchange): repo.Settlement {
  const { verdict, statusCode } = exchange;
  const now = deps.clock.now();
  const outcome = { lastStatusCode: statusCode, lastError: verdict.kind === 'sent' ? null : verdict.reason };
  if (verdict.kind === 'sent') return { status: 'sent', nextAttemptAt: null, completedAt: now, ...outcome };
  if (verdict.kind !== 'retry') return { status: 'failed', nextAttemptAt: null, completedAt: now, ...outcome };
  // A message sent again from the log starts the schedule over: count attempts from where that round began.
  const roundStart = claim.maxAttempts - (deps.settings.retryDelays.length + 1);
  const scheduled = retryDelay(claim.attempt - Math.max(0, roundStart), deps.settings.retryDelays);
  if (scheduled === null || claim.attempt >= claim.maxAttempts) return { status: 'failed', nextAttemptAt: null, completedAt: now, ...outcome };
  // Retry-After moves the retry but never grants an attempt the schedule does not have.
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + (verdict.retryAfterMs ?? scheduled)), completedAt: null, ...outcome };
}
