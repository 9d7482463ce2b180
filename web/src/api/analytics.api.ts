import type { z } from 'zod';
import type {
  analyticsSchema,
  companyAnalyticsSchema,
  journeySchema,
  linkAnalyticsSchema,
  pathAnalyticsSchema,
  workspaceAnalyticsSchema,
} from '../../../src/analytics/analytics.schemas';
import type { viewSchema } from '../../../src/viewing/views.schemas';
import { api, apiList } from './client';

export type DemoAnalytics = z.output<typeof analyticsSchema>;
export type View = z.output<typeof viewSchema>;
export type WorkspaceAnalytics = z.output<typeof workspaceAnalyticsSchema>;
export type LinkAnalytics = z.output<typeof linkAnalyticsSchema>;
export type CompanyAnalytics = z.output<typeof companyAnalyticsSchema>;
export type PathAnalytics = z.output<typeof pathAnalyticsSchema>;
/** The view itself is typed by the views list's View. */
export type Journey = Omit<z.output<ReturnType<typeof journeySchema>>, 'view'> & { view: View };
export type Granularity = 'day' | 'week' | 'month';

/** Inclusive UTC days, `YYYY-MM-DD`. */
export interface DayRange {
  start: string;
  end: string;
}

const d = (id: string) => `/demos/${encodeURIComponent(id)}`;

const rangeQuery = (range: DayRange, includeInternal?: boolean) => ({
  start_date: range.start,
  end_date: range.end,
  include_internal: includeInternal ? 'true' : undefined,
});

export const analyticsApi = {
  workspace: (range: DayRange, granularity?: Granularity, includeInternal?: boolean) =>
    api<WorkspaceAnalytics>('GET', '/analytics', { query: { ...rangeQuery(range, includeInternal), granularity } }),
  links: (id: string, range: DayRange, includeInternal?: boolean) =>
    api<LinkAnalytics[]>('GET', `${d(id)}/analytics/links`, { query: rangeQuery(range, includeInternal) }),
  companies: (id: string, range: DayRange, includeInternal?: boolean) =>
    api<CompanyAnalytics[]>('GET', `${d(id)}/analytics/companies`, { query: rangeQuery(range, includeInternal) }),
  demo: (id: string, range: DayRange, granularity?: Granularity, includeInternal?: boolean) =>
    api<DemoAnalytics>('GET', `${d(id)}/analytics`, { query: { ...rangeQuery(range, includeInternal), granularity } }),
  paths: (id: string, range: DayRange, includeInternal?: boolean) =>
    api<PathAnalytics>('GET', `${d(id)}/analytics/paths`, { query: rangeQuery(range, includeInternal) }),
  views: (id: string, range: DayRange, page: { page: number; per_page: number }, includeInternal?: boolean) =>
    apiList<View>(`${d(id)}/views`, { query: { ...rangeQuery(range, includeInternal), ...page } }),
  journey: (id: string, viewId: string) => api<Journey>('GET', `${d(id)}/views/${encodeURIComponent(viewId)}/journey`),
};
