import { api } from './client';
import type { InvitationPreview, Session, SignupPolicy } from './types';

const invitationPath = (token: string) => `/invitations/${encodeURIComponent(token)}`;

export const authApi = {
  session: () => api<Session>('GET', '/auth/session', { allowUnauthorized: true }),
  signupPolicy: () => api<SignupPolicy>('GET', '/auth/signup-policy', { allowUnauthorized: true }),
  login: (body: { email: string; password: string; invitation_token?: string }) =>
    api<Session>('POST', '/auth/login', { body, allowUnauthorized: true }),
  signup: (body: { email: string; password: string; name?: string; workspace_name?: string; invitation_token?: string }) =>
    api<Session>('POST', '/auth/signup', { body }),
  switchWorkspace: (workspaceId: string) => api<Session>('POST', '/auth/workspace', { body: { workspace_id: workspaceId } }),
  logout: () => api<void>('POST', '/auth/logout', { allowUnauthorized: true }),
  invitation: (token: string) => api<InvitationPreview>('GET', invitationPath(token), { allowUnauthorized: true }),
  acceptInvitation: (token: string) => api<Session>('POST', `${invitationPath(token)}/accept`),
};
