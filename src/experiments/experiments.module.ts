// The experiments domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import type { LinkArms } from '../viewing/link-arms';
import { demos, demoVersions } from '../demos/demos.tables';
import { views } from '../viewing/viewing.tables';
import { experimentHistoryRoutes } from './experiment-history.routes';
import { createLinkArms } from './experiment-serving';
import { experimentsRoutes } from './experiments.routes';
import { createExperimentsService, type ExperimentsService } from './experiments.service';

declare module '../module' {
  interface Services {
    experiments: {
      experiments: ExperimentsService;
      /** Viewing's port: which arm of a link's A/B test a viewer is served. */
      linkArms: LinkArms & { close(): void };
    };
  }
}

/**
 * A/B tests on share links (and so on hub entries, which are links): arms served by weight, each viewer
 * sticky to the arm first shown, figures per arm with a named significance test, stop and keep the winner.
 *
 * @example
 * // Viewing reads the port when a viewer calls:
 * const arm = await deps.experiments.linkArms.serve(shareId, session.armId, session.anonymousId);
 */
export const experimentsModule = defineModule({
  name: 'experiments',
  owns: {
    tables: 'experiments.tables.ts',
    ids: ['experiment', 'experimentArm'],
  },
  reads: { tables: [demos, demoVersions, views] },
  needs: ['shares', 'demos'],
  create: (kernel, deps) => ({
    experiments: createExperimentsService({
      ...kernel,
      get shares() {
        return deps.shares.shares;
      },
      demos: deps.demos.reader,
    }),
    linkArms: createLinkArms(kernel),
  }),
  routes: (app, ctx) => {
    experimentsRoutes(app, ctx);
    experimentHistoryRoutes(app, ctx);
  },
  async close({ linkArms }) {
    linkArms.close();
  },
});
