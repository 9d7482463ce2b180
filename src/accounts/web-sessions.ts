// Web sessions: started at sign-in, resolved from the cookie on each request, moved between workspaces, ended.
import { type RequestOrigin, userActor } from '../audit/actor';
import { type CachedCredential, type CredentialCache, touchIfStale } from '../auth/credential-cache';
import { SCOPES, type Role } from '../auth/permissions';
import { tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { randomToken, sha256Hex } from '../core/crypto';
import { AppError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import { recordAccountEvent } from './account-audit';
import type { AccountsReader } from './accounts.reader';
import * as repo from './accounts.repo';
import { describeDevice } from './device';

/** What web sessions are built from: the credential cache, SESSION_TTL and the membership lookup besides the kernel. */
export interface WebSessionsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  credentials: CredentialCache;
  sessionTtlMs: number;
  memberships: Pick<AccountsReader, 'membershipsOfUser'>;
}

/** A new session: the cookie values the route sets, and whom it acts as. */
export interface StartedSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
  userId: string;
  workspaceId: string;
}

/** A session's last use is written at most this often: the sessions list needs minutes, not every request. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

/**
 * A web session is a cookie whose SHA-256 is stored; its credential is cached (CredentialCache) and dropped
 * by tag when the session moves or ends.
 *
 * @example
 * const sessions = createWebSessions({ database, clock, credentials, sessionTtlMs, memberships: reader });
 * const started = await sessions.startSession(user.id, workspace.id, origin); // set started.token as the cookie
 * const credential = await sessions.resolveSession(cookie); // null when expired or the membership is gone
 */
export function createWebSessions(deps: WebSessionsDeps) {
  const { clock, credentials, sessionTtlMs, memberships } = deps;
  const { db } = deps.database;

  /** Starts a web session (sign-up or sign-in) and records the sign-in in the user's workspaces. */
  async function startSession(userId: string, workspaceId: string, origin: RequestOrigin): Promise<StartedSession> {
    const token = randomToken(32);
    const csrfToken = randomToken(24);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + sessionTtlMs);
    const id = newId('session');
    await db.transaction(async (tx) => {
      await repo.insertSession(tx, {
        id,
        userId,
        workspaceId,
        tokenDigest: sha256Hex(token),
        csrfToken,
        createdAt: now,
        expiresAt,
        lastSeenAt: now,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      await recordAccountEvent(tx, clock, userActor(origin, userId), userId, {
        action: 'user.signed_in',
        target: { type: 'session', id, label: describeDevice(origin.userAgent) },
      });
    });
    return { token, csrfToken, expiresAt, userId, workspaceId };
  }

  /** Moves a session to another workspace of the same user; API keys stay in the workspace they were made in. */
  async function switchWorkspace(sessionId: string, userId: string, workspaceId: string) {
    const member = await repo.findActiveMember(db, workspaceId, userId);
    if (!member) throw notFound('Workspace');
    await repo.updateSessionWorkspace(db, sessionId, workspaceId);
    await credentials.invalidate(tags.credential(sessionId));
  }

  /** The credential behind a session cookie; null when unknown, expired or its membership is gone. */
  async function resolveSession(cookieValue: string): Promise<CachedCredential | null> {
    const digest = sha256Hex(cookieValue);
    const now = clock.now();
    const entry = await credentials.resolve(digest, now, async () => {
      const row = await repo.findLiveSession(db, digest, now);
      if (!row) return null;
      return {
        auth: {
          kind: 'session',
          credentialId: row.session.id,
          workspaceId: row.session.workspaceId,
          userId: row.session.userId,
          memberId: row.member.id,
          role: row.member.role as Role,
          scopes: new Set(SCOPES),
        },
        expiresAt: row.session.expiresAt,
        csrfToken: row.session.csrfToken,
        lastUsedAt: row.session.lastSeenAt,
      };
    });
    if (entry) touchIfStale(entry, now, TOUCH_INTERVAL_MS, (at) => repo.touchSession(db, entry.auth.credentialId, at));
    return entry;
  }

  async function endSession(sessionId: string) {
    await repo.deleteSession(db, sessionId);
    await credentials.invalidate(tags.credential(sessionId));
  }

  /** Who is signed in, in which workspace, and their other memberships; 401 when the membership is gone. */
  async function profile(userId: string, workspaceId: string) {
    const user = await repo.findUserById(db, userId);
    const all = await memberships.membershipsOfUser(userId);
    const current = all.find((m) => m.workspace.id === workspaceId);
    if (!user || !current) throw new AppError('unauthorized', 'Your session has expired: sign in again');
    return { user, workspace: current.workspace, member: current.member, memberships: all };
  }

  return { startSession, switchWorkspace, resolveSession, endSession, profile };
}

/** The web-session verbs, as the accounts service hands them on. */
export type WebSessions = ReturnType<typeof createWebSessions>;
