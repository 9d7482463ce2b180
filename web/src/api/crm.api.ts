import type { z } from 'zod';
import type { backfillBody, backfillResultSchema, hubSpotStatusSchema, putHubSpotBody, resyncBody, resyncResultSchema, syncItemSchema } from '../../../src/crm/crm.schemas';
import { api, apiList } from './client';

export type HubSpotStatus = z.output<typeof hubSpotStatusSchema>;
export type HubSpotInput = z.input<typeof putHubSpotBody>;
export type ResyncInput = NonNullable<z.input<typeof resyncBody>>;
export type ResyncResult = z.output<typeof resyncResultSchema>;
export type SyncItem = z.output<typeof syncItemSchema>;
export type BackfillInput = NonNullable<z.input<typeof backfillBody>>;
export type BackfillResult = z.output<typeof backfillResultSchema>;

/** The workspace's HubSpot connection, its sync log and re-sync (Settings → HubSpot, admins). */
export const crmApi = {
  status: () => api<HubSpotStatus>('GET', '/crm/hubspot'),
  connect: (body: HubSpotInput) => api<HubSpotStatus>('PUT', '/crm/hubspot', { body }),
  disconnect: () => api<void>('DELETE', '/crm/hubspot'),
  log: (query: { page: number; status?: string; email?: string }) => apiList<SyncItem>('/crm/hubspot/log', { query }),
  backfill: (body: BackfillInput) => api<BackfillResult>('POST', '/crm/hubspot/backfill', { body }),
  resync: (body: ResyncInput) => api<ResyncResult>('POST', '/crm/hubspot/resync', { body }),
};
