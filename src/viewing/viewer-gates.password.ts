// POST /v1/viewer/:token/unlock: the password gate, rate-limited per address, per link and per address pair.
import { tags } from '../core/changes';
import { verifyPassword } from '../core/crypto';
import type { RateLimitPolicy } from '../core/rate-limit';
import type { ShareRow } from '../shares/shares.schemas';
import type { ViewerGatesDeps } from './viewer-gates';
import { gateError, gateOf, recordDecision, resolve, type Visitor } from './viewer-gates.resolve';
import { ensureSession } from './viewer-gates.session';
import * as repo from './viewer.repo';

/**
 * One password attempt on a link, under its three budgets: true when right. Every path that takes a
 * password (unlock, the one gate form) goes through here, so there is one budget to exhaust, not two.
 * Throws 429 while a budget is spent (the right password included); a wrong one is recorded and counted.
 */
export async function attemptPassword(
  deps: Pick<ViewerGatesDeps, 'rateLimits' | 'passwordAttempts' | 'passwordWindowSeconds' | 'database' | 'clock' | 'log'>,
  share: ShareRow & { passwordHash: string },
  password: string,
  visitor: Visitor,
  identity: { email?: string | null; name?: string | null },
): Promise<boolean> {
  const duration = deps.passwordWindowSeconds;
  const pair: RateLimitPolicy = { points: deps.passwordAttempts, duration };
  // A distributed guess across many addresses, or one address across many links, is capped too.
  const perLink: RateLimitPolicy = { points: deps.passwordAttempts * 20, duration };
  const perIp: RateLimitPolicy = { points: deps.passwordAttempts * 4, duration };
  const keys = { pair: `${share.id}:${visitor.ip}`, link: share.id, ip: visitor.ip };
  try {
    // While blocked, even the right password is refused: otherwise the block would only slow guessing.
    await deps.rateLimits.check('share-password', pair, keys.pair);
    await deps.rateLimits.check('share-password-link', perLink, keys.link);
    await deps.rateLimits.check('share-password-ip', perIp, keys.ip);
  } catch (error) {
    await recordDecision(deps, share, 'blocked', visitor, identity);
    throw error;
  }
  if (await verifyPassword(share.passwordHash, password)) return true;
  await recordDecision(deps, share, 'wrong_password', visitor, identity);
  await deps.rateLimits.consume('share-password', pair, keys.pair);
  await deps.rateLimits.consume('share-password-link', perLink, keys.link);
  await deps.rateLimits.consume('share-password-ip', perIp, keys.ip);
  return false;
}

/** Unlocks the link for this viewer's session with the link's password (a link without one: nothing to do). */
export async function unlock(
  deps: ViewerGatesDeps,
  token: string,
  sessionToken: string | undefined,
  password: string,
  visitor: Visitor,
) {
  const { link, session } = await resolve(deps, token, sessionToken, visitor);
  const { share } = link;
  const identity = { email: session?.viewerEmail, name: session?.viewerName };
  if (share.passwordHash === null) {
    return { gate: gateOf(share, session), share, link, session, issued: undefined };
  }
  if (!(await attemptPassword(deps, { ...share, passwordHash: share.passwordHash }, password, visitor, identity))) {
    throw gateError('password', 'unauthorized', 'Wrong password');
  }
  const { session: unlocked, issued } = await ensureSession(deps, share, session, visitor);
  const current = await repo.updateViewerSession(deps.database.db, unlocked.id, { passwordVersion: share.passwordVersion });
  await deps.changes.announce(tags.session(current.id));
  await recordDecision(deps, share, 'unlocked', visitor, identity);
  return { gate: gateOf(share, current), share, link, session: current, issued };
}
