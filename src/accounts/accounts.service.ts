import { tags } from '../core/changes';
import { type RequestOrigin, userActor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import { type CachedCredential, type CredentialCache, touchIfStale } from '../auth/credential-cache';
import { SCOPES, type Role } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../core/crypto';
import { AppError, conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { recordAccountEvent } from './account-audit';
import { type AccountLinkDeps, sendAccountLink } from './account-links';
import * as repo from './accounts.repo';
import { describeDevice } from './device';
import { invitationDigest } from './invitation-token';
import { opensTo, type SignupPolicy, signupRefused } from './signup-policy';

export interface AccountsDeps extends AccountLinkDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  sessionTtlMs: number;
  signup: SignupPolicy;
}

/** A session's last use is written at most this often: the sessions list needs minutes, not every request. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

export interface NewAccount {
  email: string;
  password: string;
  name?: string;
  workspaceName?: string;
  /** Join the workspace of this invitation too: only with the address it was sent to. */
  invitationToken?: string;
  /** The operator vouches for the address (`demoshare users create`): no verification link is sent, and SIGNUP does not apply. */
  verifiedByOperator?: boolean;
}

export interface StartedSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
  userId: string;
  workspaceId: string;
}

// Verified against when the e-mail is unknown, so that a wrong address costs as long as a wrong password.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$jWW3Mo1HW9Cx273YJMQ+CA$nH4YCe/gO8fDX67ssqmXUWfSjnCAzja8M1lEZXcDXxs';

/** A request with no origin: the command line. */
const NO_ORIGIN: RequestOrigin = { ip: null, userAgent: null };

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function createAccountsService(deps: AccountsDeps) {
  const { database, clock, credentials, sessionTtlMs, signup } = deps;
  const { db } = database;

  // Invitations are accepted in small steps: find the live invitation, check the address it was sent to,
  // then claim it in one statement that only succeeds while the token is still unused and unexpired.

  /** The pending invitation behind `token`: 404 when unknown, used or revoked; 410 when expired. */
  async function findLiveInvitation(executor: Executor, token: string) {
    const found = await repo.findInvitation(executor, invitationDigest(token));
    if (!found) throw new AppError('not_found', 'This invitation link is not valid: it was used, revoked or replaced by a newer one');
    if (!found.member.inviteExpiresAt || found.member.inviteExpiresAt <= clock.now()) {
      throw new AppError('gone', 'This invitation has expired: ask an admin of the workspace to send a new one');
    }
    return found;
  }

  function assertInvitedAddress(invitation: { member: { email: string } }, email: string) {
    if (invitation.member.email !== normaliseEmail(email)) {
      throw new AppError(
        'forbidden',
        `This invitation was sent to ${invitation.member.email}: sign in or sign up with that address to accept it`,
      );
    }
  }

  /** Claims the invitation for `userId` and records the join in the workspace's audit log. */
  async function claim(executor: Executor, token: string, userId: string, workspaceId: string, origin: RequestOrigin) {
    const member = await repo.claimInvitation(executor, invitationDigest(token), userId, clock.now());
    if (!member) throw new AppError('not_found', 'This invitation link is not valid: it was used, revoked or replaced by a newer one');
    await recordAudit(executor, clock, userActor(origin, userId), {
      workspaceId,
      action: 'member.joined',
      target: { type: 'member', id: member.id, label: member.email },
      changes: { role: member.role },
    });
    return member;
  }

  /** What the accept page shows: the workspace, who invited, the address and role; nothing is changed. */
  async function previewInvitation(token: string) {
    return findLiveInvitation(db, token);
  }

  /**
   * Joins the invitation's workspace as `user`, who must hold the invited address. The link came to that
   * address, so following it also verifies it.
   */
  async function acceptInvitation(token: string, user: { id: string; email: string }, origin: RequestOrigin) {
    return db.transaction(async (tx) => {
      const invitation = await findLiveInvitation(tx, token);
      assertInvitedAddress(invitation, user.email);
      const member = await claim(tx, token, user.id, invitation.workspace.id, origin);
      const now = clock.now();
      await repo.verifyUserEmail(tx, user.id, now);
      return { member, workspace: invitation.workspace };
    });
  }

  /**
   * Lets in a sign-up without an invitation, under SIGNUP: any address when open, one of the listed domains,
   * or anyone while the server has no account (its operator's first, made from the browser).
   */
  async function admit(tx: Executor, email: string) {
    if (opensTo(signup, email)) return;
    await repo.lockFirstAccount(tx);
    if (await repo.anyUser(tx)) throw signupRefused(signup);
  }

  /** Who may sign up here, and whether the server is still empty (so the first sign-up is open). */
  async function signupPolicy() {
    return { ...signup, firstAccount: !(await repo.anyUser(db)) };
  }

  /**
   * Creates a user with a workspace of their own, as its admin. With an invitation token (for the same
   * address) the user also joins that workspace, in the same transaction: a bad token creates nothing.
   * Without one, no invitation is ever accepted: being invited is not proof of owning the address, and a
   * verification link is e-mailed; with one, the address is verified (the invitation link reached it).
   */
  async function createAccount(input: NewAccount, origin: RequestOrigin = NO_ORIGIN) {
    const email = normaliseEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    return db.transaction(async (tx) => {
      const invitation = input.invitationToken ? await findLiveInvitation(tx, input.invitationToken) : undefined;
      if (invitation) assertInvitedAddress(invitation, email);
      // Before the 409: a closed server answers every refused address alike, taken or not.
      if (!invitation && !input.verifiedByOperator) await admit(tx, email);
      if (await repo.findUserByEmail(tx, email)) throw conflict('An account with this e-mail address already exists');
      const now = clock.now();
      const user = await repo.insertUser(tx, {
        id: newId('user'),
        email,
        name: input.name?.trim() ?? '',
        passwordHash,
        emailVerifiedAt: invitation || input.verifiedByOperator ? now : null,
        createdAt: now,
        updatedAt: now,
      });
      const workspace = await repo.insertWorkspace(tx, {
        id: newId('workspace'),
        name: input.workspaceName?.trim() || `${user.name || email.split('@')[0]}'s workspace`,
        createdAt: now,
      });
      const member = await repo.insertMember(tx, {
        id: newId('member'),
        workspaceId: workspace.id,
        userId: user.id,
        email,
        role: 'admin',
        status: 'active',
        joinedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      if (invitation && input.invitationToken) {
        const joined = await claim(tx, input.invitationToken, user.id, invitation.workspace.id, origin);
        return { user, workspace: invitation.workspace, member: joined };
      }
      if (!user.emailVerifiedAt) await sendAccountLink(deps, tx, 'verify_email', user, email);
      return { user, workspace, member };
    });
  }

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

  /**
   * Checks e-mail and password; the same error whichever of the two is wrong. The session acts in
   * `workspaceId` when given (a 404 unless the user is an active member of it), else in the user's oldest
   * membership. With an invitation token the user first joins that workspace, and the session acts there.
   */
  async function verifyCredentials(
    emailInput: string,
    password: string,
    options: { workspaceId?: string; invitationToken?: string; origin?: RequestOrigin } = {},
  ) {
    const origin = options.origin ?? NO_ORIGIN;
    const user = await repo.findUserByEmail(db, normaliseEmail(emailInput));
    const valid = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
    if (user && !valid) {
      // An unknown address belongs to no workspace, so only a known account's failures are recorded.
      await db.transaction((tx) =>
        recordAccountEvent(tx, clock, userActor(origin, user.id), user.id, {
          action: 'user.sign_in_failed',
          target: { type: 'user', id: user.id, label: user.email },
        }),
      );
    }
    if (!user || !valid) throw new AppError('unauthorized', 'Wrong e-mail address or password');
    let workspaceId = options.workspaceId;
    if (options.invitationToken) {
      workspaceId = (await acceptInvitation(options.invitationToken, user, origin)).workspace.id;
    }
    const memberships = await repo.membershipsOfUser(db, user.id);
    const chosen = workspaceId ? memberships.find((m) => m.workspace.id === workspaceId) : memberships[0];
    if (!chosen) {
      if (workspaceId) throw notFound('Workspace');
      throw new AppError('forbidden', 'This account is not a member of any workspace');
    }
    return { user, workspace: chosen.workspace, member: chosen.member };
  }

  /** Moves a session to another workspace of the same user; API keys stay in the workspace they were made in. */
  async function switchWorkspace(sessionId: string, userId: string, workspaceId: string) {
    const member = await repo.findActiveMember(db, workspaceId, userId);
    if (!member) throw notFound('Workspace');
    await repo.updateSessionWorkspace(db, sessionId, workspaceId);
    await credentials.invalidate(tags.credential(sessionId));
  }


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

  async function profile(userId: string, workspaceId: string) {
    const user = await repo.findUserById(db, userId);
    const memberships = await repo.membershipsOfUser(db, userId);
    const current = memberships.find((m) => m.workspace.id === workspaceId);
    if (!user || !current) throw new AppError('unauthorized', 'Your session has expired: sign in again');
    return { user, workspace: current.workspace, member: current.member, memberships };
  }

  return {
    createAccount,
    signupPolicy,
    startSession,
    verifyCredentials,
    switchWorkspace,
    resolveSession,
    endSession,
    profile,
    previewInvitation,
    acceptInvitation,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
