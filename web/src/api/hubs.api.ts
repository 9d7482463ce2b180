import type { z } from 'zod';
import type { hubAnalyticsSchema } from '../../../src/hubs/hub-analytics.schemas';
import type { hubVisitorSchema } from '../../../src/hubs/hub-visitors.schemas';
import type { collectionOutSchema, createHubBody, entrySchema, hubDetailSchema, hubSchema, patchHubBody } from '../../../src/hubs/hubs.schemas';
import type { DayRange } from './analytics.api';
import { api, apiList, apiUpload } from './client';

// Wire types from the server's schemas (type-only: nothing of the server is bundled).
export type Hub = z.output<typeof hubSchema>;
export type HubDetail = z.output<typeof hubDetailSchema>;
export type HubEntry = z.output<typeof entrySchema>;
export type HubCollection = z.output<typeof collectionOutSchema>;
export type HubAnalytics = z.output<typeof hubAnalyticsSchema>;
export type HubVisitor = z.output<typeof hubVisitorSchema>;
export type NewHub = z.input<typeof createHubBody>;
export type HubChange = z.input<typeof patchHubBody>;

const path = (id: string) => `/hubs/${encodeURIComponent(id)}`;
/** A card's date filter: UTC days, both ends included; null (the visitors' All time) is no bound. */
const rangeQuery = (range: DayRange | null): Record<string, string> => (range ? { start_date: range.start, end_date: range.end } : {});

export const hubsApi = {
  list: () => apiList<Hub>('/hubs', { query: { per_page: 100 } }),
  get: (id: string) => api<HubDetail>('GET', path(id)),
  create: (body: NewHub) => api<Hub>('POST', '/hubs', { body }),
  update: (id: string, body: HubChange) => api<Hub>('PATCH', path(id), { body }),
  remove: (id: string) => api<void>('DELETE', path(id)),
  addCollection: (id: string, name: string) => api<HubCollection>('POST', `${path(id)}/collections`, { body: { name } }),
  updateCollection: (id: string, collectionId: string, body: { name?: string; position?: number }) =>
    api<HubCollection>('PATCH', `${path(id)}/collections/${encodeURIComponent(collectionId)}`, { body }),
  removeCollection: (id: string, collectionId: string) => api<void>('DELETE', `${path(id)}/collections/${encodeURIComponent(collectionId)}`),
  addEntry: (id: string, body: { demo_id: string; collection_id: string; description?: string }) => api<HubEntry>('POST', `${path(id)}/entries`, { body }),
  updateEntry: (id: string, entryId: string, body: { collection_id?: string; title?: string | null; description?: string; position?: number }) =>
    api<HubEntry>('PATCH', `${path(id)}/entries/${encodeURIComponent(entryId)}`, { body }),
  removeEntry: (id: string, entryId: string) => api<void>('DELETE', `${path(id)}/entries/${encodeURIComponent(entryId)}`),
  setCover: (id: string, entryId: string, file: Blob) => apiUpload<HubEntry>(`${path(id)}/entries/${encodeURIComponent(entryId)}/cover`, file, 'PUT'),
  removeCover: (id: string, entryId: string) => api<void>('DELETE', `${path(id)}/entries/${encodeURIComponent(entryId)}/cover`),
  analytics: (id: string, range: DayRange) => api<HubAnalytics>('GET', `${path(id)}/analytics`, { query: rangeQuery(range) }),
  visitors: (id: string, range: DayRange | null, page: number, perPage: number) =>
    apiList<HubVisitor>(`${path(id)}/visitors`, { query: { ...rangeQuery(range), page, per_page: perPage } }),
  /** A plain link: the browser downloads it with the session cookie (a GET needs no CSRF header). */
  visitorsCsvUrl: (id: string, range: DayRange | null) => {
    const query = new URLSearchParams(rangeQuery(range)).toString();
    return `/v1${path(id)}/visitors/export${query ? `?${query}` : ''}`;
  },
};
