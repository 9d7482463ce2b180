// The collector's one question to the database: which of these blobs an asset still names.
import { inArray } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { assets } from './demos.tables';

/** The keys among `keys` that at least one asset, of any demo, names (through assets_blob_key_idx). */
export async function namedBlobKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectDistinct({ key: assets.blobKey }).from(assets).where(inArray(assets.blobKey, keys));
  return new Set(rows.map((r) => r.key!));
}
