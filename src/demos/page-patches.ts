// Page patches of HTML steps: checked when written, named by a hash in snapshot addresses, applied when served.
import { sha256Hex } from '../core/crypto';
import { TaggedCache } from '../core/cache';
import { invalid, type ErrorDetail } from '../core/errors';
import type { Executor } from '../db/client';
import type { PatchedSnapshot } from './apply-page-patches';
import * as repo from './demos.repo';
import { selectorProblem } from './redact-snapshot';
import type { PagePatch } from './story.schemas';

/**
 * A short name for a list of patches: the query parameter (`?patches=`) of a patched snapshot's address, so
 * the address changes when the patches do (players and the editor cache snapshots by address) and the
 * server finds which patches the address means. Keys in a fixed order, so equal lists name alike.
 */
export function patchesHash(patches: readonly PagePatch[]): string {
  const canonical = patches.map((p) => [p.selector, p.op, p.value ?? null]);
  return sha256Hex(JSON.stringify(canonical)).slice(0, 16);
}

/** The address of a step's snapshot with its patches named: unchanged when it has none. */
export function patchedAddress<T extends string | null>(url: T, patches: readonly PagePatch[] | undefined): T {
  return (url === null || !patches?.length ? url : `${url}?patches=${patchesHash(patches)}`) as T;
}

/** The assets `image` patches show: a version keeps them, the viewer may serve them. */
export function patchImageIds(patches: readonly PagePatch[]): string[] {
  return patches.filter((p) => p.op === 'image' && p.value).map((p) => p.value as string);
}

/**
 * Checks patches before they are stored on a step of `demoId`: each selector must be one the server can
 * match (css-what parses it, css-select compiles it), `text` needs a value, `image` an image asset of this
 * demo. 400 `invalid_request` naming every patch at fault (`patches[2].selector`); nothing is written.
 */
export async function checkPagePatches(tx: Executor, demoId: string, patches: readonly PagePatch[]): Promise<void> {
  const details: ErrorDetail[] = [];
  for (const [i, patch] of patches.entries()) {
    const problem = selectorProblem(patch.selector);
    if (problem) details.push({ field: `patches[${i}].selector`, message: problem });
    if (patch.op === 'text' && patch.value === undefined) details.push({ field: `patches[${i}].value`, message: 'is required for a text patch (the new text)' });
    if (patch.op === 'image') {
      const asset = patch.value ? await repo.findAsset(tx, demoId, patch.value) : undefined;
      if (!asset?.contentType.startsWith('image/')) {
        details.push({
          field: `patches[${i}].value`,
          message: 'must be the id of an image of this demo (POST /v1/demos/{id}/images uploads one)',
        });
      }
    }
  }
  if (details.length > 0) throw invalid(`${details.length === 1 ? 'A page patch is' : 'Page patches are'} not valid: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

/** What serving a patched snapshot needs: the document workers' task (document-tasks.ts `applyPagePatches`). */
export type ApplyPatches = (html: string, patches: PagePatch[], imageUrls: Record<string, string>) => Promise<PatchedSnapshot>;

export interface ServedSnapshot {
  bytes: Buffer;
  /** Strong validator: the stored asset's digest and the patches' hash. */
  etag: string;
}

/**
 * HTML snapshots with their patches applied, as the viewer and the editor serve them: parsed in a document
 * worker (never on the event loop) and kept by (asset digest, patches hash, image address prefix), so a
 * viewer's request does not parse the page again. An entry never goes stale (the asset and the patches a
 * hash names never change); the cache is bounded in entries and time, and a failed parse is not kept.
 *
 * @example
 * ```ts
 * const snapshots = createPatchedSnapshots((html, patches, urls) => kernel.documents.run('applyPagePatches', [html, patches, urls]));
 * const { bytes, etag } = await snapshots.serve(assetRow, step.patches, (id) => `/v1/viewer/${token}/assets/${id}`);
 * ```
 */
export function createPatchedSnapshots(apply: ApplyPatches, options: { ttlMs?: number; maxEntries?: number } = {}) {
  const cache = new TaggedCache<Promise<ServedSnapshot>>(options.ttlMs ?? 10 * 60_000, options.maxEntries ?? 200);
  let parses = 0;

  function serve(asset: { sha256: string; bytes: Buffer }, patches: PagePatch[], imageUrl: (assetId: string) => string): Promise<ServedSnapshot> {
    const hash = patchesHash(patches);
    const prefix = imageUrl('');
    const key = `${asset.sha256}:${hash}:${prefix}`;
    let found = cache.get(key);
    if (!found) {
      const imageUrls = Object.fromEntries(patchImageIds(patches).map((id) => [id, imageUrl(id)]));
      parses++;
      found = apply(asset.bytes.toString('utf8'), patches, imageUrls).then((patched) => ({
        bytes: Buffer.from(patched.html, 'utf8'),
        etag: `"${asset.sha256.slice(0, 32)}-${hash}"`,
      }));
      cache.set(key, found);
      found.catch(() => cache.delete(key));
    }
    return found;
  }

  return {
    serve,
    /** How many documents were parsed (cache misses): tests show a second request parses nothing. */
    stats: () => ({ parses }),
  };
}

export type PatchedSnapshots = ReturnType<typeof createPatchedSnapshots>;
