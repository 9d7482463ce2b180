// Queries on crm_connections and crm_sync_items: the connection, the queue (claim, settle) and the sync log.
import { and, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { type CrmItemStatus, crmConnections, crmSyncItems } from './crm.tables';

export type ConnectionRow = typeof crmConnections.$inferSelect;
export type SyncItemRow = typeof crmSyncItems.$inferSelect;
export type NewSyncItem = typeof crmSyncItems.$inferInsert;

export async function findConnection(db: Executor, workspaceId: string): Promise<ConnectionRow | undefined> {
  const [row] = await db.select().from(crmConnections).where(eq(crmConnections.workspaceId, workspaceId)).limit(1);
  return row;
}

/** Locks the workspace's row (when there is one) so that a change reads what it replaces under the lock. */
export async function lockConnection(tx: Executor, workspaceId: string): Promise<ConnectionRow | undefined> {
  const [row] = await tx.select().from(crmConnections).where(eq(crmConnections.workspaceId, workspaceId)).limit(1).for('update');
  return row;
}

/** Inserts or replaces the token; `connectedAt` (from when events are synced) stays what it was. */
export async function saveConnection(tx: Executor, row: typeof crmConnections.$inferInsert): Promise<ConnectionRow> {
  const { workspaceId: _, createdAt: __, connectedAt: ___, connectedById: ____, ...changes } = row;
  const [saved] = await tx
    .insert(crmConnections)
    .values(row)
    .onConflictDoUpdate({ target: crmConnections.workspaceId, set: changes })
    .returning();
  return saved!;
}

/** Deletes the connection and, by cascade, its queue and log. False when there was none. */
export async function deleteConnection(tx: Executor, workspaceId: string): Promise<boolean> {
  const gone = await tx.delete(crmConnections).where(eq(crmConnections.workspaceId, workspaceId)).returning({ id: crmConnections.workspaceId });
  return gone.length > 0;
}

/** The connections of these workspaces, for the outbox consumer (in the dispatcher's transaction). */
export function connectionsIn(tx: Executor, workspaceIds: string[]): Promise<ConnectionRow[]> {
  if (workspaceIds.length === 0) return Promise.resolve([]);
  return tx.select().from(crmConnections).where(inArray(crmConnections.workspaceId, workspaceIds));
}

/** Demo titles for the notes' text. */
export async function demoTitles(tx: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.select({ id: demos.id, title: demos.title }).from(demos).where(inArray(demos.id, ids));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Queues items; one per (workspace, event), so a batch fanned out twice queues nothing twice. */
export async function insertItems(tx: Executor, rows: NewSyncItem[]): Promise<void> {
  if (rows.length > 0) await tx.insert(crmSyncItems).values(rows).onConflictDoNothing();
}

/** Queues items, skipping those already queued (same workspace and event); answers how many are new. Chunked: a backfill can hold thousands. */
export async function insertNewItems(tx: Executor, rows: NewSyncItem[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += 1000) {
    const done = await tx.insert(crmSyncItems).values(rows.slice(i, i + 1000)).onConflictDoNothing().returning({ id: crmSyncItems.id });
    inserted += done.length;
  }
  return inserted;
}

/** The workspace's sync (HubSpot answered 429): no request before `notBefore`. */
export async function setNotBefore(db: Executor, workspaceId: string, notBefore: Date): Promise<void> {
  await db.update(crmConnections).set({ notBefore }).where(eq(crmConnections.workspaceId, workspaceId));
}

/** HubSpot refused the token: sync stops until an admin saves one it accepts. Only pauses the token it was sent with. */
export async function pauseConnection(db: Executor, workspaceId: string, tokenSealed: string, reason: string, now: Date): Promise<void> {
  await db
    .update(crmConnections)
    .set({ status: 'paused', pausedReason: reason, pausedAt: now })
    .where(and(eq(crmConnections.workspaceId, workspaceId), eq(crmConnections.tokenSealed, tokenSealed)));
}

export async function noteSynced(db: Executor, workspaceId: string, now: Date): Promise<void> {
  await db.update(crmConnections).set({ lastSyncAt: now }).where(eq(crmConnections.workspaceId, workspaceId));
}

/** A claim: the items of one workspace a worker holds until `lockedUntil`, with the token they are sent with. */
export interface Claim {
  workspaceId: string;
  lockedUntil: Date;
  items: SyncItemRow[];
}

/**
 * Claims up to `limit` due items of one workspace whose connection is active and not held back by a 429:
 * pending ones whose time has come, and syncing ones whose worker's lease ran out (it may have created their
 * notes before it died: those are marked unsure, so the next attempt looks for them before creating any).
 * SKIP LOCKED on the connection and on the items: two workers take different workspaces, or different items.
 * The lease end is the claim's token: only the holder of that lease can settle the items.
 */
export async function claimDue(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<Claim | null> {
  const result = (await db.execute(sql`
    with ws as (
      select c.workspace_id from crm_connections c
      where c.status = 'active' and (c.not_before is null or c.not_before <= ${now})
        and exists (
          select 1 from crm_sync_items i
          where i.workspace_id = c.workspace_id
            and ((i.status = 'pending' and i.next_attempt_at <= ${now}) or (i.status = 'syncing' and i.locked_until <= ${now}))
        )
      order by c.last_sync_at nulls first
      limit 1
      for update skip locked
    ), due as (
      select i.id, i.status as previous_status from crm_sync_items i join ws on ws.workspace_id = i.workspace_id
      where (i.status = 'pending' and i.next_attempt_at <= ${now}) or (i.status = 'syncing' and i.locked_until <= ${now})
      order by i.occurred_at
      limit ${limit}
      for update of i skip locked
    )
    update crm_sync_items s
    set status = 'syncing', locked_until = ${leaseUntil}, last_attempt_at = ${now},
        note_unsure = s.note_unsure or (due.previous_status = 'syncing' and s.note_id is null and s.note_body is not null)
    from due
    where s.id = due.id
    returning s.id`)) as unknown as { rows: { id: string }[] };
  const ids = result.rows.map((r) => r.id);
  if (ids.length === 0) return null;
  const items = await db.select().from(crmSyncItems).where(inArray(crmSyncItems.id, ids)).orderBy(crmSyncItems.occurredAt);
  return { workspaceId: items[0]!.workspaceId, lockedUntil: leaseUntil, items };
}

/** When the next item falls due (a retry, a lease end, a 429's wait), so an idle worker sleeps until then. */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  const result = (await db.execute(sql`
    select min(greatest(case when i.status = 'pending' then i.next_attempt_at else i.locked_until end, coalesce(c.not_before, 'epoch'::timestamptz))) as at
    from crm_sync_items i join crm_connections c on c.workspace_id = i.workspace_id
    where i.status in ('pending', 'syncing') and c.status = 'active'`)) as unknown as { rows: { at: Date | string | null }[] };
  const at = result.rows[0]?.at;
  return at ? new Date(at) : null;
}

/** What one attempt leaves on an item. */
export type ItemSettlement = Partial<
  Pick<
    SyncItemRow,
    | 'status'
    | 'attempts'
    | 'nextAttemptAt'
    | 'contactId'
    | 'contactCreated'
    | 'noteId'
    | 'noteUnsure'
    | 'lastStatusCode'
    | 'lastError'
    | 'completedAt'
  >
>;

/**
 * Moves the claimed items on, each with its own outcome, in one transaction; an item whose lease was taken
 * over meanwhile (lockedUntil no longer the claim's) is left to its new holder.
 */
export async function settleItems(db: Executor, claim: Pick<Claim, 'lockedUntil'>, outcomes: Map<string, ItemSettlement>): Promise<void> {
  if (outcomes.size === 0) return;
  await db.transaction(async (tx) => {
    for (const [id, outcome] of outcomes) {
      await tx
        .update(crmSyncItems)
        .set({ ...outcome, lockedUntil: null })
        .where(and(eq(crmSyncItems.id, id), eq(crmSyncItems.status, 'syncing'), eq(crmSyncItems.lockedUntil, claim.lockedUntil)));
    }
  });
}

export interface LogFilter {
  status?: CrmItemStatus;
  email?: string;
}

export async function listItems(db: Executor, workspaceId: string, filter: LogFilter, page: { limit: number; offset: number }) {
  const where = and(
    eq(crmSyncItems.workspaceId, workspaceId),
    filter.status ? eq(crmSyncItems.status, filter.status) : undefined,
    filter.email ? eq(crmSyncItems.email, filter.email) : undefined,
  );
  const rows = await db
    .select()
    .from(crmSyncItems)
    .where(where)
    .orderBy(desc(crmSyncItems.createdAt), desc(crmSyncItems.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(crmSyncItems).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** How many items of the workspace are in each status, for the settings' summary. */
export async function countByStatus(db: Executor, workspaceId: string): Promise<Record<CrmItemStatus, number>> {
  const rows = await db
    .select({ status: crmSyncItems.status, n: count() })
    .from(crmSyncItems)
    .where(eq(crmSyncItems.workspaceId, workspaceId))
    .groupBy(crmSyncItems.status);
  const counts = { pending: 0, syncing: 0, succeeded: 0, failed: 0 };
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}

/**
 * Queues again the finished items of one contact, or of everything since a date: the contact is upserted
 * again, and a note is created only where none is recorded (a re-sync never duplicates a note). Items in
 * flight are left alone. Answers how many were queued.
 */
export async function requeue(tx: Executor, workspaceId: string, filter: { email?: string; since?: Date }, now: Date): Promise<number> {
  const rows = await tx
    .update(crmSyncItems)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, completedAt: null, lastError: null, lastStatusCode: null })
    .where(
      and(
        eq(crmSyncItems.workspaceId, workspaceId),
        inArray(crmSyncItems.status, ['succeeded', 'failed']),
        filter.email ? eq(crmSyncItems.email, filter.email) : undefined,
        filter.since ? gte(crmSyncItems.occurredAt, filter.since) : undefined,
      ),
    )
    .returning({ id: crmSyncItems.id });
  return rows.length;
}

/** Finished items (succeeded or failed) completed before `before`: the log's retention. Pending and in-flight items stay. */
export async function deleteFinishedBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(crmSyncItems)
    .where(and(inArray(crmSyncItems.status, ['succeeded', 'failed']), lt(crmSyncItems.completedAt, before)))
    .returning({ id: crmSyncItems.id });
  return rows.length;
}

/** A new token: the items that waited for it (pending since a pause) are due now. */
export async function releaseWaiting(tx: Executor, workspaceId: string, now: Date): Promise<void> {
  await tx
    .update(crmSyncItems)
    .set({ nextAttemptAt: now })
    .where(and(eq(crmSyncItems.workspaceId, workspaceId), eq(crmSyncItems.status, 'pending')));
}

/** NOTIFY channel that wakes the sync workers of every process at commit (new items, a new token, a re-sync). */
export const CRM_CHANNEL = 'demoshare_crm';

export async function notifySync(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_notify(${CRM_CHANNEL}, 'sync')`);
}
