// Accepting an invitation: find the live one, check the address it was sent to, claim it in one statement.
import { type RequestOrigin, userActor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { Clock } from '../core/clock';
import { AppError } from '../core/errors';
import type { Database, Executor } from '../db/client';
import * as repo from './accounts.repo';
import { normaliseEmail } from './email-address';
import { invitationDigest } from './invitation-token';
import type { AccountWorkspaces } from './memberships';

/** What the invitation steps are built from: the workspaces port names an invitation's workspace. */
export interface InvitationAcceptanceDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  workspaces: Pick<AccountWorkspaces, 'find'>;
}

/**
 * Invitations are accepted in small steps: find the live invitation, check the address it was sent to,
 * then claim it in one statement that only succeeds while the token is still unused and unexpired. Sign-up
 * and sign-in use the steps inside their own transactions; `accept` is the signed-in user's whole flow.
 *
 * @example
 * const invitations = createInvitationAcceptance({ database, clock, workspaces });
 * const { workspace } = await invitations.accept(token, { id: user.id, email: user.email }, origin);
 */
export function createInvitationAcceptance(deps: InvitationAcceptanceDeps) {
  const { clock, workspaces } = deps;
  const { db } = deps.database;

  /** The pending invitation behind `token`, with its workspace: 404 when unknown, used or revoked; 410 when expired. */
  async function findLive(executor: Executor, token: string) {
    const found = await repo.findInvitation(executor, invitationDigest(token));
    const workspace = found && (await workspaces.find(found.member.workspaceId, executor));
    if (!found || !workspace) {
      throw new AppError('not_found', 'This invitation link is not valid: it was used, revoked or replaced by a newer one');
    }
    if (!found.member.inviteExpiresAt || found.member.inviteExpiresAt <= clock.now()) {
      throw new AppError('gone', 'This invitation has expired: ask an admin of the workspace to send a new one');
    }
    return { ...found, workspace };
  }

  /** 403 unless `email` is the address the invitation was sent to. */
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
  async function preview(token: string) {
    return findLive(db, token);
  }

  /**
   * Joins the invitation's workspace as `user`, who must hold the invited address. The link came to that
   * address, so following it also verifies it.
   */
  async function accept(token: string, user: { id: string; email: string }, origin: RequestOrigin) {
    return db.transaction(async (tx) => {
      const invitation = await findLive(tx, token);
      assertInvitedAddress(invitation, user.email);
      const member = await claim(tx, token, user.id, invitation.workspace.id, origin);
      await repo.verifyUserEmail(tx, user.id, clock.now());
      return { member, workspace: invitation.workspace };
    });
  }

  return { findLive, assertInvitedAddress, claim, preview, accept };
}

/** The invitation steps sign-up and sign-in share, and the signed-in user's accept. */
export type InvitationAcceptance = ReturnType<typeof createInvitationAcceptance>;
