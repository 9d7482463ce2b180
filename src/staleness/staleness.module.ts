// The stale-demo check as the app sees it: one module object, one line in app.ts.
import { members } from '../accounts/accounts.tables';
import type { DemoReader } from '../demos/demos.reader';
import { demos } from '../demos/demos.tables';
import { createChromiumCapturer } from '../generation/capture-chromium';
import type { Capturer } from '../generation/generator';
import { defineModule } from '../module';
import type { RecaptureDeps } from './recapture';
import { registerStalenessJobs } from './staleness.jobs';
import { stalenessRoutes } from './staleness.routes';
import { createStalenessService, type StalenessService } from './staleness.service';

declare module '../module' {
  interface Services {
    staleness: { staleness: StalenessService; recapture: RecaptureDeps; reader: Pick<DemoReader, 'draft' | 'asset'> };
  }
}

/**
 * Stale-demo checks: a demo's pages captured again and each step compared with what it was made from, the
 * results per check, replacing a step with the new capture, a schedule per demo with `demo.stale` and an
 * e-mail to the owner. docs/stale-check.md.
 *
 * @example
 * // app.ts: after demos, whose reader and imports it uses.
 * const MODULES = [..., demosModule, ..., stalenessModule, ...];
 */
export const stalenessModule = defineModule({
  name: 'staleness',
  owns: { tables: 'staleness.tables.ts', ids: ['demoCheck'], events: ['demo.stale'] },
  reads: { tables: [demos, members] },
  needs: ['demos'],
  create(kernel, deps) {
    // Its own browser, started on the first check that needs one (generation's capturer, another instance).
    const browser: Capturer | null = kernel.config.CHROMIUM_PATH
      ? createChromiumCapturer({ net: kernel.net, documents: kernel.documents, chromiumPath: kernel.config.CHROMIUM_PATH, log: kernel.log })
      : null;
    return {
      staleness: createStalenessService({
        database: kernel.database,
        clock: kernel.clock,
        queue: kernel.queue,
        demos: deps.demos.reader,
        imports: deps.demos.imports,
      }),
      recapture: { net: kernel.net, documents: kernel.documents, browser },
      reader: deps.demos.reader,
    };
  },
  routes: stalenessRoutes,
  jobs: (ctx) => registerStalenessJobs({ ...ctx, reader: ctx.services.reader, recapture: ctx.services.recapture }),
  close: async (services) => {
    await services.recapture.browser?.close();
  },
});
