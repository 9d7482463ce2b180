// Queries on demo_translations: one row per demo and language.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demoTranslations, type StoredUnit, type TranslationOrigin, type TranslationStatus } from './translations.tables';

export type TranslationRow = typeof demoTranslations.$inferSelect;

/** A demo's languages, by tag. */
export function listTranslations(db: Executor, demoId: string) {
  return db.select().from(demoTranslations).where(eq(demoTranslations.demoId, demoId)).orderBy(asc(demoTranslations.lang));
}

export async function findTranslation(db: Executor, demoId: string, lang: string) {
  const [row] = await db
    .select()
    .from(demoTranslations)
    .where(and(eq(demoTranslations.demoId, demoId), eq(demoTranslations.lang, lang)));
  return row;
}

/** The row locked for the rest of `tx`: an import, a machine run and an edit of one language do not interleave. */
export async function lockTranslation(tx: Executor, demoId: string, lang: string) {
  const [row] = await tx
    .select()
    .from(demoTranslations)
    .where(and(eq(demoTranslations.demoId, demoId), eq(demoTranslations.lang, lang)))
    .for('update');
  return row;
}

/** The languages viewers are served: reviewed ones only. */
export async function reviewedLanguages(db: Executor, demoId: string) {
  return db
    .select({ lang: demoTranslations.lang, sourceLang: demoTranslations.sourceLang })
    .from(demoTranslations)
    .where(and(eq(demoTranslations.demoId, demoId), eq(demoTranslations.status, 'reviewed')))
    .orderBy(asc(demoTranslations.lang));
}

/** Writes the language's units (a new row, or the one there), bumping its revision. */
export async function saveTranslation(
  tx: Executor,
  row: {
    demoId: string;
    workspaceId: string;
    lang: string;
    sourceLang: string;
    units: Record<string, StoredUnit>;
    status: TranslationStatus;
    origin: TranslationOrigin;
    sourceDigest: string;
    reviewedAt: Date | null;
    reviewedById: string | null;
    at: Date;
  },
) {
  const values = {
    demoId: row.demoId,
    workspaceId: row.workspaceId,
    lang: row.lang,
    sourceLang: row.sourceLang,
    units: row.units,
    status: row.status,
    origin: row.origin,
    sourceDigest: row.sourceDigest,
    reviewedAt: row.reviewedAt,
    reviewedById: row.reviewedById,
    createdAt: row.at,
    updatedAt: row.at,
  };
  const [saved] = await tx
    .insert(demoTranslations)
    .values(values)
    .onConflictDoUpdate({
      target: [demoTranslations.demoId, demoTranslations.lang],
      set: {
        units: values.units,
        sourceLang: values.sourceLang,
        status: values.status,
        origin: values.origin,
        sourceDigest: values.sourceDigest,
        reviewedAt: values.reviewedAt,
        reviewedById: values.reviewedById,
        updatedAt: values.updatedAt,
        revision: sql`${demoTranslations.revision} + 1`,
      },
    })
    .returning();
  return saved!;
}

export async function deleteTranslation(tx: Executor, demoId: string, lang: string) {
  const rows = await tx
    .delete(demoTranslations)
    .where(and(eq(demoTranslations.demoId, demoId), eq(demoTranslations.lang, lang)))
    .returning({ lang: demoTranslations.lang });
  return rows.length > 0;
}
