// The renders domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import { probeFfmpeg } from './ffmpeg';
import { runRender } from './render-job';
import type { RendersContext } from './renders-context';
import { registerRendersJobs } from './renders.jobs';
import { rendersRoutes } from './renders.routes';
import { createRendersService, type RendersService } from './renders.service';
import { RunningRenders } from './running-renders';

declare module '../module' {
  interface Services {
    renders: { renders: RendersService & { run(renderId: string): Promise<void>; context: RendersContext } };
  }
}

/**
 * Videos (MP4, H.264) and GIFs of published demos: asked for through the API, made by a background job that
 * plays the real player in headless Chromium with a moving cursor, a highlight and the step text as
 * captions, and encodes with the system's ffmpeg; progress, cancel, download. docs/video.md.
 *
 * @example
 * // app.ts: after demos and workspaces, whose readers it uses.
 * const MODULES = [..., demosModule, ..., rendersModule, ...];
 */
export const rendersModule = defineModule({
  name: 'renders',
  owns: { tables: 'renders.tables.ts', ids: ['render'] },
  needs: ['demos', 'workspaces'],
  create(kernel, deps) {
    let probe: Promise<Awaited<ReturnType<typeof probeFfmpeg>>> | null = null;
    const context: RendersContext = {
      db: kernel.database.db,
      clock: kernel.clock,
      queue: kernel.queue,
      log: kernel.log,
      demos: deps.demos.reader,
      snapshots: deps.demos.pagePatches.snapshots,
      workspaces: deps.workspaces.reader,
      ffmpeg: () => {
        probe ??= probeFfmpeg(kernel.config.FFMPEG_PATH);
        return probe;
      },
      chromiumPath: kernel.config.CHROMIUM_PATH ?? null,
      timeoutMs: kernel.config.RENDER_TIMEOUT,
      running: new RunningRenders(),
    };
    return { renders: { ...createRendersService(context), run: (renderId: string) => runRender(context, renderId), context } };
  },
  routes: rendersRoutes,
  jobs: registerRendersJobs,
  async close(services) {
    services.renders.context.running.abortAll();
  },
});
