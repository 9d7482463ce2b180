// The HubSpot connection of a workspace and its sync items (the queue and the sync log in one table).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from '../db/columns';
import { workspaces } from '../workspaces/workspaces.tables';

export const CRM_CONNECTION_STATUSES = ['active', 'paused'] as const;
export type CrmConnectionStatus = (typeof CRM_CONNECTION_STATUSES)[number];

/**
 * A workspace's HubSpot private-app token, sealed (AES-GCM under the server's sealing key, as webhook secrets
 * are). `paused` when HubSpot refused the token (401/403): nothing is sent until an admin saves a working one,
 * and nothing queued meanwhile is lost. `notBefore` is HubSpot's last Retry-After: the workspace's next request.
 */
export const crmConnections = pgTable('crm_connections', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  tokenSealed: text('token_sealed').notNull(),
  tokenLast4: text('token_last4').notNull(),
  status: text('status', { enum: CRM_CONNECTION_STATUSES }).notNull().default('active'),
  pausedReason: text('paused_reason'),
  pausedAt: at('paused_at'),
  notBefore: at('not_before'),
  lastSyncAt: at('last_sync_at'),
  connectedById: text('connected_by_id'),
  connectedAt: at('connected_at').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const CRM_ITEM_STATUSES = ['pending', 'syncing', 'succeeded', 'failed'] as const;
export type CrmItemStatus = (typeof CRM_ITEM_STATUSES)[number];

/**
 * One outbox event for HubSpot: its contact (by e-mail) and, for views, completions and leads, its note. The
 * note body is fixed when the item is queued, so every retry sends the same text with the same reference
 * token. `noteId` set means the note exists: no retry or re-sync ever creates a second one. `noteUnsure` marks
 * an attempt whose answer never came (timeout, 5xx, lost worker): the next one searches for the token first.
 */
export const crmSyncItems = pgTable(
  'crm_sync_items',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => crmConnections.workspaceId, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventKind: text('event_kind').notNull(),
    email: text('email').notNull(),
    /** The viewer's name as given, or null: an upsert never blanks a name HubSpot has. */
    name: text('name'),
    /**
     * Other contact properties the event gives, by HubSpot's name (`company`, `jobtitle`, `phone`: a hub's
     * lead form); an upsert sends only these, so it never blanks what HubSpot has.
     */
    properties: jsonb('properties').$type<Record<string, string>>().notNull().default({}),
    /** The note's HTML, or null for a kind that only upserts the contact (viewer.identified). */
    noteBody: text('note_body'),
    occurredAt: at('occurred_at').notNull(),
    status: text('status', { enum: CRM_ITEM_STATUSES }).notNull().default('pending'),
    /** Attempts that failed (5xx, network, refused input); a 429 or a paused token does not count. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    lockedUntil: at('locked_until'),
    contactId: text('contact_id'),
    contactCreated: boolean('contact_created'),
    noteId: text('note_id'),
    noteUnsure: boolean('note_unsure').notNull().default(false),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: at('last_attempt_at'),
    completedAt: at('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('crm_sync_items_event_uq').on(t.workspaceId, t.eventId),
    index('crm_sync_items_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('crm_sync_items_lease_idx').on(t.lockedUntil).where(sql`status = 'syncing'`),
    index('crm_sync_items_log_idx').on(t.workspaceId, t.createdAt),
    index('crm_sync_items_email_idx').on(t.workspaceId, t.email),
  ],
);
