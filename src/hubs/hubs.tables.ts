// The hubs domain's tables: hubs, their collections and entries, entry covers, hub viewer sessions and opens.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { at, bytea, createdAt, id, updatedAt } from '../db/columns';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** What a hub's gate form may ask beyond name and e-mail (a lead form): fixed keys, so no user HTML or schema. */
export const HUB_LEAD_FIELDS = ['company', 'job_title', 'phone'] as const;
export type HubLeadField = (typeof HUB_LEAD_FIELDS)[number];

/**
 * A demo hub: a branded page of demos in collections, behind the same gates as a link. Its entries'
 * links (shares.hub_id) carry a copy of these gates, kept in step by the hubs service.
 */
export const hubs = pgTable(
  'hubs',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The secret part of /h/<token> (32 random bytes, base64url). */
    token: text('token').notNull().unique(),
    /** The workspace's own name for it (lists). */
    name: text('name').notNull(),
    /** The hero title and intro viewers see. */
    title: text('title').notNull(),
    intro: text('intro').notNull().default(''),
    ctaLabel: text('cta_label'),
    ctaUrl: text('cta_url'),
    passwordHash: text('password_hash'),
    passwordVersion: integer('password_version').notNull().default(0),
    expiresAt: at('expires_at'),
    requireIdentification: boolean('require_identification').notNull().default(false),
    /** Non-empty: the gate is a lead form (name, e-mail and these), which identifies as the identification gate does. */
    leadFields: text('lead_fields').array().notNull().default(sql`'{}'::text[]`),
    allowedEmails: text('allowed_emails').array().notNull().default(sql`'{}'::text[]`),
    allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
    createdById: text('created_by_id').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('hubs_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const hubCollections = pgTable(
  'hub_collections',
  {
    id: id(),
    hubId: text('hub_id')
      .notNull()
      .references(() => hubs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('hub_collections_hub_idx').on(t.hubId, t.position)],
);

/** One demo on a hub, in one collection, through the link the hub made for it. */
export const hubEntries = pgTable(
  'hub_entries',
  {
    id: id(),
    hubId: text('hub_id')
      .notNull()
      .references(() => hubs.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id')
      .notNull()
      .references(() => hubCollections.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    /** Null: the demo's published title. */
    title: text('title'),
    description: text('description').notNull().default(''),
    position: integer('position').notNull(),
    /** The uploaded cover's digest (hub_entry_covers); null: the demo's first screen, where the hub allows it. */
    coverSha256: text('cover_sha256'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('hub_entries_hub_idx').on(t.hubId, t.collectionId, t.position)],
);

/** An entry's uploaded cover image, apart from the entry so lists never carry its bytes. */
export const hubEntryCovers = pgTable('hub_entry_covers', {
  entryId: text('entry_id')
    .primaryKey()
    .references(() => hubEntries.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  sha256: text('sha256').notNull(),
});

/** A viewer's session on a hub: the gates passed (password version, identity) and the visit it counts as. */
export const hubSessions = pgTable(
  'hub_sessions',
  {
    /** SHA-256 of the token the viewer holds (cookie or header). */
    id: text('id').primaryKey(),
    hubId: text('hub_id')
      .notNull()
      .references(() => hubs.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    passwordVersion: integer('password_version'),
    viewerEmail: text('viewer_email'),
    viewerName: text('viewer_name'),
    /** The lead form's other answers (HUB_LEAD_FIELDS keys). */
    values: jsonb('values').$type<Partial<Record<HubLeadField, string>>>().notNull().default({}),
    referrer: text('referrer'),
    userAgent: text('user_agent'),
    /** Opened by a signed-in member of the workspace: not counted as a visit. */
    internal: boolean('internal').notNull().default(false),
    createdAt: createdAt(),
    identifiedAt: at('identified_at'),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('hub_sessions_hub_idx').on(t.hubId, t.createdAt),
    // The visitors list and its export (hub-visitors.repo.ts): a hub's identified sessions, newest first.
    index('hub_sessions_identified_idx').on(t.hubId, t.identifiedAt).where(sql`viewer_email is not null`),
  ],
);

/** A demo opened from a hub: the hub's "demos opened". Views and completions are the entry links' views. */
export const hubOpens = pgTable(
  'hub_opens',
  {
    id: id(),
    hubId: text('hub_id')
      .notNull()
      .references(() => hubs.id, { onDelete: 'cascade' }),
    entryId: text('entry_id').references(() => hubEntries.id, { onDelete: 'set null' }),
    sessionId: text('session_id').references(() => hubSessions.id, { onDelete: 'set null' }),
    internal: boolean('internal').notNull().default(false),
    at: at('at').notNull(),
  },
  (t) => [index('hub_opens_hub_idx').on(t.hubId, t.at)],
);
