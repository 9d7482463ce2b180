import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import type { Database, Executor } from '../db/client';
import type { Actor } from './actor';
import { type AuditEntry, recordAudit } from './audit-recorder';
import * as repo from './audit.repo';

export interface AuditDeps {
  database: Database;
  clock: Clock;
  /** AUDIT_LOG_RETENTION in milliseconds. */
  retentionMs: number;
}

const EXPORT_BATCH = 500;
const RETENTION_BATCH = 5_000;

export function createAuditService({ database, clock, retentionMs }: AuditDeps) {
  const { db } = database;

  /** Writes one entry in `tx`, the transaction of the change it records. */
  function record(tx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
    return recordAudit(tx, clock, actor, entry);
  }

  async function list(auth: AuthContext, filters: repo.AuditFilters, page: { limit: number; offset: number }) {
    return repo.listEntries(db, auth.workspaceId, filters, page);
  }

  /** Every matching entry, newest first, a batch at a time: an export of any size in bounded memory. */
  async function* exportEntries(auth: AuthContext, filters: repo.AuditFilters): AsyncGenerator<repo.AuditRow> {
    let last: repo.AuditRow | undefined;
    for (;;) {
      const batch = await repo.entriesBefore(db, auth.workspaceId, filters, last ?? null, EXPORT_BATCH);
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

  return { record, list, exportEntries, applyRetention };
}

export type AuditService = ReturnType<typeof createAuditService>;
