import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';
import { at, createdAt, id } from '../db/columns';

/**
 * The event outbox. A domain change and its event commit in one transaction, so an event exists exactly
 * when its change does; the webhooks dispatcher fans undispatched rows out to subscribed webhooks.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** When the event happened (the `timestamp` of a delivery). */
    occurredAt: at('occurred_at').notNull(),
    createdAt: createdAt(),
    /** Set once the dispatcher has created the deliveries for this event. */
    dispatchedAt: at('dispatched_at'),
  },
  (t) => [index('events_undispatched_idx').on(t.createdAt).where(sql`dispatched_at is null`)],
);
