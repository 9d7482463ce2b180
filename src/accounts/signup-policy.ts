// Who may sign up on this server (SIGNUP, SIGNUP_ALLOWED_DOMAINS), and the refusal when they may not.
import type { Config } from '../config';
import { forbidden } from '../core/errors';

export type SignupMode = Config['SIGNUP'];

/** Who may create an account on this server (SIGNUP, SIGNUP_ALLOWED_DOMAINS): what the sign-in page shows. */
export interface SignupPolicy {
  mode: SignupMode;
  /** The e-mail domains that may sign up when `mode` is `domains`, lower-case; empty otherwise. */
  domains: string[];
}

/**
 * The policy from the configuration.
 *
 * @example
 * signupPolicyOf({ SIGNUP: 'domains', SIGNUP_ALLOWED_DOMAINS: ['example.com'] }) // { mode: 'domains', domains: ['example.com'] }
 */
export const signupPolicyOf = (config: Pick<Config, 'SIGNUP' | 'SIGNUP_ALLOWED_DOMAINS'>): SignupPolicy => ({
  mode: config.SIGNUP,
  domains: config.SIGNUP === 'domains' ? config.SIGNUP_ALLOWED_DOMAINS : [],
});

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** Whether `email` (normalised) may sign up without an invitation, on a server that has accounts already. */
export function opensTo(policy: SignupPolicy, email: string): boolean {
  if (policy.mode === 'open') return true;
  return policy.mode === 'domains' && policy.domains.includes(domainOf(email));
}

const listed = (domains: string[]) =>
  domains.length === 1 ? domains[0] : `${domains.slice(0, -1).join(', ')} and ${domains[domains.length - 1]}`;

/** The 403 of a refused sign-up: why, and how to get in. */
export function signupRefused(policy: SignupPolicy) {
  const invite = 'ask an admin of a workspace on this server to invite you, then follow the link in the invitation e-mail';
  return forbidden(
    policy.mode === 'domains'
      ? `Sign-up on this server is open to addresses at ${listed(policy.domains)} only: sign up with such an address, or ${invite}`
      : `Sign-up on this server is by invitation only: ${invite}`,
  );
}
