import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { assets, demos } from '../demos/demos.tables';
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
    /** What a link unfurl (and the gate) shows instead of the demo's own title; null: the default. */
    previewTitle: text('preview_title'),
    previewDescription: text('preview_description'),
    /** An image of the demo chosen for unfurls; served without the gates, so it is the owner's choice alone. */
    previewImageAssetId: text('preview_image_asset_id').references(() => assets.id, { onDelete: 'set null' }),
    /** A password link keeps its demo's title to itself until unlocked, unless this is set. */
    showTitleBeforeUnlock: boolean('show_title_before_unlock').notNull().default(false),
    /** Personalisation values of a link made for one account (`{{company}}` → 'Acme'): text only, filled as text. */
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    viewCount: integer('view_count').notNull().default(0),
    lastViewedAt: at('last_viewed_at'),
    createdById: text('created_by_id').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    revokedAt: at('revoked_at'),
    /**
     * Set on the links a demo hub made for its entries (src/hubs): the hub keeps their gates in step with its
     * own and revokes them with the entry. No foreign key: shares never depends on hubs.
     */
    hubId: text('hub_id'),
  },
  (t) => [index('shares_demo_idx').on(t.demoId, t.createdAt)],
);
