// The hubs domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { views } from '../viewing/viewing.tables';
import { createHubAnalytics, type HubAnalytics } from './hub-analytics.service';
import { createHubContent, type HubContent } from './hub-content.service';
import { hubContentRoutes } from './hub-content.routes';
import { createHubViewer, type HubViewer } from './hub-viewer.service';
import { hubViewerRoutes } from './hub-viewer.routes';
import { createHubVisitors, type HubVisitors } from './hub-visitors.service';
import { hubVisitorsRoutes } from './hub-visitors.routes';
import { hubsPages } from './hubs.pages';
import { hubsRoutes } from './hubs.routes';
import { createHubsService, type HubsService } from './hubs.service';

declare module '../module' {
  interface Services {
    hubs: {
      hubs: HubsService;
      /** Collections, entries and covers. */
      content: HubContent;
      /** The public side: gates, sessions, opening an entry, covers. */
      viewer: HubViewer;
      analytics: HubAnalytics;
      /** Who passed the gate form: the list and the CSV export. */
      visitors: HubVisitors;
    };
  }
}

/**
 * Demo hubs: a workspace's branded pages of demos in collections, behind the gates of a link, each entry
 * played through a link the hub makes and owns (shares.hub_id), with hub analytics and an embed.
 *
 * @example
 * // app.ts: one line in the module list, after shares and viewing, whose services it takes.
 * const MODULES = [..., viewingModule, hubsModule, ...];
 */
export const hubsModule = defineModule({
  name: 'hubs',
  owns: {
    tables: 'hubs.tables.ts',
    ids: ['hub', 'hubCollection', 'hubEntry', 'hubOpen'],
  },
  reads: { tables: [demos, shares, views] },
  needs: ['demos', 'shares', 'viewing', 'workspaces', 'notifications'],
  create(kernel, deps) {
    const { config } = kernel;
    const base = { ...kernel, demos: deps.demos.reader, hubLinks: deps.shares.hubLinks };
    return {
      hubs: createHubsService(base),
      content: createHubContent(base),
      viewer: createHubViewer({
        ...kernel,
        demos: deps.demos.reader,
        workspaces: deps.workspaces.reader,
        viewer: deps.viewing.viewer,
        passwordAttempts: config.SHARE_PASSWORD_ATTEMPTS,
        passwordWindowSeconds: Math.ceil(config.SHARE_PASSWORD_WINDOW / 1000),
        sessionTtlMs: config.VIEWER_SESSION_TTL,
        onIdentified: (tx, visitor) => deps.notifications.notifications.hubVisitorIdentified(tx, visitor),
      }),
      analytics: createHubAnalytics(kernel),
      visitors: createHubVisitors(kernel),
    };
  },
  routes(app, ctx) {
    hubsRoutes(app, ctx);
    hubVisitorsRoutes(app, ctx);
    hubContentRoutes(app, ctx);
    hubViewerRoutes(app, ctx);
  },
  pages: hubsPages,
});
