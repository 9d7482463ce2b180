import { api } from './client';
import type { Session } from './types';

export const authApi = {
  session: () => api<Session>('GET', '/auth/session', { allowUnauthorized: true }),
  login: (body: { email: string; password: string }) => api<Session>('POST', '/auth/login', { body, allowUnauthorized: true }),
  signup: (body: { email: string; password: string; name?: string; workspace_name?: string }) =>
    api<Session>('POST', '/auth/signup', { body }),
  switchWorkspace: (workspaceId: string) => api<Session>('POST', '/auth/workspace', { body: { workspace_id: workspaceId } }),
  logout: () => api<void>('POST', '/auth/logout', { allowUnauthorized: true }),
};
