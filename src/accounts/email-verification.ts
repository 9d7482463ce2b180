// One's own address: verification links sent and followed, and a change of address.
import { type RequestOrigin, userActor } from '../audit/actor';
import { conflict, invalid } from '../core/errors';
import { noticeMail } from '../mail/link-mail';
import { recordAccountEvent } from './account-audit';
import { sendAccountLink } from './account-links';
import type { AccountSecurityDeps, AccountSecuritySteps } from './account-security-steps';
import * as repo from './accounts.repo';
import { normaliseEmail } from './email-address';

/**
 * Verifying an address and changing it. Every answer about an address is the same whether or not an
 * account has it.
 *
 * @example
 * const emails = createEmailVerification(deps, steps);
 * await emails.requestEmailChange(userId, password, 'new@example.com'); // a link goes to the new address
 * const user = await emails.verifyEmail(token, origin); // the account moves when the link is followed
 */
export function createEmailVerification(deps: AccountSecurityDeps, steps: AccountSecuritySteps) {
  const { clock } = deps;
  const { db } = deps.database;
  const { userOf, claim, checkPassword } = steps;

  /** Sends a new verification link for the user's address (the old ones die); 409 when it is verified. */
  async function resendVerification(userId: string) {
    await db.transaction(async (tx) => {
      const user = await userOf(tx, userId);
      if (user.emailVerifiedAt) throw conflict('Your e-mail address is verified already');
      await sendAccountLink(deps, tx, 'verify_email', user, user.email);
    });
  }

  /**
   * Following a verification link proves its address. When the address is not the account's (a change of
   * address), the account moves to it now, and the old address is told.
   */
  async function verifyEmail(token: string, origin: RequestOrigin) {
    return db.transaction(async (tx) => {
      const link = await claim(tx, token, 'verify_email');
      const user = await userOf(tx, link.userId);
      const now = clock.now();
      if (link.email === user.email) {
        return (await repo.updateUser(tx, user.id, { emailVerifiedAt: user.emailVerifiedAt ?? now, updatedAt: now }))!;
      }
      if (await repo.findUserByEmail(tx, link.email)) {
        throw conflict(`Another account uses ${link.email} now: the change cannot be completed`);
      }
      if (await repo.workspaceHasAddress(tx, user.id, link.email)) {
        throw conflict(`A workspace of yours has a pending invitation for ${link.email}: ask an admin to revoke it first`);
      }
      const changed = await repo.updateUser(tx, user.id, { email: link.email, emailVerifiedAt: now, updatedAt: now });
      await repo.updateMemberEmails(tx, user.id, link.email, now);
      await recordAccountEvent(tx, clock, userActor(origin, user.id), user.id, {
        action: 'user.email_changed',
        target: { type: 'user', id: user.id, label: link.email },
        changes: { email: { from: user.email, to: link.email } },
      });
      await deps.mailQueue.send(
        noticeMail(user.email, 'Your Demoshare e-mail address was changed', [
          `The Demoshare account that used ${user.email} now uses ${link.email}.`,
          'If you did not make this change, reset your password from the sign-in page with the new address, or ask an admin of your workspace for help.',
        ]),
        tx,
      );
      return changed!;
    });
  }

  /**
   * Starts a change of address: a verification link goes to the new address, and the account moves when it
   * is followed. When another account has the new address, that address is told instead, so the answer
   * does not say whether it is taken.
   */
  async function requestEmailChange(userId: string, password: string, newEmailInput: string) {
    const newEmail = normaliseEmail(newEmailInput);
    const user = await userOf(db, userId);
    await checkPassword(user, password);
    if (newEmail === user.email) {
      throw invalid('This is your current address', [{ field: 'email', message: 'must differ from the current address' }]);
    }
    await db.transaction(async (tx) => {
      if (await repo.findUserByEmail(tx, newEmail)) {
        await deps.mailQueue.send(
          noticeMail(newEmail, 'Someone tried to move a Demoshare account to this address', [
            `A Demoshare user asked to change their address to ${newEmail}, but an account with this address exists already, so nothing was changed.`,
            'If this was you, sign in with this address instead. Otherwise, ignore this e-mail.',
          ]),
          tx,
        );
        return;
      }
      await sendAccountLink(deps, tx, 'verify_email', user, newEmail);
    });
    return user;
  }

  return { resendVerification, verifyEmail, requestEmailChange };
}

/** The address verbs, as the account-security service hands them on. */
export type EmailVerification = ReturnType<typeof createEmailVerification>;
