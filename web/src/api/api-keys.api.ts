import { api, apiList } from './client';
import type { ApiKey, CreatedApiKey, Scope } from './types';

export const apiKeysApi = {
  // The API caps a page at 100; a workspace with more keys than that is not a case this screen serves.
  list: () => apiList<ApiKey>('/api-keys', { query: { per_page: 100 } }),
  create: (body: { name: string; scopes: Scope[]; expires_at: string | null }) => api<CreatedApiKey>('POST', '/api-keys', { body }),
  rotate: (id: string) => api<CreatedApiKey>('POST', `/api-keys/${encodeURIComponent(id)}/rotate`, { body: {} }),
  revoke: (id: string) => api<void>('DELETE', `/api-keys/${encodeURIComponent(id)}`),
};
