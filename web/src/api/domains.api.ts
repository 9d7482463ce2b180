import type { z } from 'zod';
import type { addDomainBody, domainSchema, updateDomainBody } from '../../../src/domains/domains.schemas';
import { api, apiList } from './client';

// Wire types from the server's schemas (type-only: nothing of the server is bundled).
export type Domain = z.output<typeof domainSchema>;
export type NewDomain = z.input<typeof addDomainBody>;
export type DomainChange = z.input<typeof updateDomainBody>;

const path = (id: string) => `/domains/${encodeURIComponent(id)}`;

/** Settings → Domains (admins): the workspace's custom domains. */
export const domainsApi = {
  list: () => apiList<Domain>('/domains', { query: { per_page: 100 } }),
  add: (body: NewDomain) => api<Domain>('POST', '/domains', { body }),
  update: (id: string, body: DomainChange) => api<Domain>('PATCH', path(id), { body }),
  verify: (id: string) => api<Domain>('POST', `${path(id)}/verify`),
  remove: (id: string) => api<void>('DELETE', path(id)),
};
