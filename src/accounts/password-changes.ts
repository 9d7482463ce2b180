// Passwords: a reset by e-mailed link, and a change by the signed-in user; both end the other sessions.
import { type Actor, type RequestOrigin, userActor } from '../audit/actor';
import { hashPassword } from '../core/crypto';
import { invalid } from '../core/errors';
import { recordAccountEvent } from './account-audit';
import { endAccountLinks, sendAccountLink } from './account-links';
import type { AccountSecurityDeps, AccountSecuritySteps } from './account-security-steps';
import * as repo from './accounts.repo';
import { normaliseEmail } from './email-address';

/**
 * Password reset and change.
 *
 * @example
 * const passwords = createPasswordChanges(deps, steps);
 * await passwords.requestPasswordReset('ada@example.com'); // the same answer for any address
 * await passwords.resetPassword(token, 'a new long password', origin);
 */
export function createPasswordChanges(deps: AccountSecurityDeps, steps: AccountSecuritySteps) {
  const { clock } = deps;
  const { db } = deps.database;
  const { userOf, claim, checkPassword, endSessions } = steps;

  /**
   * E-mails a password-reset link when an account has `email`; does nothing visible otherwise, so the
   * answer (and, the mail being queued, its timing) is the same for any address.
   */
  async function requestPasswordReset(email: string) {
    await db.transaction(async (tx) => {
      const user = await repo.findUserByEmail(tx, normaliseEmail(email));
      if (user) await sendAccountLink(deps, tx, 'reset_password', user, user.email);
    });
  }

  /**
   * Sets a new password from a reset link and ends every session and every other outstanding link of the
   * account (API keys stay).
   */
  async function resetPassword(token: string, password: string, origin: RequestOrigin) {
    const passwordHash = await hashPassword(password);
    const { user, ended } = await db.transaction(async (tx) => {
      const link = await claim(tx, token, 'reset_password');
      const found = await userOf(tx, link.userId);
      const now = clock.now();
      // The link reached the account's address: that proves it, unless the address changed since.
      const proves = link.email === found.email;
      const user = await repo.updateUser(tx, found.id, {
        passwordHash,
        emailVerifiedAt: found.emailVerifiedAt ?? (proves ? now : null),
        updatedAt: now,
      });
      const ended = await repo.deleteSessionsOfUser(tx, found.id);
      const links = await endAccountLinks(tx, clock, found);
      await recordAccountEvent(tx, clock, userActor(origin, found.id), found.id, {
        action: 'user.password_reset',
        target: { type: 'user', id: found.id, label: found.email },
        changes: { ended_sessions: ended.length, ...links },
      });
      return { user: user!, ended };
    });
    await endSessions(ended);
    return user;
  }

  /** Changes the password after checking the current one; the user's other sessions and outstanding links end. */
  async function changePassword(actor: Actor, userId: string, currentSessionId: string, current: string, next: string) {
    const user = await userOf(db, userId);
    await checkPassword(user, current);
    if (current === next) {
      throw invalid('The new password is the same as the current one', [{ field: 'new_password', message: 'must differ from the current password' }]);
    }
    const passwordHash = await hashPassword(next);
    const ended = await db.transaction(async (tx) => {
      await repo.updateUser(tx, userId, { passwordHash, updatedAt: clock.now() });
      const others = await repo.deleteSessionsOfUser(tx, userId, currentSessionId);
      const links = await endAccountLinks(tx, clock, user);
      await recordAccountEvent(tx, clock, actor, userId, {
        action: 'user.password_changed',
        target: { type: 'user', id: userId, label: user.email },
        changes: { ended_sessions: others.length, ...links },
      });
      return others;
    });
    await endSessions(ended);
    return { user, endedSessions: ended.length };
  }

  return { requestPasswordReset, resetPassword, changePassword };
}

/** The password verbs, as the account-security service hands them on. */
export type PasswordChanges = ReturnType<typeof createPasswordChanges>;
