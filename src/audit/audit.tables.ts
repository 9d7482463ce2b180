import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../db/columns';

/**
 * Append-only: a trigger (drizzle/0009_audit_log.sql) refuses UPDATE and DELETE unless the transaction
 * set `demoshare.audit_retention`, which only the retention job does. No foreign keys: an entry must
 * outlive the user, key, app or record it names, so ids and labels are copied in.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    workspaceId: text('workspace_id').notNull(),
    /** user | api_key | oauth_app | system */
    actorType: text('actor_type').notNull(),
    /** The user, key or OAuth app that acted; null for the system. */
    actorId: text('actor_id'),
    /** The person behind the key or app, so filtering by a user finds what their credentials did too. */
    actorUserId: text('actor_user_id'),
    /** E-mail, key name or app name, as it was when the entry was written. */
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    /** What changed, small and never a secret: names of fields, old and new roles, statuses. */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    /**
     * The id of the transaction that wrote the entry (xid8 as a number). The feed orders by (tx_id, id) and
     * serves only transactions below the oldest one still running: ids are minted before commit, so an
     * entry can commit after a later one, and a poller ordering by id alone would step past it for good
     * (docs/audit-log.md, "Pulling into a SIEM"). The database fills it; migrate-to-postgres lets the new
     * server fill it again, since the old server's transaction ids mean nothing there.
     */
    txId: bigint('tx_id', { mode: 'number' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [
    index('audit_log_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_workspace_feed_idx').on(t.workspaceId, t.txId, t.id),
  ],
);
