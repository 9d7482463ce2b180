// The audit feed's reads and its outbox event, kept apart from audit.repo.ts because the feed orders by transaction, not by id, so a late-committing entry is never skipped.
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { EVENTS_CHANNEL } from '../db/channels';
import type { Executor } from '../db/client';
import { type AuditFilters, type AuditRow, entriesWhere } from './audit.repo';
import { auditLog } from './audit.tables';

/** Where an entry sits in the feed's order. */
export interface FeedPosition {
  txId: number;
  id: string;
}

/**
 * The oldest transaction still running in this database (or, with none, the next one to start). Every
 * transaction below it has ended, so every entry with a lower `tx_id` is committed (or gone with its
 * rollback) and none can still appear; anything still running or yet to start writes at or above it.
 * Transaction ids are shared by every database of a PostgreSQL server, and the snapshot's own xmin is the
 * oldest running anywhere on it: another application's open transaction, or a pg_dump of another database,
 * would hold the feed for as long as it ran. So the running ids (`pg_snapshot_xip`, 64-bit) leave out those
 * a backend of another database holds (`pg_stat_activity.backend_xid`, their low 32 bits); only this
 * database's transactions can write its audit log. They are left out, not kept where a backend of this
 * database holds them: pg_stat_activity is read after the snapshot, and a transaction of this database that
 * committed in between is gone from it while its entries are still invisible to this statement; kept out of
 * the horizon, the cursor would pass them for good (seen once in CI, with four concurrent writers). An id
 * whose backend cannot be seen (another role's, without pg_read_all_stats) counts as running: the feed
 * waits for it, it never skips.
 */
const horizon = sql`coalesce(
  (select min(x::text::bigint) from pg_snapshot_xip(pg_current_snapshot()) as x
    where x::text::bigint % 4294967296 not in (
      select backend_xid::text::bigint from pg_stat_activity
       where datname <> current_database() and backend_xid is not null)),
  pg_snapshot_xmax(pg_current_snapshot())::text::bigint)`;

/** The position of entry `id` of the workspace; undefined when it is not there (another workspace's, or past the retention). */
export async function feedPosition(db: Executor, workspaceId: string, id: string): Promise<FeedPosition | undefined> {
  const [row] = await db
    .select({ txId: auditLog.txId, id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.workspaceId, workspaceId), eq(auditLog.id, id)));
  return row;
}

/**
 * Up to `limit` entries after `position` in (tx_id, id) order, with how many there are in all (a window
 * count), only below the horizon: an entry of a transaction still running, or of one that started after the
 * oldest running one, waits for a later poll. Ordered by id alone, an entry minted early and committed late
 * would land behind a cursor that already passed it; ordered so and cut there, none can.
 */
export async function entriesAfter(
  db: Executor,
  workspaceId: string,
  f: AuditFilters,
  position: FeedPosition | null,
  limit: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  // A row comparison, so that the (workspace_id, tx_id, id) index serves it as one range.
  const after = position ? sql`(${auditLog.txId}, ${auditLog.id}) > (${position.txId}::bigint, ${position.id}::text)` : undefined;
  const found = await db
    .select({ entry: auditLog, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(auditLog)
    .where(and(entriesWhere(workspaceId, f), after, lt(auditLog.txId, horizon)))
    .orderBy(asc(auditLog.txId), asc(auditLog.id))
    .limit(limit);
  return { rows: found.map((r) => r.entry), total: found[0]?.total ?? 0 };
}

/**
 * Puts the `audit.entry` event of an entry in the outbox (the `events` table), in the entry's transaction,
 * and wakes the delivery workers at commit; only while an active webhook of the workspace subscribes to it,
 * so a workspace without one pays no outbox row per sign-in. In SQL: `events` depends on `accounts`, which
 * records into this log, so importing the outbox would be a cycle (docs/architecture.md).
 */
export async function emitEntryEvent(
  tx: Executor,
  event: { id: string; workspaceId: string; data: Record<string, unknown>; at: Date },
): Promise<void> {
  await tx.execute(sql`
    with emitted as (
      insert into events (id, workspace_id, kind, data, occurred_at, created_at)
      select ${event.id}, ${event.workspaceId}, 'audit.entry', ${JSON.stringify(event.data)}::jsonb,
             ${event.at.toISOString()}::timestamptz, ${event.at.toISOString()}::timestamptz
      where exists (select 1 from webhooks w
                     where w.workspace_id = ${event.workspaceId} and w.active and 'audit.entry' = any (w.events))
      returning id
    )
    select pg_notify(${EVENTS_CHANNEL}, 'audit.entry') from emitted`);
}
