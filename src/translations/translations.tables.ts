// The translations domain's table: one row per demo and language, its units keyed by stable ids.
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, createdAt, updatedAt } from '../db/columns';
import { demos } from '../demos/demos.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** `draft`: imported or machine-made, not served. `reviewed`: approved by an editor, served to viewers. */
export const TRANSLATION_STATUSES = ['draft', 'reviewed'] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

/** Where a language's text came from last: an uploaded file, the model, or an edit in the editor. */
export const TRANSLATION_ORIGINS = ['import', 'machine', 'edit'] as const;
export type TranslationOrigin = (typeof TRANSLATION_ORIGINS)[number];

/**
 * One unit's translation: the source text it was made from (so a unit whose source changed since is not
 * served: the original shows instead) and the translated text (rich units as sanitised HTML).
 */
export interface StoredUnit {
  source: string;
  target: string;
}

/**
 * A demo's text in one language. Units are keyed by the ids of translation-units.ts (`step.<id>.title`,
 * `page.<step id>.<n>`); only a `reviewed` row is served to viewers.
 */
export const demoTranslations = pgTable(
  'demo_translations',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** BCP 47 tag, as written by the first import (`fr`, `pt-BR`); unique per demo case-insensitively. */
    lang: text('lang').notNull(),
    /** The language of the demo's own text, as the file said it (XLIFF srcLang): a viewer asking for it gets the original. */
    sourceLang: text('source_lang').notNull().default('en'),
    status: text('status').$type<TranslationStatus>().notNull().default('draft'),
    origin: text('origin').$type<TranslationOrigin>().notNull().default('import'),
    units: jsonb('units').$type<Record<string, StoredUnit>>().notNull().default({}),
    /** SHA-256 of the source units the last import or machine run was checked against. */
    sourceDigest: text('source_digest').notNull(),
    /** Bumped on every change: an editor's PATCH may name the revision it saw. */
    revision: integer('revision').notNull().default(1),
    reviewedAt: at('reviewed_at'),
    reviewedById: text('reviewed_by_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.lang] }), index('demo_translations_workspace_idx').on(t.workspaceId)],
);
