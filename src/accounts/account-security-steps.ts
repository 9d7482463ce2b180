// The small steps the account-security verbs share: the user or a 401, a link claimed, sessions ended.
import type { Actor } from '../audit/actor';
import type { CredentialCache } from '../auth/credential-cache';
import { tags } from '../core/changes';
import { verifyPassword } from '../core/crypto';
import { AppError } from '../core/errors';
import type { Database, Executor } from '../db/client';
import type { MailQueue } from '../mail/mail-queue';
import { recordAccountEvent } from './account-audit';
import type { AccountLinkDeps } from './account-links';
import { type AccountTokenPurpose, claimAccountToken, findAccountToken } from './account-tokens.repo';
import * as repo from './accounts.repo';
import { describeDevice } from './device';
import { linkTokenDigest } from './link-token';
import { WrongPasswordError } from './sign-in-failures';

/** What the account-security verbs are built from: the kernel, the mail queue and the link settings. */
export interface AccountSecurityDeps extends AccountLinkDeps {
  database: Database;
  credentials: CredentialCache;
  mailQueue: MailQueue;
}

/**
 * The steps shared by the e-mail, password and session verbs of one's own account.
 *
 * @example
 * const steps = createAccountSecuritySteps(deps);
 * const user = await steps.userOf(tx, userId); // 401 when the account is gone
 * const link = await steps.claim(tx, token, 'reset_password'); // 404 unknown or used, 410 expired
 */
export function createAccountSecuritySteps(deps: AccountSecurityDeps) {
  const { clock, credentials } = deps;

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

  return { userOf, endSessions, recordRevoked, claim, checkPassword };
}

/** The shared steps, as each verb file receives them. */
export type AccountSecuritySteps = ReturnType<typeof createAccountSecuritySteps>;
