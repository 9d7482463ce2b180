import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { workspaces } from '../accounts/accounts.tables';
import { bytea, updatedAt } from '../db/columns';

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
