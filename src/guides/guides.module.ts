// The guides domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import { createGuidePrintPool, type GuidePrinter } from './guide-print-pool';
import { guidesRoutes } from './guides.routes';
import { createGuidesService, type GuidesService } from './guides.service';

declare module '../module' {
  interface Services {
    guides: { guides: GuidesService; printer: GuidePrinter };
  }
}

/** PDFs printed at once per process, and waiting beyond them (more: 503 with Retry-After). */
const PDF_CONCURRENCY = 2;
const PDF_QUEUE = 8;
const PDF_TIMEOUT_MS = 90_000;

/**
 * Written guides: a demo's steps as Markdown with marked screenshots (a zip) or as a PDF printed by
 * headless Chromium, from the draft or the published version. docs/guides.md.
 *
 * @example
 * // app.ts: after demos, whose services it reads.
 * const MODULES = [..., demosModule, guidesModule, ...];
 */
export const guidesModule = defineModule({
  name: 'guides',
  needs: ['demos'],
  create(kernel, deps) {
    const printer = createGuidePrintPool({
      chromiumPath: kernel.config.CHROMIUM_PATH,
      concurrency: PDF_CONCURRENCY,
      maxQueue: PDF_QUEUE,
      timeoutMs: PDF_TIMEOUT_MS,
    });
    return {
      guides: createGuidesService({ demos: deps.demos.demos, reader: deps.demos.reader, printer, clock: kernel.clock }),
      printer,
    };
  },
  routes: guidesRoutes,
  close: (services) => services.printer.close(),
});
