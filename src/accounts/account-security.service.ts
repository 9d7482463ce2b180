import { tags } from '../core/changes';
import { type Actor, type RequestOrigin, userActor } from '../audit/actor';
import type { CredentialCache } from '../auth/credential-cache';
import { hashPassword, verifyPassword } from '../core/crypto';
import { AppError, conflict, invalid, notFound } from '../core/errors';
import type { Database, Executor } from '../db/client';
import { noticeMail } from '../mail/link-mail';
import type { MailQueue } from '../mail/mail-queue';
import { recordAccountEvent } from './account-audit';
import { type AccountLinkDeps, endAccountLinks, sendAccountLink } from './account-links';
import { type AccountTokenPurpose, claimAccountToken, findAccountToken } from './account-tokens.repo';
import * as repo from './accounts.repo';
import { normaliseEmail } from './accounts.service';
import { describeDevice } from './device';
import { linkTokenDigest } from './link-token';
import { WrongPasswordError } from './sign-in-failures';

export interface AccountSecurityDeps extends AccountLinkDeps {
  database: Database;
  credentials: CredentialCache;
  mailQueue: MailQueue;
}

/**
 * What a signed-in user does to their own account (name, password, address, sessions), and what a link from
 * an e-mail proves (an address, a password reset). Every answer about an address is the same whether or not
 * an account has it.
 */
export function createAccountSecurityService(deps: AccountSecurityDeps) {
  const { database, clock, credentials } = deps;
  const { db } = database;

  async function userOf(executor: Executor, userId: string) {
    const user = await repo.findUserById(executor, userId);
    if (!user) throw new AppError('unauthorized', 'Your session has expired: sign in again');
    return user;
  }

  async function endSessions(ended: { id: string }[]) {
    if (ended.length > 0) await credentials.invalidate(...ended.map((s) => tags.credential(s.id)));
  }

  /** One `session.revoked` entry per session a user signed out by hand. */
  async function recordRevoked(tx: Executor, actor: Actor, userId: string, ended: { id: string; userAgent: string | null }[]) {
    for (const session of ended) {
      await recordAccountEvent(tx, clock, actor, userId, {
        action: 'session.revoked',
        target: { type: 'session', id: session.id, label: describeDevice(session.userAgent) },
      });
    }
  }

  /** Uses the link behind `token` (in `tx`): 404 when unknown, used or replaced; 410 when expired. */
  async function claim(tx: Executor, token: string, purpose: AccountTokenPurpose) {
    const digest = linkTokenDigest(token);
    const claimed = await claimAccountToken(tx, digest, purpose, clock.now());
    if (claimed) return claimed;
    const found = await findAccountToken(tx, digest);
    if (found && found.purpose === purpose && !found.usedAt) {
      throw new AppError('gone', 'This link has expired: ask for a new one');
    }
    throw new AppError('not_found', 'This link is not valid: it was used already or replaced by a newer one');
  }

  async function checkPassword(user: { passwordHash: string }, password: string) {
    if (!(await verifyPassword(user.passwordHash, password))) throw new WrongPasswordError();
  }

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

  async function updateProfile(userId: string, changes: { name?: string }) {
    const user = await userOf(db, userId);
    if (changes.name === undefined) return user;
    return (await repo.updateUser(db, userId, { name: changes.name, updatedAt: clock.now() }))!;
  }

  async function listSessions(userId: string) {
    const rows = await repo.liveSessionsOfUser(db, userId, clock.now());
    return rows.map((row) => ({ ...row, device: describeDevice(row.userAgent) }));
  }

  async function revokeSession(actor: Actor, userId: string, sessionId: string) {
    const ended = await db.transaction(async (tx) => {
      const session = await repo.deleteSessionOfUser(tx, userId, sessionId);
      if (!session) throw notFound('Session');
      await recordRevoked(tx, actor, userId, [session]);
      return session;
    });
    await endSessions([ended]);
  }

  /**
   * Signs out every other session of the user, and ends the account's outstanding links (a change of address
   * started in one of those sessions would otherwise survive it); the number of sessions ended.
   */
  async function revokeOtherSessions(actor: Actor, userId: string, currentSessionId: string) {
    const ended = await db.transaction(async (tx) => {
      const user = await userOf(tx, userId);
      const others = await repo.deleteSessionsOfUser(tx, userId, currentSessionId);
      await recordRevoked(tx, actor, userId, others);
      const links = await endAccountLinks(tx, clock, user);
      if (links.ended_links > 0) {
        await recordAccountEvent(tx, clock, actor, userId, {
          action: 'user.links_ended',
          target: { type: 'user', id: userId, label: user.email },
          changes: links,
        });
      }
      return others;
    });
    await endSessions(ended);
    return ended.length;
  }

  return {
    /** The signed-in user's own record. */
    account: (userId: string) => userOf(db, userId),
    resendVerification,
    verifyEmail,
    requestPasswordReset,
    resetPassword,
    changePassword,
    requestEmailChange,
    updateProfile,
    listSessions,
    revokeSession,
    revokeOtherSessions,
  };
}

export type AccountSecurityService = ReturnType<typeof createAccountSecurityService>;
