// One's own web sessions: listed with their devices, one signed out, or all the others.
import type { Actor } from '../audit/actor';
import { notFound } from '../core/errors';
import { recordAccountEvent } from './account-audit';
import { endAccountLinks } from './account-links';
import type { AccountSecurityDeps, AccountSecuritySteps } from './account-security-steps';
import * as repo from './accounts.repo';
import { describeDevice } from './device';

/**
 * The signed-in user's sessions.
 *
 * @example
 * const sessions = createOwnSessions(deps, steps);
 * const ended = await sessions.revokeOtherSessions(actor, userId, currentSessionId); // how many ended
 */
export function createOwnSessions(deps: AccountSecurityDeps, steps: AccountSecuritySteps) {
  const { clock } = deps;
  const { db } = deps.database;
  const { userOf, endSessions, recordRevoked } = steps;

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

  return { listSessions, revokeSession, revokeOtherSessions };
}

/** The session verbs, as the account-security service hands them on. */
export type OwnSessions = ReturnType<typeof createOwnSessions>;
