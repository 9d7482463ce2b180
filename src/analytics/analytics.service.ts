import type { AuthContext } from '../auth/permissions';
import { companyAnalytics, linkAnalytics } from './audience-analytics';
import { type AnalyticsContext, type AnalyticsDeps, type AnalyticsRange, EXACT_VIEWERS_UP_TO } from './analytics-context';
import { demoAnalytics } from './demo-analytics';
import { pathAnalytics } from './path-analytics';
import type { Granularity } from './periods';
import { viewJourney } from './view-journey';
import { workspaceAnalytics } from './workspace-analytics';

/**
 * Figures from the roll-ups the viewing domain keeps. Each is a function of its own file taking the
 * context built here: demo-analytics.ts, path-analytics.ts, workspace-analytics.ts, audience-analytics.ts (links, companies),
 * view-journey.ts; the totals, unique viewers and series they share are totals.ts.
 *
 * @example
 * ```ts
 * const analytics = createAnalyticsService({ database, demos: demosReader });
 * const overview = await analytics.workspace(auth, { startDate: '2026-11-01', granularity: 'week' });
 * const perStep = await analytics.demo(auth, 'demo_01j…', { version: 3 });
 * ```
 */
export function createAnalyticsService(deps: AnalyticsDeps) {
  // The roll-ups are read where DATABASE_READ_URL's replica may serve them (db/read-replica.ts): figures
  // may trail the events by the replica's bounded lag, never a member's own writes.
  const ctx = (auth: AuthContext): AnalyticsContext => ({
    db: deps.reads ? deps.reads.reader(auth.workspaceId) : deps.database.db,
    demos: deps.demos,
    exactViewersUpTo: deps.exactViewersUpTo ?? EXACT_VIEWERS_UP_TO,
  });
  return {
    demo: (auth: AuthContext, demoId: string, query: AnalyticsRange & { granularity?: Granularity; version?: number }) =>
      demoAnalytics(ctx(auth), auth, demoId, query),
    workspace: (auth: AuthContext, query: AnalyticsRange & { granularity?: Granularity }) => workspaceAnalytics(ctx(auth), auth, query),
    paths: (auth: AuthContext, demoId: string, query: AnalyticsRange & { version?: number }) => pathAnalytics(ctx(auth), auth, demoId, query),
    links: (auth: AuthContext, demoId: string, query: AnalyticsRange) => linkAnalytics(ctx(auth), auth, demoId, query),
    companies: (auth: AuthContext, demoId: string, query: AnalyticsRange) => companyAnalytics(ctx(auth), auth, demoId, query),
    journey: (auth: AuthContext, demoId: string, viewId: string) => viewJourney(ctx(auth), auth, demoId, viewId),
  };
}

/** `services.analytics.analytics`. */
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
