// Schema changes on tables that requests read (partitions attached or detached by jobs) give way to the readers.
import { sql } from 'drizzle-orm';
import type { Executor } from './client';

/**
 * Makes the rest of this transaction wait at most half a second for each lock, then fail (SQLSTATE 55P03),
 * changing nothing. For the jobs' DDL on views and view_steps: attaching or detaching a partition locks a
 * table exclusively that every read of views holds a share of. Waiting longer would hold every new read
 * behind it, and a reader that already holds one of the tables and wants the other deadlocks with it
 * (seen: PostgreSQL then aborted the reader, a 500 on the views list). The job runs again instead (its
 * retries, then its schedule). PGlite has one connection and never waits.
 */
export async function giveWayToReaders(tx: Executor): Promise<void> {
  await tx.execute(sql`set local lock_timeout = '500ms'`);
}
