// The offline bundle of a demo's published version: gathered here, built in a document worker, kept a little while.
import { z } from 'zod';
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { sha256Hex } from '../core/crypto';
import { AppError, notFound } from '../core/errors';
import type { DocumentPool } from '../document-tasks';
import type { DemoReader } from '../demos/demos.reader';
import { buildPayload } from '../viewing/viewer.payload';
import { viewerDemoSchema } from '../viewing/viewer.schemas';
import type { WorkspacesReader } from '../workspaces/workspaces.reader';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { brandOf } from '../workspaces/branding';
import type { OfflineAsset, OfflineSnapshotInput } from './offline-bundle';
import type { PlayerFiles } from './player-files';
import type { SafeFetch } from '../core/net/safe-fetch';
import { sniffImage } from '../core/image-sniff';

const GIF = Buffer.from('GIF8');

/** A picture's type from its bytes (PNG, JPEG, WebP, GIF) or, for SVG, from its header and its first tag. */
function pictureType(body: Buffer, header: string | undefined): string | null {
  const sniffed = sniffImage(body);
  if (sniffed) return sniffed.contentType;
  if (body.subarray(0, 4).equals(GIF)) return 'image/gif';
  if (header?.split(';')[0]?.trim() === 'image/svg+xml' && /<svg[\s>]/i.test(body.subarray(0, 2048).toString('utf8'))) return 'image/svg+xml';
  return null;
}

/** A bundle past this many bytes is refused (413): a file that size is no longer something to e-mail or host as one page. */
export const OFFLINE_MAX_BYTES = 100 * 1024 * 1024;
/**
 * The captured sites' pictures an export fetches for its snapshots (through the SSRF-safe client): at most
 * this many, each at most PICTURE_MAX_BYTES, all together at most PICTURES_MAX_BYTES, none started after
 * PICTURES_TIME_MS. What is not fetched is left out, as offline-snapshot.ts says.
 */
export const PICTURES_MAX = 80;
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURES_MAX_BYTES = 20 * 1024 * 1024;
const PICTURES_TIME_MS = 20_000;
const PICTURE_TIMEOUT_MS = 8_000;
const PICTURE_CONCURRENCY = 4;

/** Built bundles kept for a repeated request (the editor's HEAD, then its download), in bytes at most. */
const CACHE_MAX_BYTES = 64 * 1024 * 1024;
const CACHE_TTL_MS = 5 * 60_000;

export interface OfflineOptions {
  /**
   * The share link whose events endpoint the optional beacon posts to (its token goes into the file); `ask`: only
   * once the person viewing the file allowed it.
   */
  beacon: { token: string; ask: boolean } | null;
}

export interface BuiltOffline {
  bytes: Buffer;
  version: number;
  filename: string;
  images: number;
  snapshots: number;
  droppedReferences: number;
  inlinedPictures: number;
}

export interface OfflineDeps {
  demos: Pick<DemoReader, 'find' | 'published' | 'asset'>;
  workspaces: Pick<WorkspacesReader, 'find'>;
  logos: Pick<WorkspacesService, 'logo'>;
  documents: Pick<DocumentPool, 'run'>;
  /** The SSRF-safe client (kernel.net): the captured sites' pictures. */
  net: Pick<SafeFetch, 'fetch'>;
  player: PlayerFiles;
  clock: Pick<Clock, 'now'>;
  /** The instance's API origin, for the beacon's address. */
  apiOrigin: string;
}

/** A file name from the demo's title: ASCII letters, digits and dashes. */
export function bundleFilename(title: string, version: number): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || 'demo'}-v${version}-offline.html`;
}

/**
 * Offline bundles (docs/offline.md): one HTML file that plays a demo's published version with no server.
 * The rows are read here; the file (base64 of every picture, snapshots parsed and cleaned, the document put
 * together) is made in a document worker, never on the event loop. The last few bundles are kept by what
 * they are made of (version, brand, player build, beacon), so the editor's HEAD for the size and the
 * download after it build once.
 *
 * @example
 * const offline = createOfflineService({ demos: reader, workspaces, logos, documents, player, clock, apiOrigin });
 * const built = await offline.build(auth, 'demo_01j...', { beacon: null }); // 409 conflict when never published
 */
export function createOfflineService(deps: OfflineDeps) {
  const cache = new Map<string, { built: Promise<BuiltOffline>; at: number; size: number }>();

  function remember(key: string, built: Promise<BuiltOffline>) {
    const entry = { built, at: deps.clock.now().getTime(), size: 0 };
    cache.set(key, entry);
    built.then(
      (b) => {
        entry.size = b.bytes.length;
        let total = 0;
        for (const [k, e] of [...cache.entries()].reverse()) {
          total += e.size;
          if (total > CACHE_MAX_BYTES && k !== key) cache.delete(k);
        }
      },
      () => cache.delete(key),
    );
  }

  async function build(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, options: OfflineOptions): Promise<BuiltOffline> {
    const found = await deps.demos.find(auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    const published = await deps.demos.published(auth.workspaceId, demoId);
    if (!published) {
      throw new AppError('conflict', 'This demo has never been published: publish it, then export its offline file', {
        details: [{ field: 'status', message: `is ${found.demo.status}; an offline file plays the published version` }],
      });
    }
    const workspace = await deps.workspaces.find(auth.workspaceId);
    if (!workspace) throw notFound('Demo');
    const brand = brandOf(workspace, '');
    const player = await deps.player.read();
    const key = [demoId, published.version, sha256Hex(JSON.stringify(brand)), player.digest, options.beacon?.token ?? '', options.beacon?.ask ? 'ask' : ''].join(':');
    const now = deps.clock.now().getTime();
    for (const [k, e] of cache) if (now - e.at > CACHE_TTL_MS) cache.delete(k);
    const hit = cache.get(key);
    if (hit) return hit.built;
    const built = make(workspace, published, brand, player, options);
    remember(key, built);
    return built;
  }

  async function make(
    workspace: NonNullable<Awaited<ReturnType<WorkspacesReader['find']>>>,
    published: NonNullable<Awaited<ReturnType<DemoReader['published']>>>,
    brand: ReturnType<typeof brandOf>,
    player: Awaited<ReturnType<PlayerFiles['read']>>,
    options: OfflineOptions,
  ): Promise<BuiltOffline> {
    const demoId = published.demo.id;
    // Keys in the file stand for the assets: asset ids say nothing outside the instance, and are not shown.
    const keys = new Map<string, string>();
    const keyOf = (assetId: string, kind: 'a' | 's') => {
      const k = `${kind}:${assetId}`;
      let found = keys.get(k);
      if (!found) {
        found = `offline:${kind === 'a' ? 'asset' : 'snapshot'}/${keys.size + 1}`;
        keys.set(k, found);
      }
      return found;
    };
    const built = buildPayload(published, (assetId) => assetId, brand);
    const images: Record<string, OfflineAsset> = {};
    const snapshots: Record<string, OfflineSnapshotInput> = {};
    let total = 0;
    const load = async (assetId: string) => {
      const row = await deps.demos.asset(demoId, assetId);
      if (!row) return undefined;
      total += row.bytes.length;
      if (total > OFFLINE_MAX_BYTES / 1.4) {
        throw new AppError('payload_too_large', `This demo's pictures and snapshots make an offline file past ${OFFLINE_MAX_BYTES / 1024 / 1024} MB`, {
          details: [{ field: 'steps', message: 'too many or too large pictures for one file' }],
        });
      }
      return row;
    };
    for (const assetId of built.assetIds) {
      const row = await load(assetId);
      if (row?.contentType.startsWith('image/')) images[keyOf(assetId, 'a')] = { contentType: row.contentType, bytes: row.bytes };
    }
    for (const step of published.steps) {
      if (!step.htmlAssetId || step.imageAssetId) continue;
      const row = await load(step.htmlAssetId);
      if (!row) continue;
      const patchImages: Record<string, string> = {};
      for (const p of step.patches) if (p.op === 'image' && p.value) patchImages[p.value] = keyOf(p.value, 'a');
      snapshots[keyOf(`${step.htmlAssetId}:${step.id}`, 's')] = { html: row.bytes.toString('utf8'), patches: step.patches, patchImages };
    }
    const pictures = await fetchPictures(Object.values(snapshots).map((s) => s.html));
    // The payload as a player gets it, with keys of the file where the API has addresses.
    const data = z.encode(viewerDemoSchema, built.data) as Record<string, unknown> & {
      steps: Array<{ image_url: string | null; html_url: string | null; number: number }>;
      brand: { logo_url: string | null };
    };
    for (const [i, step] of data.steps.entries()) {
      const row = published.steps[i];
      step.image_url = row?.imageAssetId && images[keyOf(row.imageAssetId, 'a')] ? keyOf(row.imageAssetId, 'a') : null;
      step.html_url = row?.htmlAssetId && !row.imageAssetId ? keyOf(`${row.htmlAssetId}:${row.id}`, 's') : null;
    }
    if (workspace.logoSha256) {
      const logo = await deps.logos.logo(workspace.id, workspace.logoSha256.slice(0, 16)).catch(() => undefined);
      if (logo) images['offline:logo'] = { contentType: logo.contentType, bytes: logo.bytes };
      data.brand.logo_url = logo ? 'offline:logo' : null;
    }
    const beacon = options.beacon
      ? { url: `${deps.apiOrigin}/v1/viewer/${encodeURIComponent(options.beacon.token)}/offline-events`, origin: deps.apiOrigin, ask: options.beacon.ask }
      : null;
    const title = `${published.demo.title} · ${workspace.name}`;
    const bundle = await deps.documents.run(
      'buildOfflineBundle',
      [{ title, demo: data, images, snapshots, pictures, player: { js: player.js, css: player.css }, beacon, exportedAt: deps.clock.now().toISOString() }],
      { what: 'The offline bundle', field: 'id' },
    );
    const bytes = Buffer.from(bundle.html, 'utf8');
    if (bytes.length > OFFLINE_MAX_BYTES) {
      throw new AppError('payload_too_large', `The offline file would be ${(bytes.length / 1024 / 1024).toFixed(1)} MB, past ${OFFLINE_MAX_BYTES / 1024 / 1024} MB`);
    }
    return {
      bytes,
      version: published.version,
      filename: bundleFilename(published.demo.title, published.version),
      images: bundle.facts.images,
      snapshots: bundle.facts.snapshots,
      droppedReferences: bundle.facts.droppedReferences,
      inlinedPictures: bundle.facts.inlinedPictures,
    };
  }

  /**
   * The pictures the snapshots show from their sites, fetched (SSRF-safe, bounded) so that the file shows
   * them too. Best effort: an address that fails, is too large or is not a picture is left out.
   */
  async function fetchPictures(htmls: string[]): Promise<Record<string, OfflineAsset>> {
    if (htmls.length === 0) return {};
    const urls = await deps.documents.run('pictureReferences', [htmls, PICTURES_MAX], { what: 'The snapshots', field: 'id' });
    const out: Record<string, OfflineAsset> = {};
    const until = Date.now() + PICTURES_TIME_MS;
    let total = 0;
    const queue = [...urls];
    const worker = async () => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        if (Date.now() > until || total >= PICTURES_MAX_BYTES) return;
        try {
          const res = await deps.net.fetch(url, { timeoutMs: PICTURE_TIMEOUT_MS, maxBytes: PICTURE_MAX_BYTES, maxRedirects: 3 });
          const type = res.status === 200 && !res.truncated ? pictureType(res.body, res.headers['content-type']) : null;
          if (!type || total + res.body.length > PICTURES_MAX_BYTES) continue;
          total += res.body.length;
          out[url] = { contentType: type, bytes: res.body };
        } catch {
          // Unreachable, refused by the address policy, too slow: left out.
        }
      }
    };
    await Promise.all(Array.from({ length: PICTURE_CONCURRENCY }, worker));
    return out;
  }

  return { build };
}

export type OfflineService = ReturnType<typeof createOfflineService>;
