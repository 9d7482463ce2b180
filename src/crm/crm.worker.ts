// The HubSpot sync loop of a worker process (core/delivery): woken by NOTIFY or its poll, it claims a workspace's due items and syncs them.
import type { Clock } from '../core/clock';
import { unseal } from '../core/crypto';
import { DeliveryLoop } from '../core/delivery/delivery-loop';
import type { Database, Db } from '../db/client';
import * as repo from './crm.repo';
import { syncBatch } from './crm.sync';
import { HUBSPOT_BATCH_LIMIT, hubSpotClient } from './hubspot.client';

export interface SyncWorkerDeps {
  database: Database;
  clock: Clock;
  sealingKey: Buffer;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  settings: { apiUrl: string; retryDelays: number[]; timeoutMs: number; pollIntervalMs: number };
}

/**
 * Syncs claimed batches one after another: claim (crm.repo claimDue, one workspace's items) → send
 * (crm.sync) → settle the items, pause the connection on a refused token, hold it back on a 429.
 */
export function crmSyncWorker(deps: SyncWorkerDeps): DeliveryLoop<Db, repo.Claim> {
  return new DeliveryLoop(deps, {
    name: 'crm sync',
    channel: repo.CRM_CHANNEL,
    concurrency: 1,
    // Three requests at most per batch, each bounded by the timeout.
    requestsPerAttempt: 3,
    claimDue: async (db, now, leaseUntil) => {
      const claim = await repo.claimDue(db, now, leaseUntil, HUBSPOT_BATCH_LIMIT);
      return claim ? [claim] : [];
    },
    nextDueAt: repo.nextDueAt,
    attempt: (claim) => syncClaim(deps, claim),
    logFields: (claim) => ({ workspace_id: claim.workspaceId }),
  });
}

/** One claimed batch of one workspace, settled. */
export async function syncClaim(deps: SyncWorkerDeps, claim: repo.Claim): Promise<void> {
  const { database, clock, settings } = deps;
  const { db } = database;
  const now = clock.now();
  const connection = await repo.findConnection(db, claim.workspaceId);
  // Disconnected meanwhile: its items went with it.
  if (!connection) return;
  let token: string;
  try {
    token = unseal(deps.sealingKey, connection.tokenSealed);
  } catch {
    await repo.pauseConnection(db, claim.workspaceId, connection.tokenSealed, 'The saved token cannot be read (the server’s SECRET_KEY changed): save it again', now);
    await repo.settleItems(db, claim, new Map(claim.items.map((i) => [i.id, { status: 'pending' as const, nextAttemptAt: now }])));
    return;
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
}
