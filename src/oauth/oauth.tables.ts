import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { members, users } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { at, createdAt, id } from '../db/columns';

/** A registered client application. Its id is the OAuth `client_id`. */
export const oauthApps = pgTable(
  'oauth_apps',
  {
    id: id(),
    /** Null for the clients built into the instance (the recorder extension): any workspace's member may use them. */
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Exact-match list: a redirect_uri must equal one of these, character for character. */
    redirectUris: text('redirect_uris').array().notNull(),
    /** The most an authorisation of this app may grant. */
    scopes: text('scopes').array().notNull(),
    /** Public clients (SPAs, CLIs) have no secret and must use PKCE. */
    isPublic: boolean('is_public').notNull().default(false),
    /** HMAC of the client secret; null for public clients. */
    secretDigest: text('secret_digest'),
    secretLastFour: text('secret_last_four'),
    /** Vouched for by this instance's operator (`demoshare oauth-apps verify`); shown on the consent page. */
    verified: boolean('verified').notNull().default(false),
    createdById: text('created_by_id').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_apps_workspace_idx').on(t.workspaceId)],
);

/**
 * One user's authorisation of one app: every token issued from one authorization code belongs to it, so
 * a replayed code or a reused refresh token revokes the whole family at once.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: id(),
    appId: text('app_id')
      .notNull()
      .references(() => oauthApps.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    /** RFC 8707: the resource (audience) the client named, this API or its /mcp endpoint; null when none. */
    resource: text('resource'),
    createdAt: createdAt(),
    /** When a token of the grant last authenticated a request, to the minute (written at most once a minute). */
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [
    index('oauth_grants_app_idx').on(t.appId),
    index('oauth_grants_user_idx').on(t.userId),
    index('oauth_grants_workspace_idx').on(t.workspaceId),
  ],
);

/** Authorization codes: single use, 60 seconds, bound to client, redirect URI and PKCE challenge. */
export const oauthCodes = pgTable('oauth_codes', {
  digest: text('digest').primaryKey(),
  grantId: text('grant_id')
    .notNull()
    .references(() => oauthGrants.id, { onDelete: 'cascade' }),
  appId: text('app_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge'),
  codeChallengeMethod: text('code_challenge_method'),
  createdAt: createdAt(),
  expiresAt: at('expires_at').notNull(),
  consumedAt: at('consumed_at'),
});

/** Access and refresh tokens, stored as HMAC digests only. */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: id(),
    grantId: text('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    digest: text('digest').notNull().unique(),
    scopes: text('scopes').array().notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    /** A refresh token is used once; a second use is a replay and revokes the grant. */
    usedAt: at('used_at'),
    /**
     * What using this refresh token issued (the new pair as JSON, sealed with the secret key), so that a
     * second refresh within OAUTH_REFRESH_GRACE gets the same pair back instead of revoking the grant.
     */
    successorSealed: text('successor_sealed'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('oauth_tokens_grant_idx').on(t.grantId)],
);
