// The outbox's queries; other folders go through outbox.ts, never here.
import { and, asc, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { events } from './events.tables';

export type EventRow = typeof events.$inferSelect;

export async function insertEvents(tx: Executor, rows: Array<typeof events.$inferInsert>) {
  await tx.insert(events).values(rows);
}

/** NOTIFY `channel`: sent inside a transaction, it is delivered at commit and dropped on rollback. */
export async function notify(tx: Executor, channel: string, payload: string) {
  await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/**
 * Up to `limit` undispatched events, oldest first, locked for the rest of the transaction. SKIP LOCKED
 * gives concurrent dispatchers disjoint batches instead of making them wait on each other.
 */
export async function lockUndispatched(tx: Executor, limit: number): Promise<EventRow[]> {
  return tx
    .select()
    .from(events)
    .where(isNull(events.dispatchedAt))
    .orderBy(asc(events.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markDispatched(tx: Executor, ids: string[], now: Date) {
  await tx.update(events).set({ dispatchedAt: now }).where(inArray(events.id, ids));
}

/** Events already fanned out before `before`: their deliveries carry everything the log needs. */
export async function deleteDispatchedBefore(db: Executor, before: Date) {
  await db.delete(events).where(and(isNotNull(events.dispatchedAt), lt(events.dispatchedAt, before)));
}
