import { api, apiList } from './client';
import type { CreatedOAuthApp, OAuthApp, OAuthAuthorization, OAuthConsent, Scope } from './types';

export const oauthApi = {
  listApps: () => apiList<OAuthApp>('/oauth/apps', { query: { per_page: 100 } }),
  createApp: (body: { name: string; redirect_uris: string[]; scopes: Scope[]; public: boolean }) =>
    api<CreatedOAuthApp>('POST', '/oauth/apps', { body }),
  rotateSecret: (id: string) => api<CreatedOAuthApp>('POST', `/oauth/apps/${encodeURIComponent(id)}/rotate-secret`, { body: {} }),
  deleteApp: (id: string) => api<void>('DELETE', `/oauth/apps/${encodeURIComponent(id)}`),
  /** Authorized apps: the caller's own, or (admins) every member's in the workspace. */
  listAuthorizations: (allMembers: boolean) =>
    apiList<OAuthAuthorization>('/oauth/authorizations', { query: { per_page: 100, ...(allMembers ? { all_members: 'true' } : {}) } }),
  revokeAuthorization: (id: string) => api<void>('DELETE', `/oauth/authorizations/${encodeURIComponent(id)}`),
  /** The authorisation request as received on /oauth/authorize, passed through untouched. */
  describe: (query: Record<string, string>) => api<OAuthConsent>('GET', '/oauth/authorize', { query }),
  decide: (query: Record<string, string>, decision: 'allow' | 'deny', workspaceId: string) =>
    api<{ redirect_to: string }>('POST', '/oauth/authorize', { body: { ...query, decision, workspace_id: workspaceId } }),
};
