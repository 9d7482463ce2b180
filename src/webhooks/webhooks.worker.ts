// The delivery loop of a worker process: woken by NOTIFY or its poll, it fans out the outbox and runs due attempts.
import type { Clock } from '../core/clock';
import type { SafeFetch } from '../core/net/safe-fetch';
import { EVENTS_CHANNEL } from '../db/channels';
import type { Database } from '../db/client';
import type { OutboxConsumers } from '../events/outbox';
import type { Mailer } from '../mail/mailer';
import * as repo from './webhook-deliveries.repo';
import { attemptDelivery } from './webhooks.attempt';
import { dispatchBatch } from './webhooks.dispatcher';

/** Shortest idle sleep, so rows another worker holds for an instant do not make this one spin. */
const MIN_SLEEP_MS = 20;
const LEASE_MARGIN_MS = 30_000;

export interface DeliveryWorkerDeps {
  database: Database;
  clock: Clock;
  net: SafeFetch;
  mailer: Mailer;
  /** The outbox's other readers, run in each dispatch's transaction. */
  outbox?: OutboxConsumers;
  sealingKey: Buffer;
  appUrl: string;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  settings: {
    retryDelays: number[];
    timeoutMs: number;
    disableAfterMs: number;
    concurrency: number;
    pollIntervalMs: number;
  };
}

/**
 * The delivery loop of one worker process: fans the outbox out (dispatchBatch), claims due deliveries
 * and attempts them (webhooks.attempt.ts), up to `concurrency` at once. It wakes on the NOTIFY that
 * emitEvent sends at commit, when an attempt ends, when the next retry falls due, and every poll interval
 * in case a notification was missed. Everything it knows lives in the database, so any number of these run side by side and a
 * killed one loses nothing: its claims are taken over when their lease ends.
 */
export class DeliveryWorker {
  private stopped = false;
  private woken = false;
  private release: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  /**
   * A claim is held this long; past it the attempt is presumed lost with its worker and is taken over.
   * The request is bounded by the timeout; the margin covers recording the outcome on a slow database.
   */
  private get leaseMs() {
    return this.deps.settings.timeoutMs + LEASE_MARGIN_MS;
  }

  async start(): Promise<void> {
    this.unlisten = await this.deps.database.listen(EVENTS_CHANNEL, () => this.wake());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.unlisten?.().catch(() => {});
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
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
        const dispatched = await dispatchBatch(database.db, now, settings.retryDelays.length + 1, this.deps.outbox);
        const free = settings.concurrency - this.inFlight.size;
        const claims = free > 0 ? await repo.claimDue(database.db, now, new Date(now.getTime() + this.leaseMs), free) : [];
        for (const claim of claims) this.track(claim);
        if (dispatched > 0 || claims.length > 0) continue;
        let wait = settings.pollIntervalMs;
        if (free > 0) {
          const due = await repo.nextDueAt(database.db);
          if (due) wait = Math.min(wait, due.getTime() - clock.now().getTime());
        }
        await this.sleep(wait);
      } catch (error) {
        if (this.stopped) break;
        this.deps.log.error({ err: error }, 'webhook delivery loop failed; retrying');
        await this.sleep(settings.pollIntervalMs);
      }
    }
  }

  private track(claim: repo.ClaimedDelivery) {
    const running: Promise<void> = attemptDelivery(this.deps, claim)
      .catch((error) => this.deps.log.error({ err: error, delivery_id: claim.id }, 'webhook attempt failed'))
      .finally(() => {
        this.inFlight.delete(running);
        this.wake();
      });
    this.inFlight.add(running);
  }
}
