// The queries of `demoshare assets move`: asset rows by where their bytes are, and the one-row switches between the two places.
import { and, asc, eq, gt, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { assets } from './demos.tables';

/** How many assets, and how many bytes (their `size`), one place holds. */
export interface PlaceCount {
  assets: number;
  bytes: number;
}

/** Asset rows counted by where their bytes are: in the row (`bytes`) or in a blob store (`blob_key`). */
export interface AssetCounts {
  database: PlaceCount;
  blobs: PlaceCount;
}

/** The database's clock: rows a move counts and moves are the ones created up to this moment. */
export async function databaseNow(db: Executor): Promise<Date> {
  const result = (await db.execute(sql`select floor(extract(epoch from now()) * 1000)::bigint::text as ms`)) as unknown as {
    rows: { ms: string }[];
  };
  return new Date(Number(result.rows[0]!.ms));
}

/** How many assets have their bytes in a blob store (through the partial index on `blob_key`). */
export async function countBlobHeld(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(assets).where(isNotNull(assets.blobKey));
  return row?.n ?? 0;
}

/** Assets created up to `until` (or after it, with `since`), counted by where their bytes are. */
export async function countAssets(db: Executor, window: { until: Date } | { since: Date }): Promise<AssetCounts> {
  const rows = await db
    .select({
      inRow: sql<boolean>`${assets.bytes} is not null`,
      assets: sql<number>`count(*)::int`.mapWith(Number),
      bytes: sql<string>`coalesce(sum(${assets.size}), 0)::bigint::text`,
    })
    .from(assets)
    .where('until' in window ? lte(assets.createdAt, window.until) : gt(assets.createdAt, window.since))
    .groupBy(sql`1`);
  const out: AssetCounts = { database: { assets: 0, bytes: 0 }, blobs: { assets: 0, bytes: 0 } };
  for (const row of rows) out[row.inRow ? 'database' : 'blobs'] = { assets: row.assets, bytes: Number(row.bytes) };
  return out;
}

/** One asset row to move, without its bytes (they are read one row at a time). */
export interface MoveCandidate {
  id: string;
  contentType: string;
  size: number;
  sha256: string;
  blobKey: string | null;
}

/** The next rows (by id, after `afterId`) whose bytes are in `place`, created up to `until`. */
export async function candidates(
  db: Executor,
  place: 'database' | 'blobs',
  options: { afterId: string | null; until: Date; limit: number },
): Promise<MoveCandidate[]> {
  return db
    .select({ id: assets.id, contentType: assets.contentType, size: assets.size, sha256: assets.sha256, blobKey: assets.blobKey })
    .from(assets)
    .where(
      and(
        place === 'database' ? isNotNull(assets.bytes) : isNotNull(assets.blobKey),
        lte(assets.createdAt, options.until),
        options.afterId === null ? undefined : gt(assets.id, options.afterId),
      ),
    )
    .orderBy(asc(assets.id))
    .limit(options.limit);
}

/** The bytes an asset row holds, or undefined when it holds none now (moved, or deleted). */
export async function rowBytes(db: Executor, id: string): Promise<Buffer | undefined> {
  const [row] = await db.select({ bytes: assets.bytes }).from(assets).where(eq(assets.id, id));
  return row?.bytes ?? undefined;
}

/** The blob a row names now: null when its bytes are in it, undefined when the row is gone. */
export async function blobKeyOf(db: Executor, id: string): Promise<string | null | undefined> {
  const [row] = await db.select({ blobKey: assets.blobKey }).from(assets).where(eq(assets.id, id));
  return row ? row.blobKey : undefined;
}

/**
 * Points a row at its blob and drops its bytes, in one statement (so the check constraint holds throughout):
 * only if the row still holds its bytes. False when it was moved or deleted meanwhile.
 */
export async function switchToBlob(db: Executor, id: string, sha256: string, blobKey: string): Promise<boolean> {
  const rows = await db
    .update(assets)
    .set({ bytes: null, blobKey })
    .where(and(eq(assets.id, id), eq(assets.sha256, sha256), isNotNull(assets.bytes), isNull(assets.blobKey)))
    .returning({ id: assets.id });
  return rows.length === 1;
}

/** Puts the bytes back into the row and drops its key, only if it still names that blob. */
export async function switchToBytes(db: Executor, id: string, blobKey: string, bytes: Buffer): Promise<boolean> {
  const rows = await db
    .update(assets)
    .set({ bytes, blobKey: null })
    .where(and(eq(assets.id, id), eq(assets.blobKey, blobKey), isNull(assets.bytes)))
    .returning({ id: assets.id });
  return rows.length === 1;
}
