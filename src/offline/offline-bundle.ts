// The offline file itself: one HTML document holding the player, the demo, its pictures and snapshots.
import { createHash } from 'node:crypto';
import { escapeHtml, scriptJson } from '../core/html';
import type { PagePatch } from '../demos/story.schemas';
import { offlineSnapshot } from './offline-snapshot';

/** What the offline player reads (`<script type="application/json" id="demoshare-offline">`): player/src/static-source.ts. */
export const OFFLINE_FORMAT = 'demoshare-offline';
export const OFFLINE_FORMAT_VERSION = 1;

export interface OfflineAsset {
  contentType: string;
  bytes: Uint8Array;
}

export interface OfflineSnapshotInput {
  html: string;
  patches: PagePatch[];
  /** Asset ids of the `image` patches → the keys of `images` holding them. */
  patchImages: Record<string, string>;
}

export interface OfflineBundleInput {
  /** The window's title. */
  title: string;
  /** The viewer payload, its image_url / html_url / brand.logo_url being keys of `images` and `snapshots`. */
  demo: Record<string, unknown>;
  images: Record<string, OfflineAsset>;
  snapshots: Record<string, OfflineSnapshotInput>;
  player: { js: string; css: string };
  /** Where the optional analytics beacon goes (docs/offline.md); null: the file makes no request at all. */
  beacon: { url: string; origin: string; ask: boolean } | null;
  exportedAt: string;
  /** The captured sites' pictures fetched for the snapshots, by address (offline-snapshot.ts `pictureReferences`). */
  pictures?: Record<string, OfflineAsset>;
}

export interface OfflineBundle {
  html: string;
  facts: { images: number; snapshots: number; droppedReferences: number; inlinedPictures: number };
}

const dataUrl = (asset: OfflineAsset) => `data:${asset.contentType};base64,${Buffer.from(asset.bytes).toString('base64')}`;

/**
 * Builds the one self-contained HTML file (docs/offline.md): the player's script and styles inline, the demo
 * as a JSON block, every picture as a data: URL (each once, however many steps show it) and every snapshot
 * as text made offline (offline-snapshot.ts). Its Content-Security-Policy lets it load nothing but itself
 * (`connect-src` opens the beacon's origin when there is one), so a forgotten address could not fetch
 * either. CPU-heavy (base64 of megabytes, snapshots parsed): runs in the document workers.
 */
export function buildOfflineBundle(input: OfflineBundleInput): OfflineBundle {
  const assets: Record<string, string> = {};
  for (const [key, asset] of Object.entries(input.images)) assets[key] = dataUrl(asset);
  const snapshots: Record<string, string> = {};
  let droppedReferences = 0;
  let inlinedPictures = 0;
  const pictures = Object.fromEntries(Object.entries(input.pictures ?? {}).map(([url, asset]) => [url, dataUrl(asset)]));
  for (const [key, snap] of Object.entries(input.snapshots)) {
    const urls = Object.fromEntries(Object.entries(snap.patchImages).map(([id, k]) => [id, assets[k] ?? '']));
    const made = offlineSnapshot(snap.html, snap.patches, urls, pictures);
    snapshots[key] = made.html;
    droppedReferences += made.facts.dropped;
    inlinedPictures += made.facts.inlined;
  }
  const data = scriptJson({
    format: OFFLINE_FORMAT,
    version: OFFLINE_FORMAT_VERSION,
    exported_at: input.exportedAt,
    demo: input.demo,
    assets,
    snapshots,
    beacon: input.beacon ? { url: input.beacon.url, ask: input.beacon.ask } : null,
  });
  // `</script` cannot occur in the bundle's script (a build would have to write it); escaped anyway.
  const js = input.player.js.replace(/<\/(script)/gi, '<\\/$1');
  const css = input.player.css.replace(/<\/(style)/gi, '<\\/$1');
  const scriptHash = createHash('sha256').update(js, 'utf8').digest('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    // The player's styles, and the snapshots' own (their frames inherit this policy through srcdoc).
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    'media-src data:',
    `connect-src ${input.beacon ? input.beacon.origin : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="robots" content="noindex">
<meta name="generator" content="Demoshare offline bundle v${OFFLINE_FORMAT_VERSION}">
<title>${escapeHtml(input.title)}</title>
<style>${css}</style>
</head><body><div id="player"></div>
<script id="demoshare-offline" type="application/json">${data}</script>
<script>${js}</script>
</body></html>
`;
  return { html, facts: { images: Object.keys(assets).length, snapshots: Object.keys(snapshots).length, droppedReferences, inlinedPictures } };
}
