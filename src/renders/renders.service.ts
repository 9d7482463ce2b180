// The renders domain's rules: who may ask for a render and with what, the list, cancel and delete, the file.
import type { AuthContext } from '../auth/permissions';
import { AppError } from '../core/errors';
import { newId } from '../core/ids';
import type { RendersContext } from './renders-context';
import * as repo from './renders.repo';
import { FPS } from './render-timeline';
import { LIMITS, PACES, type RenderBody } from './renders.schemas';

/** The queue of render jobs (renders.jobs.ts works it). */
export const RENDER_QUEUE = 'renders.render';

/**
 * Renders of published demos to MP4 and GIF: asked for here (a row and its job in one transaction), made
 * by the job (render-job.ts), cancelled or deleted here.
 *
 * @example
 * const renders = createRendersService(ctx);
 * const render = await renders.request(auth, demoId, { format: 'mp4', width: 1280, height: 720, pace: 'normal' });
 * await renders.cancelOrDelete(auth, demoId, render.id); // cancels it while queued or running
 */
export function createRendersService(ctx: RendersContext) {
  async function requireDemo(auth: AuthContext, demoId: string) {
    if (!(await ctx.demos.find(auth.workspaceId, demoId))) throw new AppError('not_found', 'Demo not found');
  }

  /** 503 when this server cannot render: no ffmpeg (ffmpeg_missing) or no Chromium. */
  async function requireTools() {
    const found = await ctx.ffmpeg();
    if (found.missing) throw new AppError('ffmpeg_missing', `This server cannot make videos: ${found.missing}.`);
    if (!ctx.chromiumPath) {
      throw new AppError('unavailable', 'This server cannot make videos: it has no Chromium (CHROMIUM_PATH). Ask whoever runs Demoshare to install it.');
    }
  }

  return {
    async request(auth: AuthContext, demoId: string, body: RenderBody) {
      await requireDemo(auth, demoId);
      const published = await ctx.demos.published(auth.workspaceId, demoId);
      if (!published) throw new AppError('conflict', 'This demo is not published: a video plays the published version. Publish it first.');
      const paceMs = typeof body.pace === 'number' ? body.pace : PACES[body.pace];
      const stepCount = published.steps.length;
      const details: { field: string; message: string }[] = [];
      if (body.format === 'gif' && body.width > LIMITS.gifMax.width) details.push({ field: 'width', message: `a GIF is at most ${LIMITS.gifMax.width} wide` });
      if (body.format === 'gif' && body.height > LIMITS.gifMax.height) details.push({ field: 'height', message: `a GIF is at most ${LIMITS.gifMax.height} high` });
      if (stepCount * paceMs > LIMITS.maxDurationMs) {
        details.push({ field: 'pace', message: `${stepCount} steps × ${paceMs} ms is longer than ${LIMITS.maxDurationMs / 60000} minutes: choose a faster pace` });
      }
      if (details.length) throw new AppError('invalid_request', details.map((d) => `${d.field}: ${d.message}`).join('; '), { details });
      if (stepCount === 0) throw new AppError('conflict', 'The published version has no steps');
      await requireTools();
      const now = ctx.clock.now();
      const row = await ctx.db.transaction(async (tx) => {
        if ((await repo.countActive(tx, auth.workspaceId)) >= LIMITS.activePerWorkspace) {
          throw new AppError('rate_limited', `${LIMITS.activePerWorkspace} renders are already queued or running in this workspace: wait for one to finish.`, {
            headers: { 'retry-after': '30' },
          });
        }
        const inserted = await repo.insertRender(tx, {
          id: newId('render', now.getTime()),
          workspaceId: auth.workspaceId,
          demoId,
          version: published.version,
          format: body.format,
          width: body.width,
          height: body.height,
          paceMs,
          fps: FPS[body.format],
          stepCount,
          createdBy: auth.memberId,
          createdAt: now,
        });
        await ctx.queue.send(RENDER_QUEUE, { renderId: inserted.id }, {}, tx);
        await repo.pruneFinished(tx, demoId, LIMITS.keepPerDemo);
        return inserted;
      });
      return row;
    },

    async list(auth: AuthContext, demoId: string, range: { limit: number; offset: number }) {
      await requireDemo(auth, demoId);
      return repo.listRenders(ctx.db, auth.workspaceId, demoId, range);
    },

    async get(auth: AuthContext, demoId: string, renderId: string) {
      const row = await repo.findRender(ctx.db, auth.workspaceId, demoId, renderId);
      if (!row) throw new AppError('not_found', 'Render not found');
      return row;
    },

    /**
     * A queued or running render is cancelled (its Chromium and ffmpeg killed: at once in this process,
     * within a second in another worker) and stays listed as `cancelled`; a finished one is deleted with its file.
     */
    async cancelOrDelete(auth: AuthContext, demoId: string, renderId: string) {
      const now = ctx.clock.now();
      if (await repo.cancelRender(ctx.db, auth.workspaceId, demoId, renderId, now)) {
        ctx.running.abort(renderId);
        return 'cancelled' as const;
      }
      if (await repo.deleteFinished(ctx.db, auth.workspaceId, demoId, renderId)) return 'deleted' as const;
      throw new AppError('not_found', 'Render not found');
    },

    /** The finished file; 409 while it is being made, or when it failed or was cancelled. */
    async file(auth: AuthContext, demoId: string, renderId: string) {
      const row = await repo.readOutput(ctx.db, auth.workspaceId, demoId, renderId);
      if (!row) throw new AppError('not_found', 'Render not found');
      if (row.status !== 'succeeded' || !row.output) throw new AppError('conflict', `This render has no file: it is ${row.status}.`);
      return { bytes: row.output, format: row.format, createdAt: row.createdAt };
    },
  };
}

export type RendersService = ReturnType<typeof createRendersService>;
