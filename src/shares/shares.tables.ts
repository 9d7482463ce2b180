import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { members, workspaces } from '../accounts/accounts.tables';
import { demos } from '../demos/demos.tables';
import { at, createdAt, id, updatedAt } from '../db/columns';

/**
 * Share links. A revoked link keeps its row (views and the access log still point at it) with
 * `revoked_at` set; every viewer path treats it as unknown.
 */
export const shares = pgTable(
  'shares',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    /** The secret part of the link (32 random bytes, base64url). Kept readable: the link is listed again. */
    token: text('token').notNull().unique(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash'),
    /** Bumped on every password change: viewer sessions unlocked with an older version stop working. */
    passwordVersion: integer('password_version').notNull().default(0),
    expiresAt: at('expires_at'),
    requireIdentification: boolean('require_identification').notNull().default(false),
    allowedEmails: text('allowed_emails').array().notNull().default(sql`'{}'::text[]`),
    allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
    viewCount: integer('view_count').notNull().default(0),
    lastViewedAt: at('last_viewed_at'),
    createdById: text('created_by_id').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('shares_demo_idx').on(t.demoId, t.createdAt)],
);

/**
 * A viewer's unlocked session on one link. The cookie holds a random token; only its SHA-256 is stored,
 * so a database leak does not hand out live sessions.
 */
export const viewerSessions = pgTable(
  'viewer_sessions',
  {
    id: text('id').primaryKey(),
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    /** The share's password_version when the password was entered; null: never unlocked with a password. */
    passwordVersion: integer('password_version'),
    viewerName: text('viewer_name'),
    viewerEmail: text('viewer_email'),
    /** Stable per session: counts anonymous visitors in unique_viewers. */
    anonymousId: text('anonymous_id').notNull(),
    /** Opened by a signed-in member of the workspace: their views are internal traffic. */
    internal: boolean('internal').notNull().default(false),
    referrer: text('referrer'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('viewer_sessions_share_idx').on(t.shareId), index('viewer_sessions_expires_idx').on(t.expiresAt)],
);

export const ACCESS_DECISIONS = [
  'granted',
  'unlocked',
  'identified',
  'wrong_password',
  'blocked',
  'expired',
  'revoked',
  'not_allowed',
  'not_published',
  'password_required',
  'identification_required',
] as const;
export type AccessDecision = (typeof ACCESS_DECISIONS)[number];

/** Every gate decision of a link, for its owners: who tried, from where, and what the answer was. */
export const shareAccessLog = pgTable(
  'share_access_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    decision: text('decision', { enum: ACCESS_DECISIONS }).notNull(),
    at: at('at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    viewerEmail: text('viewer_email'),
    viewerName: text('viewer_name'),
  },
  (t) => [index('share_access_log_share_idx').on(t.shareId, t.at), index('share_access_log_at_idx').on(t.at)],
);
