import { and, count, desc, eq, sql } from 'drizzle-orm';
import { users } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import type { DemoSnapshot } from './demo-snapshot';
import { demoVersions } from './demos.tables';

export type DemoVersionRow = typeof demoVersions.$inferSelect;

export async function findVersion(db: Executor, demoId: string, number: number) {
  const [row] = await db
    .select()
    .from(demoVersions)
    .where(and(eq(demoVersions.demoId, demoId), eq(demoVersions.number, number)))
    .limit(1);
  return row ? { ...row, snapshot: row.snapshot as unknown as DemoSnapshot } : undefined;
}

/**
 * Writes the next version of the demo. Call with the demo row locked (lockDemo): two publishes of one
 * demo then number their versions one after the other instead of colliding on the unique index.
 */
export async function insertNextVersion(
  db: Executor,
  row: Omit<typeof demoVersions.$inferInsert, 'number' | 'snapshot'> & { snapshot: DemoSnapshot },
) {
  const [created] = await db
    .insert(demoVersions)
    .values({
      ...row,
      snapshot: row.snapshot as unknown as Record<string, unknown>,
      number: sql`(select coalesce(max(v."number"), 0) + 1 from "demo_versions" v where v."demo_id" = ${row.demoId})`,
    })
    .returning();
  return created!;
}

/** Newest first, with who published (the user may have left: then only the id, or nothing, remains). */
export async function listVersions(db: Executor, demoId: string, page: { limit: number; offset: number }) {
  const where = eq(demoVersions.demoId, demoId);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: demoVersions.id,
        number: demoVersions.number,
        stepCount: demoVersions.stepCount,
        title: sql<string>`${demoVersions.snapshot}->>'title'`,
        publishedAt: demoVersions.publishedAt,
        publishedById: demoVersions.publishedById,
        publishedByEmail: users.email,
        publishedByName: users.name,
      })
      .from(demoVersions)
      .leftJoin(users, eq(users.id, demoVersions.publishedById))
      .where(where)
      .orderBy(desc(demoVersions.number))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(demoVersions).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
