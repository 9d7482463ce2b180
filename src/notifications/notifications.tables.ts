import { sql } from 'drizzle-orm';
import { check, date, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { createdAt, updatedAt } from '../db/columns';

export const NOTIFICATION_MODES = ['off', 'instant', 'daily'] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];
export const NOTIFICATION_SCOPES = ['all', 'mine'] as const;
export type NotificationScope = (typeof NOTIFICATION_SCOPES)[number];

/**
 * What a member wants to hear about viewers, per workspace (a member row is one person in one workspace).
 * No row: off. Opt-in, so nobody gets mail they did not ask for.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    memberId: text('member_id')
      .primaryKey()
      .references(() => members.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: NOTIFICATION_MODES }).notNull(),
    /** `mine`: only demos the member created. */
    scope: text('scope', { enum: NOTIFICATION_SCOPES }).notNull().default('all'),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('notification_settings_workspace_idx').on(t.workspaceId, t.mode),
    check('notification_settings_mode_ck', sql`${t.mode} in ('off', 'instant', 'daily')`),
    check('notification_settings_scope_ck', sql`${t.scope} in ('all', 'mine')`),
  ],
);

/**
 * Every message sent, by what it was about, so that none goes twice: one per viewer per link per member
 * per UTC day (`subject`: `<share id>:<e-mail>`), one per lead (`lead:<lead id>`), one per hub visit and
 * address (`hub:<hub session>:<e-mail>`, on the visit's first day), and one digest per member per day
 * (`subject`: `digest`).
 * Written in the transaction that queues the message: a retried job finds its row and sends nothing.
 */
export const notificationsSent = pgTable(
  'notifications_sent',
  {
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    subject: text('subject').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.day, t.subject] }), index('notifications_sent_day_idx').on(t.day)],
);
