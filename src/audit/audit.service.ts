import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { AppError } from '../core/errors';
import type { PageWindow } from '../core/pagination';
import type { Database, Executor } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import type { Actor } from './actor';
import { entriesAfter, feedPosition } from './audit-feed.repo';
import { type AuditEntry, recordAudit } from './audit-recorder';
import * as repo from './audit.repo';
import { FEED_START } from './audit.schemas';

export interface AuditDeps {
  database: Database;
  clock: Clock;
  /** AUDIT_LOG_RETENTION in milliseconds. */
  retentionMs: number;
  /** Where the list and the export are read (the replica when fit, db/read-replica.ts); absent: `database`. */
  reads?: Pick<ReadRouting, 'reader'>;
}

const EXPORT_BATCH = 500;
const RETENTION_BATCH = 5_000;

/**
 * The audit log's own service: recording in a caller's transaction, the list, the feed in commit order,
 * the CSV export in batches, and the retention. Built by audit.module.ts; other domains call `recordAudit`.
 */
export function createAuditService({ database, clock, retentionMs, reads }: AuditDeps) {
  const { db } = database;
  // The feed stays on the primary: a SIEM's cursor names the newest entry it got, which a replica may not have yet.
  const reader = (auth: AuthContext) => reads?.reader(auth.workspaceId) ?? db;

  /** Writes one entry in `tx`, the transaction of the change it records. */
  function record(tx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
    return recordAudit(tx, clock, actor, entry);
  }

  async function list(auth: AuthContext, filters: repo.AuditFilters, window: PageWindow) {
    return repo.listEntries(reader(auth), auth.workspaceId, filters, window);
  }

  /**
   * The entries after entry `after` (or from the oldest kept, for `start`) in the feed's order, and the
   * cursor to send next: the last entry's id, or `after` again when nothing new is ready.
   */
  async function feed(auth: AuthContext, filters: repo.AuditFilters, after: string, limit: number) {
    const position = after === FEED_START ? null : await feedPosition(db, auth.workspaceId, after);
    if (position === undefined) {
      throw new AppError('invalid_request', 'No audit log entry of this workspace has that id: it may be past the retention', {
        details: [{ field: 'after', message: `start again with after=${FEED_START}, or from a later entry's id` }],
      });
    }
    const { rows, total } = await entriesAfter(db, auth.workspaceId, filters, position, limit);
    return { rows, total, next: rows.at(-1)?.id ?? after };
  }

  /** Every matching entry, newest first, a batch at a time: an export of any size in bounded memory. */
  async function* exportEntries(auth: AuthContext, filters: repo.AuditFilters): AsyncGenerator<repo.AuditRow> {
    let last: repo.AuditRow | undefined;
    const from = reader(auth);
    for (;;) {
      const batch = await repo.entriesBefore(from, auth.workspaceId, filters, last ?? null, EXPORT_BATCH);
      yield* batch;
      if (batch.length < EXPORT_BATCH) return;
      last = batch[batch.length - 1];
    }
  }

  /** Deletes what is older than the retention, in batches so that no transaction holds a year of rows. */
  async function applyRetention(): Promise<number> {
    const cutoff = new Date(clock.now().getTime() - retentionMs);
    let total = 0;
    for (;;) {
      const deleted = await repo.deleteEntriesBefore(db, cutoff, RETENTION_BATCH);
      total += deleted;
      if (deleted < RETENTION_BATCH) return total;
    }
  }

  return { record, list, feed, exportEntries, applyRetention };
}

export type AuditService = ReturnType<typeof createAuditService>;
