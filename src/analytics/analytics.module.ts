import { defineModule } from '../module';
import { analyticsRoutes } from './analytics.routes';
import { type AnalyticsService, createAnalyticsService } from './analytics.service';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { demoChapterDailyStats, demoChapterStepDailyStats, demoElementDailyStats, demoFormDailyStats, demoPathDailyStats, demoDailySegments, demoDailySketches, demoDailyStats, demoDailyViewers, demoStepDailyStats, viewSteps, views, workspaceDailySketches } from '../viewing/viewing.tables';

declare module '../module' {
  interface Services {
    analytics: { analytics: AnalyticsService };
  }
}

/**
 * Figures from the roll-ups the viewing domain keeps: per demo, per link, per company, per workspace. A
 * read model: it declares the tables it reads and writes none.
 *
 * @example
 * ```ts
 * // another module (MCP): needs: ['analytics'], then
 * const figures = await deps.analytics.analytics.demo(auth, 'demo_01j…', { granularity: 'day' });
 * ```
 */
export const analyticsModule = defineModule({
  name: 'analytics',
  owns: {},
  reads: { tables: [demos, shares, demoChapterDailyStats, demoChapterStepDailyStats, demoElementDailyStats, demoFormDailyStats, demoPathDailyStats, demoDailySegments, demoDailySketches, demoDailyStats, demoDailyViewers, demoStepDailyStats, views, viewSteps, workspaceDailySketches] },
  needs: ['demos'],
  create: (kernel, { demos }) => ({
    analytics: createAnalyticsService({ ...kernel, demos: demos.reader, exactViewersUpTo: kernel.config.ANALYTICS_EXACT_VIEWERS_UP_TO }),
  }),
  routes: analyticsRoutes,
});
