// Slack alerts: where they go (a workspace's or a member's incoming webhook) and each message, which is its own retry schedule and log.
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { at, createdAt, id, updatedAt } from '../db/columns';
import { workspaces } from '../workspaces/workspaces.tables';

/** What a destination may hear of; the wire names them the same. */
export const SLACK_ALERTS = ['viewer_opened', 'lead_captured', 'demo_finished', 'daily_digest'] as const;
export type SlackAlert = (typeof SLACK_ALERTS)[number];

/** `all` demos of the workspace, or only those the member created (`mine`, a member's own destination only). */
export const SLACK_SCOPES = ['all', 'mine'] as const;
export type SlackScope = (typeof SLACK_SCOPES)[number];

/**
 * One Slack incoming webhook: the workspace's (no `member_id`, set by admins) or one member's own. At most
 * one of each. The URL is the credential (whoever has it posts to the channel), so it is sealed under the
 * server's sealing key and only `url_hint` is ever shown again.
 */
export const slackDestinations = pgTable(
  'slack_destinations',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Null: the workspace's destination. A member who leaves takes theirs along. */
    memberId: text('member_id').references(() => members.id, { onDelete: 'cascade' }),
    urlSealed: text('url_sealed').notNull(),
    urlHint: text('url_hint').notNull(),
    alerts: text('alerts').array().notNull(),
    scope: text('scope', { enum: SLACK_SCOPES }).notNull().default('all'),
    /** Set when Slack said the URL is dead (404/410, `no_service`, `channel_not_found`...): nothing is sent until it is saved again. */
    disabledAt: at('disabled_at'),
    disabledReason: text('disabled_reason'),
    lastDeliveryAt: at('last_delivery_at'),
    updatedById: text('updated_by_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('slack_destinations_workspace_uq').on(t.workspaceId).where(sql`member_id is null`),
    uniqueIndex('slack_destinations_member_uq').on(t.memberId).where(sql`member_id is not null`),
  ],
);

export const SLACK_MESSAGE_STATUSES = ['pending', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type SlackMessageStatus = (typeof SLACK_MESSAGE_STATUSES)[number];

/**
 * One alert to one destination, its Block Kit body fixed when it was made (so every retry sends the same
 * message). Workers claim due rows with FOR UPDATE SKIP LOCKED and hold them for a lease, as webhook
 * deliveries are. `(destination, subject)` is unique: an event (`subject` = its id) or a day's digest
 * (`digest:<date>`) makes one message per destination however often the outbox batch is replayed.
 */
export const slackMessages = pgTable(
  'slack_messages',
  {
    id: id(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => slackDestinations.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    subject: text('subject').notNull(),
    alert: text('alert', { enum: SLACK_ALERTS }).notNull(),
    /** The message's plain-text summary (Slack's notification text), shown in the log. */
    summary: text('summary').notNull(),
    /** The JSON sent. */
    body: text('body').notNull(),
    /** Lower-cased, so a viewer's erasure finds the messages that name them. */
    viewerEmail: text('viewer_email'),
    status: text('status', { enum: SLACK_MESSAGE_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    nextAttemptAt: at('next_attempt_at'),
    lockedUntil: at('locked_until'),
    lastAttemptAt: at('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    /** Why the last attempt failed, with Slack's answer (`no_service`, `invalid_payload`...). */
    lastError: text('last_error'),
    completedAt: at('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('slack_messages_subject_uq').on(t.destinationId, t.subject),
    index('slack_messages_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('slack_messages_lease_idx').on(t.lockedUntil).where(sql`status = 'sending'`),
    index('slack_messages_log_idx').on(t.destinationId, t.createdAt),
    index('slack_messages_created_idx').on(t.createdAt),
    index('slack_messages_viewer_idx').on(t.workspaceId, t.viewerEmail),
  ],
);
