import { createAccountSecuritySteps, type AccountSecurityDeps } from './account-security-steps';
import * as repo from './accounts.repo';
import { createEmailVerification } from './email-verification';
import { createOwnSessions } from './own-sessions';
import { createPasswordChanges } from './password-changes';

export type { AccountSecurityDeps } from './account-security-steps';

/**
 * What a signed-in user does to their own account (name, password, address, sessions), and what a link from
 * an e-mail proves (an address, a password reset), gathered for the routes: each verb lives in the file its
 * name says (email-verification.ts, password-changes.ts, own-sessions.ts). Every answer about an address is
 * the same whether or not an account has it.
 *
 * @example
 * const security = createAccountSecurityService({ ...kernel, appUrl, verificationTtlMs, resetTtlMs });
 * await security.changePassword(actor, userId, sessionId, 'current password', 'a new long password');
 */
export function createAccountSecurityService(deps: AccountSecurityDeps) {
  const { clock } = deps;
  const { db } = deps.database;
  const steps = createAccountSecuritySteps(deps);
  const emails = createEmailVerification(deps, steps);
  const passwords = createPasswordChanges(deps, steps);
  const sessions = createOwnSessions(deps, steps);

  /** Renames the user (the only profile field); the user as it is now. */
  async function updateProfile(userId: string, changes: { name?: string }) {
    const user = await steps.userOf(db, userId);
    if (changes.name === undefined) return user;
    return (await repo.updateUser(db, userId, { name: changes.name, updatedAt: clock.now() }))!;
  }

  return {
    /** The signed-in user's own record. */
    account: (userId: string) => steps.userOf(db, userId),
    resendVerification: emails.resendVerification,
    verifyEmail: emails.verifyEmail,
    requestPasswordReset: passwords.requestPasswordReset,
    resetPassword: passwords.resetPassword,
    changePassword: passwords.changePassword,
    requestEmailChange: emails.requestEmailChange,
    updateProfile,
    listSessions: sessions.listSessions,
    revokeSession: sessions.revokeSession,
    revokeOtherSessions: sessions.revokeOtherSessions,
  };
}

export type AccountSecurityService = ReturnType<typeof createAccountSecurityService>;
