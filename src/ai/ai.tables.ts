// The ai_settings table: a workspace's own OpenAI-compatible model (Settings → AI), one row per workspace.
import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../db/columns';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * The model a workspace writes with, instead of the instance's AI_* one. The key is sealed (AES-GCM under
 * the server's sealing key, as webhook secrets are): a request needs it back, a leaked table does not.
 */
export const aiSettings = pgTable('ai_settings', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  baseUrl: text('base_url').notNull(),
  model: text('model').notNull(),
  keySealed: text('key_sealed').notNull(),
  /** The key's last four characters, the one part of it ever shown again. */
  keyLast4: text('key_last4').notNull(),
  updatedById: text('updated_by_id'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
