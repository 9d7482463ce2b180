import type { z } from 'zod';
import type { analyticsSchema, viewSchema } from '../../../src/views/views.schemas';
import { api, apiList } from './client';

export type DemoAnalytics = z.output<typeof analyticsSchema>;
export type View = z.output<typeof viewSchema>;
export type Granularity = 'day' | 'week' | 'month';

/** Inclusive UTC days, `YYYY-MM-DD`. */
export interface DayRange {
  start: string;
  end: string;
}

const d = (id: string) => `/demos/${encodeURIComponent(id)}`;

export const analyticsApi = {
  demo: (id: string, range: DayRange, granularity?: Granularity) =>
    api<DemoAnalytics>('GET', `${d(id)}/analytics`, { query: { start_date: range.start, end_date: range.end, granularity } }),
  views: (id: string, range: DayRange, page: { page: number; per_page: number }) =>
    apiList<View>(`${d(id)}/views`, { query: { start_date: range.start, end_date: range.end, ...page } }),
};
