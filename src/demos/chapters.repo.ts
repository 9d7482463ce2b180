// The chapters of a demo's story: groups of steps a chapter menu offers (docs/interactive-demos.md).
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { chapters } from './demos.tables';

export type ChapterRow = typeof chapters.$inferSelect;

export async function listChapters(db: Executor, demoId: string) {
  return db.select().from(chapters).where(eq(chapters.demoId, demoId)).orderBy(asc(chapters.position), asc(chapters.id));
}

export async function findChapter(db: Executor, demoId: string, id: string) {
  const [row] = await db
    .select()
    .from(chapters)
    .where(and(eq(chapters.demoId, demoId), eq(chapters.id, id)))
    .limit(1);
  return row;
}

export async function insertChapters(db: Executor, rows: (typeof chapters.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return db.insert(chapters).values(rows).returning();
}

export async function updateChapter(db: Executor, id: string, patch: Partial<typeof chapters.$inferInsert>) {
  const [row] = await db.update(chapters).set(patch).where(eq(chapters.id, id)).returning();
  return row!;
}

/** Its steps keep their place and lose the chapter (the column's `on delete set null`). */
export async function deleteChapter(db: Executor, id: string) {
  await db.delete(chapters).where(eq(chapters.id, id));
}

export async function deleteAllChapters(db: Executor, demoId: string) {
  await db.delete(chapters).where(eq(chapters.demoId, demoId));
}

/** Renumbers 1..n in the given order, writing only the chapters whose position changes. */
export async function renumberChapters(db: Executor, ordered: ChapterRow[], now: Date) {
  for (const [index, chapter] of ordered.entries()) {
    if (chapter.position !== index + 1) {
      await db
        .update(chapters)
        .set({ position: index + 1, updatedAt: now })
        .where(eq(chapters.id, chapter.id));
      chapter.position = index + 1;
    }
  }
}
