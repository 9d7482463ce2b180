import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';
import { at, createdAt, id, updatedAt } from '../db/columns';

export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    /** AES-GCM sealed under the server's sealing key: signing needs the secret back, a leaked table does not. */
    secretSealed: text('secret_sealed').notNull(),
    secretHint: text('secret_hint').notNull(),
    /** The secret before the last rotation, still signed with until `previousSecretExpiresAt`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    active: boolean('active').notNull().default(true),
    createdById: text('created_by_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastDeliveryAt: at('last_delivery_at'),
    /** Failed attempts since the last successful one. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** First failure since the last success: the clock of the auto-disable rule. */
    failingSince: at('failing_since'),
    disabledAt: at('disabled_at'),
    disabledReason: text('disabled_reason', { enum: ['manual', 'failing', 'gone'] }),
  },
  (t) => [index('webhooks_workspace_idx').on(t.workspaceId)],
);

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to one webhook: the unit of the retry schedule. Workers claim due rows with FOR UPDATE SKIP
 * LOCKED and hold them for a lease, so two workers never run the same attempt and a crashed worker's
 * claim is taken over when its lease runs out.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    /** The event id: also the `webhook-id` header, identical on every retry and redelivery. */
    eventId: text('event_id').notNull(),
    eventKind: text('event_kind').notNull(),
    /** The exact bytes sent, fixed at fan-out, so every retry signs and sends the same body. */
    body: text('body').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    nextAttemptAt: at('next_attempt_at'),
    lockedUntil: at('locked_until'),
    lastAttemptAt: at('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    completedAt: at('completed_at'),
    redeliveryOf: text('redelivery_of'),
    createdAt: createdAt(),
  },
  (t) => [
    // Fan-out is idempotent: one original delivery per (webhook, event), however often it is attempted.
    uniqueIndex('webhook_deliveries_event_uq').on(t.webhookId, t.eventId).where(sql`redelivery_of is null`),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_lease_idx').on(t.lockedUntil).where(sql`status = 'delivering'`),
    index('webhook_deliveries_log_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

/** The delivery log: one row per attempt. The primary key makes "attempt n of a delivery" happen once. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    webhookId: text('webhook_id').notNull(),
    startedAt: at('started_at').notNull(),
    durationMs: integer('duration_ms'),
    outcome: text('outcome', { enum: ['succeeded', 'failed', 'lost'] }).notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    url: text('url').notNull(),
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>().notNull(),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseExcerpt: text('response_excerpt'),
    responseTruncated: boolean('response_truncated').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
