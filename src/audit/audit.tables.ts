import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
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
  },
  (t) => [
    index('audit_log_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
  ],
);
