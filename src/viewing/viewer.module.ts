import { defineModule } from '../module';
import { ViewerCache } from './viewer-cache';
import { createViewerContent, type ViewerContent } from './viewer-content.service';
import { registerViewerJobs } from './viewer.jobs';
import { viewerPages } from './viewer.pages';
import { viewerRoutes } from './viewer.routes';
import { createViewerGates, type ViewerGates } from './viewer.service';

declare module '../module' {
  interface Services {
    viewer: { viewer: ViewerGates & ViewerContent; cache: ViewerCache };
  }
}

/** Everything a viewer touches: the gates, viewer sessions, the payload and assets, event intake, pages. */
export const viewerModule = defineModule({
  name: 'viewer',
  owns: { events: ['viewer.identified'] },
  needs: ['demos', 'views', 'notifications'],
  create(kernel, { demos, views, notifications }) {
    const { config } = kernel;
    const cache = new ViewerCache(kernel.changes);
    const gates = createViewerGates({
      ...kernel,
      cache,
      demos: demos.reader,
      passwordAttempts: config.SHARE_PASSWORD_ATTEMPTS,
      passwordWindowSeconds: Math.ceil(config.SHARE_PASSWORD_WINDOW / 1000),
      sessionTtlMs: config.VIEWER_SESSION_TTL,
      onIdentified: (tx, job) => notifications.notifications.viewerIdentified(tx, job),
    });
    const content = createViewerContent({
      gates,
      cache,
      demos: demos.reader,
      record: views.ingestion.ingest,
      assetOrigin: config.API_URL ?? '',
    });
    return { viewer: { ...gates, ...content }, cache };
  },
  routes: viewerRoutes,
  pages: viewerPages,
  jobs: registerViewerJobs,
});
