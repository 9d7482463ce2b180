import { authApi } from '../../api/auth.api';
import type { SignupPolicy } from '../../api/types';
import { useResource } from '../../lib/use-resource';

// Unreadable, the pages offer sign-up as they always did: the server still refuses what SIGNUP does not allow.
const UNKNOWN: SignupPolicy = { mode: 'open', allowed_domains: [], first_account: false, email_delivery: true };

/** The operator's SIGNUP, for the sign-in and sign-up pages; undefined while it loads. */
export function useSignupPolicy(): SignupPolicy | undefined {
  const policy = useResource(() => authApi.signupPolicy());
  return policy.status === 'error' ? UNKNOWN : policy.data;
}

/** "example.com", "example.com or corp.example", "a.test, b.test or c.test". */
export function domainList(domains: string[], joiner = 'or'): string {
  return domains.length <= 1 ? (domains[0] ?? '') : `${domains.slice(0, -1).join(', ')} ${joiner} ${domains[domains.length - 1]}`;
}

/** Whether anyone may sign up without an invitation right now (open, or no account yet). */
export const signupOpen = (policy: SignupPolicy) => policy.mode === 'open' || policy.first_account;
