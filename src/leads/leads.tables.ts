// The leads domain's table: what viewers sent through the lead forms of published demos.
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../db/columns';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { viewerSessions } from '../viewing/viewing.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** A form field's value as stored: text for text, email, phone, select and hidden fields; a boolean for a checkbox. */
export type LeadValue = string | boolean;

/**
 * One submission of a lead form. It goes with its demo (as the views do); the link, session and view are
 * kept as long as they exist. `client_id` is the id the player made for the submission: a retry in the
 * same session finds the lead it already made instead of making a second one.
 */
export const leads = pgTable(
  'leads',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    shareId: text('share_id').references(() => shares.id, { onDelete: 'set null' }),
    sessionId: text('session_id').references(() => viewerSessions.id, { onDelete: 'set null' }),
    /**
     * No foreign key: views are partitioned by month and their key includes started_at. The retention
     * (viewer-privacy/retention.repo.ts) clears it before views go, as `set null` did.
     */
    viewId: text('view_id'),
    /** The published version whose form was filled in (demo_versions.number). */
    version: integer('version'),
    /** The form step, as numbered in that version, and its id. */
    stepNumber: integer('step_number').notNull(),
    stepId: text('step_id').notNull(),
    clientId: uuid('client_id').notNull(),
    /** Lower-cased; null when the form has no e-mail field or it was left empty. */
    email: text('email'),
    name: text('name'),
    values: jsonb('values').$type<Record<string, LeadValue>>().notNull().default({}),
    /** Whether this submission identified the viewer (their session and view now carry the e-mail and name). */
    identified: boolean('identified').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('leads_session_client_idx').on(t.sessionId, t.clientId),
    index('leads_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('leads_demo_created_idx').on(t.demoId, t.createdAt),
    index('leads_share_idx').on(t.shareId),
    index('leads_email_idx').on(t.workspaceId, t.email),
  ],
);
