// Serving a step's snapshot with its page patches to the editor, and images uploaded for `image` patches.
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { notFound } from '../core/errors';
import type { Database } from '../db/client';
import { type AssetStore, loadAsset } from './asset-bytes';
import * as repo from './demos.repo';
import type { UrlBuilder } from './demos.schemas';
import { createPatchedSnapshots, patchesHash, type ApplyPatches } from './page-patches';
import { insertPlacedAsset, placeImage } from './step-assets';

export interface PagePatchesDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  urls: UrlBuilder;
  /** The document workers' `applyPagePatches` (demos.module.ts wires it to `kernel.documents`). */
  apply: ApplyPatches;
  assetStore: AssetStore;
}

/** An asset as a route sends it: its type, its bytes and their strong validator. */
export interface SentAsset {
  contentType: string;
  bytes: Buffer;
  etag: string;
}

/**
 * Page patches beyond storing them (update-step.ts does that): the editor's snapshots served patched, and the
 * images patches swap in. `snapshots` is shared with the viewer (viewing.module.ts), so both parse a page once.
 *
 * @example
 * ```ts
 * const pagePatches = createPagePatches({ ...kernel, urls, apply: (html, patches, urls) => kernel.documents.run('applyPagePatches', [html, patches, urls]) });
 * const sent = await pagePatches.editorAsset(auth, demoId, assetId, request.query.patches);
 * const image = await pagePatches.uploadImage(auth, demoId, pngBytes); // { id, url, content_type, width, height }
 * ```
 */
export function createPagePatches(deps: PagePatchesDeps) {
  const { db } = deps.database;
  const snapshots = createPatchedSnapshots(deps.apply);

  /**
   * GET /v1/demos/:id/assets/:asset_id[?patches=hash]: an asset of a demo of the caller's workspace; a snapshot
   * asked for with the hash of a draft step's patches comes with those patches applied. A hash no step of the
   * draft has (patches changed since) gets the snapshot as stored: never an error.
   */
  async function editorAsset(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, assetId: string, hash?: string): Promise<SentAsset> {
    const demo = await repo.findDemo(db, auth.workspaceId, demoId);
    if (!demo) throw notFound('Demo');
    const asset = await loadAsset(db, deps.assetStore, demoId, assetId);
    if (!asset) throw notFound('Asset');
    const plain = { contentType: asset.contentType, bytes: asset.bytes, etag: `"${asset.sha256}"` };
    if (!hash || !asset.contentType.startsWith('text/html')) return plain;
    const step = (await repo.listSteps(db, demoId)).find(
      (s) => s.htmlAssetId === assetId && s.patches.length > 0 && patchesHash(s.patches) === hash,
    );
    if (!step) return plain;
    const served = await snapshots.serve(asset, step.patches, (id) => deps.urls.asset(demoId, id) ?? '');
    return { contentType: asset.contentType, ...served };
  }

  /** POST /v1/demos/:id/images: an image (PNG, JPEG or WebP, checked from its bytes) stored for the demo's `image` patches. */
  async function uploadImage(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, bytes: Buffer) {
    const found = await repo.findDemo(db, auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    // The blob before the transaction: a store that is down is a 503 and no row names a missing blob.
    const placed = await placeImage(deps.assetStore, bytes);
    const image = { ...placed, id: await db.transaction((tx) => insertPlacedAsset(tx, found.demo, placed.placed, deps.clock.now())) };
    return {
      id: image.id,
      url: deps.urls.asset(demoId, image.id) as string,
      content_type: image.contentType,
      width: image.width,
      height: image.height,
    };
  }

  return { editorAsset, uploadImage, snapshots };
}

export type PagePatchesService = ReturnType<typeof createPagePatches>;
