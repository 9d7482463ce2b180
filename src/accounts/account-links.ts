// The single-use links e-mailed to a user (verify an address, reset a password): issued, mailed, ended.
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { linkMail } from '../mail/link-mail';
import type { MailQueue } from '../mail/mail-queue';
import { type AccountTokenPurpose, deleteAllUnusedTokens, deleteUnusedTokens, insertAccountToken } from './account-tokens.repo';
import { linkUrl, newLinkToken } from './link-token';

export interface AccountLinkDeps {
  clock: Clock;
  mailQueue: MailQueue;
  appUrl: string;
  verificationTtlMs: number;
  resetTtlMs: number;
}

const PAGE: Record<AccountTokenPurpose, string> = { verify_email: 'verify-email', reset_password: 'reset-password' };

const hours = (ms: number) => {
  const h = Math.round(ms / 3_600_000);
  return h >= 48 && h % 24 === 0 ? `${h / 24} days` : h === 1 ? '1 hour' : `${h} hours`;
};

/**
 * Issues a single-use link of `purpose` for `user` at `email` and queues its e-mail, in `tx`: the link and
 * its message commit together. Earlier unused links of the same purpose die.
 */
export async function sendAccountLink(
  deps: AccountLinkDeps,
  tx: Executor,
  purpose: AccountTokenPurpose,
  user: { id: string; name: string },
  email: string,
) {
  const now = deps.clock.now();
  const ttl = purpose === 'reset_password' ? deps.resetTtlMs : deps.verificationTtlMs;
  const { token, digest } = newLinkToken();
  await deleteUnusedTokens(tx, user.id, purpose);
  await insertAccountToken(tx, {
    id: newId('accountToken'),
    userId: user.id,
    purpose,
    tokenDigest: digest,
    email,
    expiresAt: new Date(now.getTime() + ttl),
    createdAt: now,
  });
  const url = linkUrl(deps.appUrl, PAGE[purpose], token);
  const hello = user.name ? `Hello ${user.name},` : 'Hello,';
  const mail =
    purpose === 'reset_password'
      ? linkMail({
          to: email,
          subject: 'Reset your Demoshare password',
          intro: [hello, 'Someone asked to reset the password of the Demoshare account with this address.'],
          action: 'Choose a new password',
          url,
          outro: [
            `The link works once and expires in ${hours(ttl)}. Resetting signs you out everywhere.`,
            'If this was not you, ignore this e-mail: your password stays as it is.',
          ],
        })
      : linkMail({
          to: email,
          subject: 'Confirm your e-mail address for Demoshare',
          intro: [hello, `Confirm that ${email} is your address on Demoshare.`],
          action: 'Confirm the address',
          url,
          outro: [
            `The link works once and expires in ${hours(ttl)}.`,
            'If you did not sign up or change your address on Demoshare, ignore this e-mail.',
          ],
        });
  await deps.mailQueue.send(mail, tx);
}

/**
 * Ends every outstanding link of `user` (a change of address, a verification, a password reset), in `tx`.
 * A new password or signing out everywhere is how someone locks out whoever else knew the password; a link
 * that person had started (a change of address to their own, above all) must not outlive it. What is
 * returned goes into the audit entry: how many live links ended, and the address a pending change was for.
 */
export async function endAccountLinks(tx: Executor, clock: Clock, user: { id: string; email: string }) {
  const now = clock.now();
  const live = (await deleteAllUnusedTokens(tx, user.id)).filter((link) => link.expiresAt > now);
  const change = live.find((link) => link.purpose === 'verify_email' && link.email !== user.email);
  return {
    ended_links: live.length,
    ...(change ? { cancelled_email_change: change.email } : {}),
  };
}
