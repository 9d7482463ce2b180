import type { DemoLinks } from '../demos/demo-reads.service';
import { defineModule } from '../module';
import { createShareLinks } from './share-links.repo';
import { type HubLinks, hubLinks } from './hub-links';
import { countLinkViews, type LinkViewCounter } from './link-view-counter';
import { sharesRoutes } from './shares.routes';
import { createSharesService, type SharesService } from './shares.service';

declare module '../module' {
  interface Services {
    shares: {
      shares: SharesService;
      /** The demos' share_url. */
      links: DemoLinks;
      /** Adds new views to their links' counters, in the ingestion's transaction. */
      linkViewCounter: LinkViewCounter;
      /** The links demo hubs make for their entries, in the hubs' transactions. */
      hubLinks: HubLinks;
    };
  }
}

/**
 * Share links and their management: create, list, change, revoke, access log; the demos' share_url and
 * the links' view counters for the others.
 *
 * @example
 * // Another module names it in `needs`:
 * const url = await deps.shares.links.firstActive([demoId]);
 * await deps.shares.linkViewCounter(tx, [{ shareId, views: 1, lastViewedAt: now }]);
 */
export const sharesModule = defineModule({
  name: 'shares',
  owns: {
    tables: 'shares.tables.ts',
    ids: ['share'],
    events: ['share.created', 'share.revoked'],
    permissions: ['shares.read', 'shares.write'],
  },
  // viewing is built after shares: its port is read when a revoke or the access log calls it.
  needs: ['demos', 'workspaces', 'viewing'],
  create: (kernel, deps) => ({
    shares: createSharesService({
      ...kernel,
      demos: deps.demos.reader,
      shareDefaults: (workspaceId) => deps.workspaces.workspaces.shareDefaults(workspaceId),
      get viewers() {
        return deps.viewing.linkViewers;
      },
    }),
    links: createShareLinks(kernel.database),
    linkViewCounter: countLinkViews,
    hubLinks,
  }),
  routes: sharesRoutes,
});
