// Queries of hubs, their collections, entries and covers.
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { hubCollections, hubEntries, hubEntryCovers, hubs } from './hubs.tables';

export type HubRow = typeof hubs.$inferSelect;
export type HubCollectionRow = typeof hubCollections.$inferSelect;
export type HubEntryRow = typeof hubEntries.$inferSelect;

export async function insertHub(db: Executor, row: typeof hubs.$inferInsert) {
  const [created] = await db.insert(hubs).values(row).returning();
  return created!;
}

export async function listHubs(db: Executor, workspaceId: string, range: { limit: number; offset: number }) {
  const rows = await db
    .select()
    .from(hubs)
    .where(eq(hubs.workspaceId, workspaceId))
    .orderBy(desc(hubs.createdAt), desc(hubs.id))
    .limit(range.limit)
    .offset(range.offset);
  const [total] = await db.select({ n: count() }).from(hubs).where(eq(hubs.workspaceId, workspaceId));
  return { rows, total: total?.n ?? 0 };
}

export async function findHub(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(hubs)
    .where(and(eq(hubs.workspaceId, workspaceId), eq(hubs.id, id)))
    .limit(1);
  return row;
}

/** Locks the hub for the rest of `tx`: entries and gate changes of one hub never interleave. */
export async function lockHub(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(hubs)
    .where(and(eq(hubs.workspaceId, workspaceId), eq(hubs.id, id)))
    .for('update');
  return row;
}

export async function findHubByToken(db: Executor, token: string) {
  const [row] = await db.select().from(hubs).where(eq(hubs.token, token)).limit(1);
  return row;
}

export async function updateHub(db: Executor, id: string, patch: Partial<typeof hubs.$inferInsert>) {
  const [row] = await db.update(hubs).set(patch).where(eq(hubs.id, id)).returning();
  return row!;
}

export async function deleteHub(db: Executor, id: string) {
  await db.delete(hubs).where(eq(hubs.id, id));
}

export async function insertCollection(db: Executor, row: typeof hubCollections.$inferInsert) {
  const [created] = await db.insert(hubCollections).values(row).returning();
  return created!;
}

export async function listCollections(db: Executor, hubId: string) {
  return db
    .select()
    .from(hubCollections)
    .where(eq(hubCollections.hubId, hubId))
    .orderBy(asc(hubCollections.position), asc(hubCollections.id));
}

export async function updateCollection(db: Executor, id: string, patch: Partial<typeof hubCollections.$inferInsert>) {
  const [row] = await db.update(hubCollections).set(patch).where(eq(hubCollections.id, id)).returning();
  return row!;
}

export async function deleteCollection(db: Executor, id: string) {
  await db.delete(hubCollections).where(eq(hubCollections.id, id));
}

/** The next position at the end of a list (collections of a hub, or entries of a collection). */
export async function nextCollectionPosition(db: Executor, hubId: string) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${hubCollections.position}) + 1, 0)::int` })
    .from(hubCollections)
    .where(eq(hubCollections.hubId, hubId));
  return row?.n ?? 0;
}

export async function nextEntryPosition(db: Executor, collectionId: string) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${hubEntries.position}) + 1, 0)::int` })
    .from(hubEntries)
    .where(eq(hubEntries.collectionId, collectionId));
  return row?.n ?? 0;
}

export async function insertEntry(db: Executor, row: typeof hubEntries.$inferInsert) {
  const [created] = await db.insert(hubEntries).values(row).returning();
  return created!;
}

/**
 * A hub's entries in order, with what the hub shows of their demo and link: the demo's title and whether
 * it is published, the link's token and whether it still stands.
 */
export async function listEntries(db: Executor, hubId: string) {
  return db
    .select({
      entry: hubEntries,
      demoTitle: demos.title,
      demoStatus: demos.status,
      shareToken: shares.token,
      shareRevoked: sql<boolean>`${shares.revokedAt} is not null`,
    })
    .from(hubEntries)
    .innerJoin(demos, eq(demos.id, hubEntries.demoId))
    .innerJoin(shares, eq(shares.id, hubEntries.shareId))
    .where(eq(hubEntries.hubId, hubId))
    .orderBy(asc(hubEntries.position), asc(hubEntries.id));
}

export type HubEntryListing = Awaited<ReturnType<typeof listEntries>>[number];

export async function updateEntry(db: Executor, id: string, patch: Partial<typeof hubEntries.$inferInsert>) {
  const [row] = await db.update(hubEntries).set(patch).where(eq(hubEntries.id, id)).returning();
  return row!;
}

export async function deleteEntry(db: Executor, id: string) {
  await db.delete(hubEntries).where(eq(hubEntries.id, id));
}

export async function entryShareIds(db: Executor, hubId: string, collectionId?: string) {
  const rows = await db
    .select({ shareId: hubEntries.shareId })
    .from(hubEntries)
    .where(and(eq(hubEntries.hubId, hubId), collectionId ? eq(hubEntries.collectionId, collectionId) : undefined));
  return rows.map((r) => r.shareId);
}

export async function setCover(db: Executor, row: typeof hubEntryCovers.$inferInsert) {
  await db
    .insert(hubEntryCovers)
    .values(row)
    .onConflictDoUpdate({ target: hubEntryCovers.entryId, set: { contentType: row.contentType, bytes: row.bytes, sha256: row.sha256 } });
}

export async function findCover(db: Executor, entryId: string) {
  const [row] = await db.select().from(hubEntryCovers).where(eq(hubEntryCovers.entryId, entryId)).limit(1);
  return row;
}

export async function deleteCover(db: Executor, entryId: string) {
  await db.delete(hubEntryCovers).where(eq(hubEntryCovers.entryId, entryId));
}
