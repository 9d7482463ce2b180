// Invitations: issue one, send a new link, withdraw it before anyone joins.
import { newInvitationToken } from '../accounts/invitation-token';
import { normaliseEmail } from '../accounts/email-address';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext, Role } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { IssuedInvitation, IssueInvitation } from './invitation-delivery';
import * as repo from './team.repo';

/** What the invitation verbs are built from: `issue` sends the e-mail after the commit. */
export interface TeamInvitationsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  invitationTtlMs: number;
  issue: IssueInvitation;
}

/**
 * A workspace's invitations. A link is single-use, bound to the address and valid for INVITATION_TTL;
 * the e-mail goes out through `issue` after the commit.
 *
 * @example
 * const invitations = createTeamInvitations({ database, clock, invitationTtlMs, issue });
 * const { member, url } = await invitations.invite(auth, { email: 'grace@example.com', role: 'editor' }, actor);
 */
export function createTeamInvitations({ database, clock, invitationTtlMs, issue }: TeamInvitationsDeps) {
  const { db } = database;

  /**
   * Invites by e-mail: a single-use link, bound to the address, valid for INVITATION_TTL. The member stays
   * `invited` until someone holding that address follows the link and signs in or signs up.
   */
  async function invite(auth: AuthContext, input: { email: string; role: Role }, actor: Actor): Promise<IssuedInvitation> {
    const email = normaliseEmail(input.email);
    if (await repo.findMemberByEmail(db, auth.workspaceId, email)) {
      throw conflict(`${email} is already a member of this workspace (or invited)`);
    }
    const now = clock.now();
    const { token, digest } = newInvitationToken();
    const member = await db.transaction(async (tx) => {
      const created = await repo.insertMember(tx, {
        id: newId('member'),
        workspaceId: auth.workspaceId,
        email,
        role: input.role,
        status: 'invited',
        invitedById: auth.memberId,
        invitedAt: now,
        inviteTokenDigest: digest,
        inviteExpiresAt: new Date(now.getTime() + invitationTtlMs),
        createdAt: now,
        updatedAt: now,
      });
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'member.invited',
        data: { member_id: created.id, email, role: created.role, invited_by: auth.memberId },
      });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'member.invited',
        target: { type: 'member', id: created.id, label: email },
        changes: { role: created.role },
      });
      return created;
    });
    return issue(auth, member, token);
  }

  async function findPending(auth: AuthContext, id: string) {
    const found = await repo.findMember(db, auth.workspaceId, id);
    if (!found) throw notFound('Team member');
    if (found.member.status !== 'invited') {
      throw conflict(`${found.member.email} has already joined: there is no pending invitation`);
    }
    return found.member;
  }

  /** A new link (the previous one stops working at once), a fresh validity period, and the e-mail again. */
  async function resendInvitation(auth: AuthContext, id: string, actor: Actor): Promise<IssuedInvitation> {
    await findPending(auth, id);
    const now = clock.now();
    const { token, digest } = newInvitationToken();
    const member = await db.transaction(async (tx) => {
      const updated = await repo.updatePendingMember(tx, id, {
        inviteTokenDigest: digest,
        inviteExpiresAt: new Date(now.getTime() + invitationTtlMs),
        invitedAt: now,
        invitedById: auth.memberId,
        inviteEmailStatus: null,
        inviteEmailError: null,
        updatedAt: now,
      });
      if (!updated) throw conflict('This invitation was accepted meanwhile: there is nothing to resend');
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'invitation.resent',
        target: { type: 'member', id, label: updated.email },
        changes: { expires_at: updated.inviteExpiresAt?.toISOString() ?? null },
      });
      return updated;
    });
    return issue(auth, member, token);
  }

  /** Withdraws a pending invitation: its link dies with the member row it would have activated. */
  async function revokeInvitation(auth: AuthContext, id: string, actor: Actor) {
    const pending = await findPending(auth, id);
    await db.transaction(async (tx) => {
      await repo.deletePendingMember(tx, id);
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'invitation.revoked',
        target: { type: 'member', id, label: pending.email },
        changes: { role: pending.role },
      });
    });
  }

  return { invite, resendInvitation, revokeInvitation };
}

/** The invitation verbs, as the team service hands them on. */
export type TeamInvitations = ReturnType<typeof createTeamInvitations>;
