import type { CredentialCache } from '../auth/credential-cache';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { AccountLinkDeps } from './account-links';
import type { AccountsReader } from './accounts.reader';
import { createInvitationAcceptance } from './invitation-acceptance';
import type { AccountWorkspaces } from './memberships';
import { createSignIn } from './sign-in';
import { createSignUp } from './sign-up';
import type { SignupPolicy } from './signup-policy';
import { createWebSessions } from './web-sessions';

export { normaliseEmail } from './email-address';
export type { NewAccount } from './sign-up';
export type { StartedSession } from './web-sessions';

/** What the accounts service is built from: the kernel, the link settings, SESSION_TTL, SIGNUP and the workspaces and membership ports. */
export interface AccountsDeps extends AccountLinkDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  sessionTtlMs: number;
  signup: SignupPolicy;
  workspaces: AccountWorkspaces;
  memberships: Pick<AccountsReader, 'membershipsOfUser'>;
}

/**
 * Sign-up, sign-in, web sessions and invitations, gathered for the routes: each verb lives in the file its
 * name says (sign-up.ts, sign-in.ts, web-sessions.ts, invitation-acceptance.ts).
 *
 * @example
 * const accounts = createAccountsService({ ...kernel, ...links, sessionTtlMs, signup, workspaces, memberships });
 * const { user, workspace } = await accounts.createAccount({ email, password }, origin);
 * const session = await accounts.startSession(user.id, workspace.id, origin);
 */
export function createAccountsService(deps: AccountsDeps) {
  const invitations = createInvitationAcceptance(deps);
  const signUp = createSignUp({ ...deps, invitations });
  const sessions = createWebSessions(deps);
  return {
    createAccount: signUp.createAccount,
    signupPolicy: signUp.signupPolicy,
    verifyCredentials: createSignIn({ ...deps, invitations }),
    startSession: sessions.startSession,
    switchWorkspace: sessions.switchWorkspace,
    resolveSession: sessions.resolveSession,
    endSession: sessions.endSession,
    profile: sessions.profile,
    previewInvitation: invitations.preview,
    acceptInvitation: invitations.accept,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
