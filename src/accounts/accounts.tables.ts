// Users, their memberships of workspaces, web sessions and e-mailed account links.
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from '../db/columns';
// Referenced by foreign key only: the workspaces row and everything about it are the workspaces domain's.
import { workspaces } from '../workspaces/workspaces.tables';

export const users = pgTable('users', {
  id: id(),
  /** Stored lower-cased: e-mail addresses compare case-insensitively. */
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  /** When the user proved they receive mail at `email` (a verification, reset or invitation link); null until then. */
  emailVerifiedAt: at('email_verified_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const members = pgTable(
  'members',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Null while an invitation waits for someone to sign up with `email`. */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'editor', 'viewer'] }).notNull(),
    status: text('status', { enum: ['active', 'invited'] }).notNull(),
    invitedById: text('invited_by_id'),
    /** When the invitation was (last) sent; null for a workspace's creator. */
    invitedAt: at('invited_at'),
    joinedAt: at('joined_at'),
    /**
     * SHA-256 of the one live invitation token; cleared when it is used. Resending replaces it, so an
     * earlier link dies with it.
     */
    inviteTokenDigest: text('invite_token_digest'),
    inviteExpiresAt: at('invite_expires_at'),
    /** What became of the invitation e-mail: the admin sees a failure on the member row. */
    inviteEmailStatus: text('invite_email_status', { enum: ['sent', 'failed', 'not_configured'] }),
    inviteEmailError: text('invite_email_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('members_workspace_email_uq').on(t.workspaceId, t.email),
    uniqueIndex('members_invite_token_uq').on(t.inviteTokenDigest),
    index('members_user_idx').on(t.userId),
    check('members_role_ck', sql`${t.role} in ('admin', 'editor', 'viewer')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie value: a database leak does not leak live sessions. */
    tokenDigest: text('token_digest').notNull().unique(),
    csrfToken: text('csrf_token').notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    lastSeenAt: at('last_seen_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Single-use links e-mailed to a user: verify an address (the sign-up one, or a new one being changed to)
 * and reset a password. Only the SHA-256 of the token is stored.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    tokenDigest: text('token_digest').notNull().unique(),
    /** The address the link was sent to: verifying it proves this one, which may be a new address. */
    email: text('email').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('account_tokens_user_idx').on(t.userId),
    check('account_tokens_purpose_ck', sql`${t.purpose} in ('verify_email', 'reset_password')`),
  ],
);
