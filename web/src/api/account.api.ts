import { api } from './client';
import type { AccountSession, User } from './types';

interface Accepted {
  message: string;
}

/** The signed-in user's own account, and the public steps behind the links e-mailed to them. */
export const accountApi = {
  requestPasswordReset: (email: string) =>
    api<Accepted>('POST', '/auth/password-reset', { body: { email }, allowUnauthorized: true }),
  resetPassword: (token: string, password: string) =>
    api<void>('POST', '/auth/password-reset/complete', { body: { token, password }, allowUnauthorized: true }),
  verifyEmail: (token: string) => api<User>('POST', '/auth/verify-email', { body: { token }, allowUnauthorized: true }),
  updateProfile: (body: { name: string }) => api<User>('PATCH', '/account', { body }),
  resendVerification: () => api<Accepted>('POST', '/account/email-verification'),
  changePassword: (body: { current_password: string; new_password: string }) =>
    api<{ ended_sessions: number }>('PUT', '/account/password', { body }),
  changeEmail: (body: { email: string; current_password: string }) => api<Accepted>('POST', '/account/email', { body }),
  sessions: () => api<AccountSession[]>('GET', '/account/sessions'),
  revokeSession: (id: string) => api<void>('DELETE', `/account/sessions/${encodeURIComponent(id)}`),
  revokeOtherSessions: () => api<{ ended_sessions: number }>('DELETE', '/account/sessions'),
};
