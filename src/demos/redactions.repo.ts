// The SQL of a redaction: old assets swapped for new ones wherever named (steps, thumbnail, versions), then deleted.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import type { DemoSnapshot } from './demo-snapshot';
import { assets, demos, demoVersions, steps } from './demos.tables';

/**
 * Points every reference to the old assets of a demo at their replacements (old id → new id): its steps,
 * its thumbnail, and the snapshot and asset list of each of its published versions. Answers the numbers
 * of the versions it rewrote.
 */
export async function replaceAssetReferences(db: Executor, demoId: string, replaced: Map<string, string>): Promise<number[]> {
  const olds = [...replaced.keys()];
  if (olds.length === 0) return [];
  // One parameter per id, not an array parameter: the two drivers (pg, PGlite) encode arrays differently.
  const oldList = sql`array[${sql.join(
    olds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  const swap = (id: string | null) => (id !== null && replaced.has(id) ? replaced.get(id)! : id);

  for (const [from, to] of replaced) {
    await db
      .update(steps)
      .set({ imageAssetId: to })
      .where(and(eq(steps.demoId, demoId), eq(steps.imageAssetId, from)));
    await db
      .update(steps)
      .set({ htmlAssetId: to })
      .where(and(eq(steps.demoId, demoId), eq(steps.htmlAssetId, from)));
    await db
      .update(demos)
      .set({ thumbnailAssetId: to })
      .where(and(eq(demos.id, demoId), eq(demos.thumbnailAssetId, from)));
  }

  // A version names an asset in its asset list and in its snapshot's steps; both are searched, in case
  // one were ever written without the other.
  const named = await db
    .select({ id: demoVersions.id, number: demoVersions.number, snapshot: demoVersions.snapshot, assetIds: demoVersions.assetIds })
    .from(demoVersions)
    .where(
      and(
        eq(demoVersions.demoId, demoId),
        or(
          sql`${demoVersions.assetIds} && ${oldList}`,
          sql`exists (select 1 from jsonb_array_elements(${demoVersions.snapshot}->'steps') s where s->>'image_asset_id' = any(${oldList}) or s->>'html_asset_id' = any(${oldList}))`,
        ),
      ),
    );
  for (const version of named) {
    const snapshot = version.snapshot as unknown as DemoSnapshot;
    const rewritten: DemoSnapshot = {
      ...snapshot,
      steps: snapshot.steps.map((s) => ({ ...s, image_asset_id: swap(s.image_asset_id), html_asset_id: swap(s.html_asset_id) })),
    };
    const assetIds = [...new Set(version.assetIds.map((id) => swap(id)!))].sort();
    await db
      .update(demoVersions)
      .set({ snapshot: rewritten as unknown as Record<string, unknown>, assetIds })
      .where(eq(demoVersions.id, version.id));
  }
  return named.map((v) => v.number).sort((a, b) => a - b);
}

/** The blob keys of assets of the demo (those whose bytes are in the asset store), by id. */
export async function blobKeysOf(db: Executor, demoId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ blobKey: assets.blobKey })
    .from(assets)
    .where(and(eq(assets.demoId, demoId), inArray(assets.id, ids), sql`${assets.blobKey} is not null`));
  return [...new Set(rows.map((r) => r.blobKey!))];
}

/** Whether any asset, of any demo, still names the blob (content addresses are shared by equal bytes). */
export async function isBlobNamed(db: Executor, blobKey: string) {
  const [row] = await db.select({ id: assets.id }).from(assets).where(eq(assets.blobKey, blobKey)).limit(1);
  return row !== undefined;
}

/** Deletes assets of the demo outright, whoever named them: call once nothing does any more. */
export async function deleteAssetsNow(db: Executor, demoId: string, ids: string[]) {
  if (ids.length === 0) return;
  await db.delete(assets).where(and(eq(assets.demoId, demoId), inArray(assets.id, ids)));
}
