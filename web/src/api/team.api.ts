import { api, apiList } from './client';
import type { Member, Role } from './types';

export const teamApi = {
  list: () => apiList<Member>('/team/members', { query: { per_page: 100 } }),
  invite: (body: { email: string; role: Role }) => api<Member>('POST', '/team/members', { body }),
  resendInvitation: (id: string) => api<Member>('POST', `/team/members/${encodeURIComponent(id)}/invitation`),
  revokeInvitation: (id: string) => api<void>('DELETE', `/team/members/${encodeURIComponent(id)}/invitation`),
  changeRole: (id: string, role: Role) => api<Member>('PATCH', `/team/members/${encodeURIComponent(id)}`, { body: { role } }),
  remove: (id: string) => api<void>('DELETE', `/team/members/${encodeURIComponent(id)}`),
};
