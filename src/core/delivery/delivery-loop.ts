// The loop every outbound delivery runs in a worker process (webhooks, Slack, HubSpot): claim what is due, send, sleep until the next.
import type { Clock } from '../clock';

/** Shortest idle sleep, so rows another worker holds for an instant do not make this one spin. */
const MIN_SLEEP_MS = 20;
/** Past an attempt's requests, the time to record the outcome on a slow database. */
const LEASE_MARGIN_MS = 30_000;

/** What a loop needs of the process: its database (a Drizzle handle and the one LISTEN connection), clock, log, settings. */
export interface DeliveryLoopDeps<Db> {
  database: { db: Db; listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> };
  clock: Clock;
  log: { error(obj: object, msg: string): void };
  settings: { timeoutMs: number; pollIntervalMs: number };
}

/** What differs between the domains' loops: their queue (SQL in their repository) and what one attempt does. */
export interface DeliveryQueue<Db, Claim> {
  /** Names the loop in the log ('webhook delivery' → "webhook delivery loop failed; retrying"). */
  name: string;
  /** The NOTIFY channel whose messages mean that something may be due now. */
  channel: string;
  /** Claims at most this many run at once. */
  concurrency: number;
  /** Requests one attempt may make in turn, each bounded by the timeout: the lease covers them all. */
  requestsPerAttempt?: number;
  /** Work that comes before claiming each round (the webhooks' outbox fan-out): while it finds some, the loop goes round again. */
  prepare?(db: Db, now: Date): Promise<number>;
  /** Claims up to `limit` due items until `leaseUntil` (SKIP LOCKED), so that each goes to one worker. */
  claimDue(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<Claim[]>;
  /** When the next item falls due (a retry, a lease's end), so an idle loop sleeps until then. */
  nextDueAt(db: Db): Promise<Date | null>;
  /** Sends one claim and records its outcome; a throw is logged, and the lease hands the claim on. */
  attempt(claim: Claim): Promise<void>;
  /** The claim's fields in the log line of an attempt that threw. */
  logFields(claim: Claim): object;
}

/**
 * One delivery loop of one worker process. It wakes on the NOTIFY sent at commit, when an attempt ends,
 * when the next retry falls due, and every poll interval in case a notification was missed; it runs up to
 * `concurrency` attempts at once. Everything it knows lives in the database, so any number of these run
 * side by side and a killed one loses nothing: its claims are taken over when their lease ends. Stopping
 * waits for the attempts under way, so none is cut between sending and recording.
 *
 * @example
 * ```ts
 * const loop = new DeliveryLoop(deps, { name: 'slack send', channel: EVENTS_CHANNEL, concurrency: 4, claimDue: repo.claimDue,
 *   nextDueAt: repo.nextDueAt, attempt: (claim) => sendClaimed(deps, claim), logFields: (claim) => ({ message_id: claim.id }) });
 * await loop.start(); // … await loop.stop();
 * ```
 */
export class DeliveryLoop<Db, Claim> {
  private stopped = false;
  private woken = false;
  private release: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: DeliveryLoopDeps<Db>,
    private readonly queue: DeliveryQueue<Db, Claim>,
  ) {}

  /** A claim is held this long; past it the attempt is presumed lost with its worker and is taken over. */
  private get leaseMs(): number {
    return (this.queue.requestsPerAttempt ?? 1) * this.deps.settings.timeoutMs + LEASE_MARGIN_MS;
  }

  async start(): Promise<void> {
    this.unlisten = await this.deps.database.listen(this.queue.channel, () => this.wake());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.unlisten?.().catch(() => {});
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  /** One round run to its end outside the loop (a bench): how many claims it attempted. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock.now();
    await this.queue.prepare?.(this.deps.database.db, now);
    const claims = await this.claim(now, this.queue.concurrency);
    await Promise.all(claims.map((claim) => this.queue.attempt(claim)));
    return claims.length;
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
    const { database, clock, settings, log } = this.deps;
    const { queue } = this;
    while (!this.stopped) {
      this.woken = false;
      try {
        const now = clock.now();
        const prepared = queue.prepare ? await queue.prepare(database.db, now) : 0;
        const free = queue.concurrency - this.inFlight.size;
        const claims = free > 0 ? await this.claim(now, free) : [];
        for (const claim of claims) this.track(claim);
        if (prepared > 0 || claims.length > 0) continue;
        let wait = settings.pollIntervalMs;
        // With every slot busy, the end of an attempt wakes the loop.
        if (free > 0) {
          const due = await queue.nextDueAt(database.db);
          if (due) wait = Math.min(wait, due.getTime() - clock.now().getTime());
        }
        await this.sleep(wait);
      } catch (error) {
        if (this.stopped) break;
        log.error({ err: error }, `${queue.name} loop failed; retrying`);
        await this.sleep(settings.pollIntervalMs);
      }
    }
  }

  private claim(now: Date, limit: number): Promise<Claim[]> {
    return this.queue.claimDue(this.deps.database.db, now, new Date(now.getTime() + this.leaseMs), limit);
  }

  private track(claim: Claim) {
    const running: Promise<void> = this.queue
      .attempt(claim)
      .catch((error) => this.deps.log.error({ err: error, ...this.queue.logFields(claim) }, `${this.queue.name} attempt failed`))
      .finally(() => {
        this.inFlight.delete(running);
        this.wake();
      });
    this.inFlight.add(running);
  }
}
