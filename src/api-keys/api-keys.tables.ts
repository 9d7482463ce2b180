import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { at, createdAt, id } from '../db/columns';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The key dies with its member: removal cascades, demotion narrows it at request time. */
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    lastFour: text('last_four').notNull(),
    /** HMAC-SHA256 of the key under the server secret; the key itself is never stored. */
    digest: text('digest').notNull().unique(),
    scopes: text('scopes').array().notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at'),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    replacedById: text('replaced_by_id'),
  },
  (t) => [index('api_keys_workspace_idx').on(t.workspaceId)],
);
