// The demo-format domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import { demoFormatPages, demoFormatRoutes } from './demo-format.routes';
import { createDemoFormat, type DemoFormatService } from './demo-format.service';
import type { DemosService } from '../demos/demos.service';

declare module '../module' {
  interface Services {
    demoFormat: {
      /** Demo files: export, import, push by key (docs/demo-format.md). */
      demoFiles: DemoFormatService;
      /** The demos' own answers, for the demo an import makes. */
      demos: Pick<DemosService, 'get'>;
    };
  }
}

/**
 * Demo files: the open, versioned format of a demo (demo.json and its assets by SHA-256, a published JSON Schema),
 * exported and imported as zips and pushed by a stable key, so that a folder in a repository can be a demo's source.
 * It reads and writes demos through the demos' `documents` port. docs/demo-format.md.
 *
 * @example
 * // app.ts: after demos, whose services it uses.
 * const MODULES = [..., demosModule, ..., demoFormatModule, ...];
 */
export const demoFormatModule = defineModule({
  name: 'demoFormat',
  needs: ['demos'],
  create(kernel, deps) {
    const { config } = kernel;
    return {
      demoFiles: createDemoFormat({
        documents: deps.demos.documents,
        pool: kernel.documents,
        appUrl: config.APP_URL,
        limits: {
          expandedBytes: config.DEMO_ARCHIVE_MAX_EXPANDED_BYTES,
          documentBytes: 16 * 1024 * 1024,
          entries: 5000,
          imageBytes: config.STEP_IMAGE_MAX_BYTES,
          snapshotBytes: config.RECORDING_SNAPSHOT_MAX_BYTES,
        },
      }),
      demos: deps.demos.demos,
    };
  },
  routes: demoFormatRoutes,
  pages: demoFormatPages,
});
