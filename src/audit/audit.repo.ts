// Queries on the audit log; it names other domains' tables in SQL rather than importing them, since they import it (an import would be a cycle).
import { and, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PageWindow } from '../core/pagination';
import type { Db, Executor } from '../db/client';
import { afterRow } from '../db/keyset';
import type { Actor } from './actor';
import type { ActorType } from './audit-actions';
import { auditLog } from './audit.tables';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

/**
 * The actor's id and readable label as they are now. The audit log sits below the domains it records
 * (they import it), so it names their tables in SQL rather than importing them: an import would be a cycle.
 * For OAuth the credential is a grant and the actor is its app.
 */
export async function resolveActor(db: Executor, actor: Actor): Promise<{ id: string | null; label: string }> {
  if (actor.type === 'system') return { id: null, label: 'system' };
  const type: ActorType = actor.type;
  const result = await db.execute(sql`
    select
      case ${type}::text
        when 'user' then ${actor.userId}::text
        when 'api_key' then ${actor.credentialId}::text
        else (select g.app_id from oauth_grants g where g.id = ${actor.credentialId}::text)
      end as id,
      case ${type}::text
        when 'api_key' then (select k.name from api_keys k where k.id = ${actor.credentialId}::text)
        when 'oauth_app' then (select a.name from oauth_grants g join oauth_apps a on a.id = g.app_id
                               where g.id = ${actor.credentialId}::text)
      end as name,
      (select u.email from users u where u.id = ${actor.userId}::text) as email`);
  const row = (result as unknown as { rows: { id: string | null; name: string | null; email: string | null }[] }).rows[0];
  const email = row?.email ?? actor.userId ?? 'unknown user';
  if (type === 'user') return { id: row?.id ?? actor.userId, label: email };
  const name = row?.name ?? (type === 'api_key' ? 'deleted key' : 'deleted app');
  return { id: row?.id ?? actor.credentialId, label: type === 'api_key' ? `${name} (${email})` : `${name} for ${email}` };
}

export async function insertEntry(db: Executor, row: NewAuditRow): Promise<AuditRow> {
  const [inserted] = await db.insert(auditLog).values(row).returning();
  return inserted!;
}

export interface AuditFilters {
  /** A user, key or app id: matches the actor, and the person behind a key or app. */
  actor?: string;
  action?: string;
  target?: string;
  from?: Date;
  to?: Date;
}

/** The workspace's entries that pass the filters. */
export function entriesWhere(workspaceId: string, f: AuditFilters): SQL | undefined {
  return and(
    eq(auditLog.workspaceId, workspaceId),
    f.actor ? or(eq(auditLog.actorId, f.actor), eq(auditLog.actorUserId, f.actor)) : undefined,
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.target ? eq(auditLog.targetId, f.target) : undefined,
    f.from ? gte(auditLog.createdAt, f.from) : undefined,
    f.to ? lte(auditLog.createdAt, f.to) : undefined,
  );
}

/**
 * A page, newest first, with the total of the filters in the same statement: a subquery computed once, which
 * counts on audit_log_workspace_created_idx without reading the entries (a window count would read every
 * matching entry before the first row of the page). `window.after` pages by keyset on (created_at, id), at
 * the same cost however deep. Only a page past the end costs a second statement, for the total.
 */
export async function listEntries(db: Executor, workspaceId: string, f: AuditFilters, window: PageWindow) {
  const where = entriesWhere(workspaceId, f);
  const found = await db
    .select({ entry: auditLog, total: sql<number>`(select count(*)::int from ${auditLog} where ${where})`.mapWith(Number) })
    .from(auditLog)
    .where(window.after ? and(where, afterRow(auditLog, auditLog.createdAt, auditLog.id, window.after, 'desc')) : where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(window.limit)
    .offset(window.offset);
  const rows = found.map((r) => r.entry);
  if (found[0] || (window.offset === 0 && !window.after)) return { rows, total: found[0]?.total ?? 0 };
  const [counted] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(auditLog).where(where);
  return { rows, total: counted?.n ?? 0 };
}

/**
 * The next batch after `before` (newest first), by keyset rather than offset: an export walks the
 * whole log at a constant cost per batch, and entries written meanwhile cannot shift it.
 */
export async function entriesBefore(
  db: Executor,
  workspaceId: string,
  f: AuditFilters,
  before: { createdAt: Date; id: string } | null,
  limit: number,
) {
  const after = before
    ? or(lt(auditLog.createdAt, before.createdAt), and(eq(auditLog.createdAt, before.createdAt), lt(auditLog.id, before.id)))
    : undefined;
  return db
    .select()
    .from(auditLog)
    .where(and(entriesWhere(workspaceId, f), after))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
}

/**
 * Deletes up to `limit` entries older than `cutoff`. The trigger of drizzle/0009_audit_log.sql refuses
 * every DELETE unless the transaction set demoshare.audit_retention; set_config(..., true) is SET LOCAL,
 * so the permission ends with this transaction and no other statement of the connection gets it.
 */
export async function deleteEntriesBefore(db: Db, cutoff: Date, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('demoshare.audit_retention', 'on', true)`);
    const old = tx.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.createdAt, cutoff)).limit(limit);
    const deleted = await tx.delete(auditLog).where(inArray(auditLog.id, old)).returning({ id: auditLog.id });
    return deleted.length;
  });
}
