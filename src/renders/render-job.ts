// The render job's body: claim the row, build the player's payload of the version asked for, film it, store the file, or say why not.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../core/errors';
import { buildPayload } from '../viewing/viewer.payload';
import { viewerDemoSchema } from '../viewing/viewer.schemas';
import { brandOf } from '../workspaces/branding';
import { renderDemo } from './render-demo';
import { RENDER_ORIGIN, type RenderSource, renderAssetUrl } from './render-page';
import type { RendersContext } from './renders-context';
import * as repo from './renders.repo';
import { RenderCancelled } from './running-renders';

/** How often a running render writes its progress (and so learns that it was cancelled in another process). */
const PROGRESS_EVERY_MS = 1000;

/**
 * Makes render `renderId`: nothing when it was cancelled before it started. The file is written to a
 * temporary directory (an MP4's index moves to the front once whole), then stored in the row. A cancel
 * leaves the row `cancelled`; the worker stopping rethrows, so that the job is retried; anything else
 * marks it `failed` with a sentence.
 */
export async function runRender(ctx: RendersContext, renderId: string): Promise<void> {
  const row = await repo.claimRender(ctx.db, renderId, ctx.clock.now());
  if (!row) return;
  const controller = ctx.running.start(renderId);
  const dir = await mkdtemp(join(tmpdir(), 'demoshare-render-'));
  let progress = 0;
  let cancelledElsewhere = false;
  const ticker = setInterval(() => {
    void repo.writeProgress(ctx.db, renderId, progress).then(
      (running) => {
        if (!running) {
          cancelledElsewhere = true;
          controller.abort(new RenderCancelled('cancelled'));
        }
      },
      () => {},
    );
  }, PROGRESS_EVERY_MS);
  const timer = setTimeout(() => controller.abort(new Error(`it took longer than RENDER_TIMEOUT (${Math.round(ctx.timeoutMs / 1000)} s)`)), ctx.timeoutMs);
  try {
    const found = await ctx.ffmpeg();
    if (found.missing) throw new Error(found.missing);
    if (!ctx.chromiumPath) throw new Error('no Chromium on this worker (CHROMIUM_PATH)');
    const source = await sourceOf(ctx, row.workspaceId, row.demoId, row.version);
    const accent = (source.payload as { configuration?: { theme_color?: string } }).configuration?.theme_color ?? '#4f46e5';
    const output = join(dir, `render.${row.format}`);
    const made = await renderDemo({
      chromiumPath: ctx.chromiumPath,
      ffmpegPath: found.path,
      format: row.format,
      width: row.width,
      height: row.height,
      paceMs: row.paceMs,
      fps: row.fps,
      accent: /^#[0-9a-f]{3,8}$/i.test(accent) ? accent : '#4f46e5',
      source,
      output,
      signal: controller.signal,
      onProgress: (done, total) => {
        progress = Math.min(0.99, done / Math.max(1, total));
      },
    });
    const bytes = await readFile(output);
    await repo.succeedRender(ctx.db, renderId, { output: bytes, durationMs: made.durationMs, now: ctx.clock.now() });
  } catch (error) {
    if (error instanceof RenderCancelled) {
      if (error.message !== 'cancelled') throw error;
      return;
    }
    if (cancelledElsewhere) return;
    const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
    ctx.log.warn(`render ${renderId} failed: ${message}`);
    await repo.failRender(ctx.db, renderId, message, ctx.clock.now());
  } finally {
    clearInterval(ticker);
    clearTimeout(timer);
    ctx.running.done(renderId);
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** The player's payload of the version rendered, its assets under the render page's origin, and the assets. */
async function sourceOf(ctx: RendersContext, workspaceId: string, demoId: string, version: number): Promise<RenderSource> {
  const [demo, workspace] = await Promise.all([ctx.demos.published(workspaceId, demoId), ctx.workspaces.find(workspaceId)]);
  if (!demo || !workspace) throw new Error('the demo is no longer published');
  if (demo.version !== version) throw new Error(`version ${version} is no longer the published one (now ${demo.version}): ask for a new render`);
  // The logo is left out: the render page answers only the demo's own assets.
  const brand = { ...brandOf(workspace, RENDER_ORIGIN), logo_url: null };
  const built = buildPayload(demo, renderAssetUrl, brand);
  // Autoplay off: the render moves the player itself, one step per pace; a form may be passed by (→) as a viewer could skip it.
  const data = {
    ...built.data,
    configuration: { ...built.data.configuration, autoplay: { ...(built.data.configuration as { autoplay?: object }).autoplay, enabled: false } },
    steps: built.data.steps.map((step) => ('form' in step && step.form ? { ...step, form: { ...step.form, skippable: true } } : step)),
  };
  const payload = z.encode(viewerDemoSchema, data as typeof built.data) as RenderSource['payload'];
  return {
    payload,
    async asset(assetId, patches) {
      if (!built.assetIds.has(assetId)) return undefined;
      const row = await ctx.demos.asset(demoId, assetId);
      if (!row) return undefined;
      const set = patches ? built.patchSets.get(`${assetId}:${patches}`) : undefined;
      if (!set || !row.contentType.startsWith('text/html')) return { contentType: row.contentType, bytes: row.bytes };
      const served = await ctx.snapshots.serve(row, set, renderAssetUrl);
      return { contentType: row.contentType, bytes: served.bytes };
    },
  };
}
