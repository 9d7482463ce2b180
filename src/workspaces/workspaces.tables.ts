// The workspaces row (owned here; others refer to it by foreign key) and a workspace's logo.
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id, updatedAt } from '../db/columns';

/**
 * A workspace: the unit that owns demos, links, keys and members. Made with its first account at sign-up
 * (accounts asks `reader.create` in its transaction); its settings are this domain's.
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: id(),
    name: text('name').notNull(),
    /** Accent of the player and share pages; a demo's own theme colour overrides it. Null: the product's. */
    brandColor: text('brand_color'),
    /** A key of FONT_STACKS (workspaces/branding.ts), never CSS: the player maps it to a font stack. */
    font: text('font').notNull().default('system'),
    /** SHA-256 of the logo in workspace_logos, so its address changes with it; null: no logo. */
    logoSha256: text('logo_sha256'),
    /** Share-link defaults, applied where a new link leaves the option out. */
    shareRequireIdentification: boolean('share_require_identification').notNull().default(false),
    shareExpiresInDays: integer('share_expires_in_days'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('workspaces_brand_color_ck', sql`${t.brandColor} ~ '^#[0-9a-f]{6}$'`),
    check('workspaces_share_expiry_ck', sql`${t.shareExpiresInDays} between 1 and 365`),
  ],
);


/**
 * A workspace's logo, apart from the workspaces row so that the many reads of that row never carry the
 * image. One per workspace; replacing it overwrites the row.
 */
export const workspaceLogos = pgTable('workspace_logos', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  sha256: text('sha256').notNull(),
  updatedAt: updatedAt(),
});
