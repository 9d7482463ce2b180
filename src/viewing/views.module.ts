import { defineModule } from '../module';
import { createIngestion, type Ingestion } from './views.ingest';
import { viewsRoutes } from './views.routes';
import { createViewsService, type ViewsService } from './views.service';

declare module '../module' {
  interface Services {
    views: { views: ViewsService; ingestion: Ingestion };
  }
}

/** Views and analytics: the ingestion of viewer events, the views list and the aggregates. */
export const viewsModule = defineModule({
  name: 'views',
  owns: { tables: 'views.tables.ts', ids: ['view'], events: ['demo.viewed', 'demo.completed'], permissions: ['analytics.read'] },
  needs: ['demos', 'shares'],
  create: (kernel, { demos, shares }) => ({
    views: createViewsService({ ...kernel, demos: demos.reader }),
    ingestion: createIngestion({ ...kernel, countLinkViews: shares.countViews }),
  }),
  routes: viewsRoutes,
  // Events are acknowledged only after their commit; on shutdown, let the batches in flight finish.
  async close({ ingestion }) {
    for (let i = 0; i < 1000 && ingestion.pending > 0; i++) await new Promise((r) => setTimeout(r, 10));
  },
});
