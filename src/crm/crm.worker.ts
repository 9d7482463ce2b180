// The sync loop of a worker process: woken by NOTIFY or its poll, it claims a workspace's due items and syncs them.
import type { Clock } from '../core/clock';
import { unseal } from '../core/crypto';
import type { Database } from '../db/client';
import * as repo from './crm.repo';
import { syncBatch } from './crm.sync';
import { HUBSPOT_BATCH_LIMIT, hubSpotClient } from './hubspot.client';

const MIN_SLEEP_MS = 20;
/** Past the requests' timeouts (three at most per batch) and the time to record the outcome. */
const LEASE_MARGIN_MS = 30_000;

export interface SyncWorkerDeps {
  database: Database;
  clock: Clock;
  sealingKey: Buffer;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  settings: { apiUrl: string; retryDelays: number[]; timeoutMs: number; pollIntervalMs: number };
}

/**
 * Syncs claimed batches one after another: claim (crm.repo claimDue) → send (crm.sync) → settle the items,
 * pause the connection on a refused token, hold it back on a 429. Everything lives in the database, so any
 * number of these run side by side and a killed one loses nothing: its claims are taken over when their lease ends.
 */
export class CrmSyncWorker {
  private stopped = false;
  private woken = false;
  private release: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly deps: SyncWorkerDeps) {}

  async start(): Promise<void> {
    this.unlisten = await this.deps.database.listen(repo.CRM_CHANNEL, () => this.wake());
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
        if (await this.syncOnce()) continue;
        let wait = settings.pollIntervalMs;
        const due = await repo.nextDueAt(database.db);
        if (due) wait = Math.min(wait, due.getTime() - clock.now().getTime());
        await this.sleep(wait);
      } catch (error) {
        if (this.stopped) break;
        this.deps.log.error({ err: error }, 'crm sync loop failed; retrying');
        await this.sleep(settings.pollIntervalMs);
      }
    }
  }

  /** One batch of one workspace; false when nothing was due. */
  async syncOnce(): Promise<boolean> {
    const { database, clock, settings } = this.deps;
    const { db } = database;
    const now = clock.now();
    const claim = await repo.claimDue(db, now, new Date(now.getTime() + 3 * settings.timeoutMs + LEASE_MARGIN_MS), HUBSPOT_BATCH_LIMIT);
    if (!claim) return false;
    const connection = await repo.findConnection(db, claim.workspaceId);
    // Disconnected meanwhile: its items went with it.
    if (!connection) return true;
    let token: string;
    try {
      token = unseal(this.deps.sealingKey, connection.tokenSealed);
    } catch {
      await repo.pauseConnection(db, claim.workspaceId, connection.tokenSealed, 'The saved token cannot be read (the server’s SECRET_KEY changed): save it again', now);
      await repo.settleItems(db, claim, new Map(claim.items.map((i) => [i.id, { status: 'pending' as const, nextAttemptAt: now }])));
      return true;
    }
    const client = hubSpotClient({ baseUrl: settings.apiUrl, token, timeoutMs: settings.timeoutMs, now: () => clock.now() });
    const outcome = await syncBatch(client, claim.items, { retryDelays: settings.retryDelays, now: () => clock.now() });
    const end = clock.now();
    if (outcome.pause) await repo.pauseConnection(db, claim.workspaceId, connection.tokenSealed, outcome.pause, end);
    if (outcome.waitUntil) await repo.setNotBefore(db, claim.workspaceId, outcome.waitUntil);
    // Items a pause or a 429 kept from being tried wait with the others.
    for (const item of claim.items) {
      if (!outcome.items.has(item.id)) outcome.items.set(item.id, { status: 'pending', nextAttemptAt: outcome.waitUntil ?? end });
    }
    await repo.settleItems(db, claim, outcome.items);
    await repo.noteSynced(db, claim.workspaceId, end);
    return true;
  }
}
