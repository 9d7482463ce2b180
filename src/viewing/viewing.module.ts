// The viewing domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import type { LinkViewers } from '../shares/link-viewers';
import { createLinkViewers } from './link-viewers';
import type { LinkArms } from './link-arms';
import { ViewerCache } from './viewer-cache';
import { createPublicAssets } from './public-assets';
import { createViewerContent, type ViewerContent } from './viewer-content.service';
import { registerViewerJobs } from './viewer.jobs';
import { viewerPages } from './viewer.pages';
import { viewerRoutes } from './viewer.routes';
import { viewerConsentRoutes } from './viewer-consent.routes';
import { createViewerGates, type ViewerGates, type ViewerGatesDeps } from './viewer-gates';
import { createIngestion, type Ingestion } from './ingestion';
import { viewsRoutes } from './views.routes';
import { createViewsService, type ViewsService } from './views.service';
import { members, sessions } from '../accounts/accounts.tables';
import { demos, demoVersions } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { workspaces } from '../workspaces/workspaces.tables';

declare module '../module' {
  interface Services {
    viewing: {
      /** What a viewer does on a link: the gates, the payload and assets, event intake. */
      viewer: ViewerGates & ViewerContent;
      cache: ViewerCache;
      /** The views list and a view's journey, for the workspace. */
      views: ViewsService;
      /** Viewer events (their intake: `record`) into views, step rows, roll-ups, link counters and outbox events. */
      ingestion: Ingestion;
      /** Shares' port on a link's viewer sessions and access log. */
      linkViewers: LinkViewers;
    };
  }
}

/**
 * Everything about viewing a shared demo: the link gates, viewer sessions and the access log, the payload
 * and assets, event intake and ingestion, the views and their clean-up. `shares/` keeps the links.
 *
 * @example
 * // app.ts: one line in the module list, after the modules it reads while creating (demos, notifications).
 * const MODULES = [healthModule, ..., notificationsModule, viewingModule, ...];
 * // Another module names it in `needs` and gets its services:
 * const { rows } = await deps.viewing.views.list(auth, demoId, {}, { limit: 20, offset: 0, after: null });
 */
export const viewingModule = defineModule({
  name: 'viewing',
  owns: {
    tables: 'viewing.tables.ts',
    ids: ['view'],
    events: ['demo.viewed', 'demo.completed', 'viewer.identified'],
    permissions: ['analytics.read'],
  },
  reads: { tables: [members, sessions, demos, demoVersions, shares, workspaces] },
  // experiments is built after viewing: its port (which arm a viewer is served) is read when a viewer calls.
  needs: ['demos', 'shares', 'notifications', 'translations', 'experiments'],
  create(kernel, deps) {
    const { config } = kernel;
    const cache = new ViewerCache(kernel.changes);
    const arms: LinkArms = { serve: async (...args) => deps.experiments?.linkArms.serve(...args) };
    const ingestion = createIngestion({ ...kernel, cache, arms, countLinkViews: deps.shares.linkViewCounter });
    const gateDeps: ViewerGatesDeps = {
      ...kernel,
      cache,
      arms,
      passwordAttempts: config.SHARE_PASSWORD_ATTEMPTS,
      passwordWindowSeconds: Math.ceil(config.SHARE_PASSWORD_WINDOW / 1000),
      sessionTtlMs: config.VIEWER_SESSION_TTL,
      onIdentified: (tx, job) => deps.notifications.notifications.viewerIdentified(tx, job),
    };
    const gates = createViewerGates(gateDeps);
    const content = createViewerContent({
      gates: gateDeps,
      cache,
      demos: deps.demos.reader,
      snapshots: deps.demos.pagePatches.snapshots,
      assetOrigin: config.API_URL ?? '',
      publicAssets: createPublicAssets({
        store: kernel.assetStore,
        redirect: config.ASSET_REDIRECT,
        presignTtlMs: config.ASSET_PRESIGN_TTL,
        publicUrl: config.ASSET_PUBLIC_URL,
        now: () => kernel.clock.now(),
      }),
      translations: deps.translations.forViewers,
      reads: kernel.reads,
    });
    return {
      viewer: {
        ...gates,
        ...content,
        access: (...[token, sessionToken, form, visitor]: Parameters<typeof gates.access>) =>
          gates.access(token, sessionToken, form, visitor, async (link) => (await content.preview(link)).gateForm !== undefined),
      },
      cache,
      views: createViewsService(kernel),
      ingestion,
      linkViewers: createLinkViewers(kernel.database),
    };
  },
  routes(app, ctx) {
    viewsRoutes(app, ctx);
    viewerRoutes(app, ctx);
    viewerConsentRoutes(app, ctx);
  },
  pages: viewerPages,
  jobs: registerViewerJobs,
  // Events are acknowledged only after their commit; on shutdown, let the batches in flight finish.
  async close({ ingestion }) {
    for (let i = 0; i < 1000 && ingestion.pending > 0; i++) await new Promise((r) => setTimeout(r, 10));
  },
});
