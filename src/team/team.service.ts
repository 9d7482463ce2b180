import { tags } from '../core/changes';
import type { FastifyBaseLogger } from 'fastify';
import { insertMember, type MemberRow } from '../accounts/accounts.repo';
import { normaliseEmail } from '../accounts/accounts.service';
import { invitationUrl, newInvitationToken } from '../accounts/invitation-token';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { CredentialCache } from '../auth/credential-cache';
import type { AuthContext, Role } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { Mailer } from '../mail/mailer';
import { invitationMail } from './invitation-mail';
import * as repo from './team.repo';

export interface TeamDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  mailer: Mailer;
  appUrl: string;
  invitationTtlMs: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** An invitation just issued: the member row, and the link when no e-mail will carry it. */
export interface IssuedInvitation {
  member: MemberRow;
  name: string | null;
  /** Only when e-mail is not configured: the admin passes the link on. */
  url?: string;
}

export function createTeamService({ database, clock, credentials, mailer, appUrl, invitationTtlMs, log }: TeamDeps) {
  const { db } = database;

  async function list(auth: AuthContext, page: { limit: number; offset: number }) {
    return repo.listMembers(db, auth.workspaceId, page);
  }

  /**
   * E-mails the link and records what happened on the member row, where the admin sees a failure. The
   * invitation stands either way: the admin can resend it.
   */
  async function deliver(auth: AuthContext, member: MemberRow, token: string): Promise<MemberRow> {
    const context = await repo.invitationContext(db, auth.workspaceId, auth.memberId);
    const mail = invitationMail({
      to: member.email,
      url: invitationUrl(appUrl, token),
      workspaceName: context?.workspaceName ?? 'a workspace',
      inviter: { name: context?.inviterName ?? '', email: context?.inviterEmail ?? 'An admin' },
      role: member.role,
      expiresAt: member.inviteExpiresAt!,
    });
    let outcome: Pick<MemberRow, 'inviteEmailStatus' | 'inviteEmailError'>;
    try {
      await mailer.send(mail);
      outcome = { inviteEmailStatus: mailer.delivers ? 'sent' : 'not_configured', inviteEmailError: null };
    } catch (error) {
      log.warn({ err: error, member_id: member.id }, 'invitation e-mail not sent');
      outcome = { inviteEmailStatus: 'failed', inviteEmailError: String((error as Error).message ?? error).slice(0, 300) };
    }
    return (await repo.updateMember(db, member.id, outcome)) ?? member;
  }

  async function issue(auth: AuthContext, member: MemberRow, token: string): Promise<IssuedInvitation> {
    const delivered = await deliver(auth, member, token);
    return { member: delivered, name: null, url: mailer.delivers ? undefined : invitationUrl(appUrl, token) };
  }

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
      const created = await insertMember(tx, {
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

  async function changeRole(auth: AuthContext, id: string, role: Role, actor: Actor) {
    const updated = await db.transaction(async (tx) => {
      const found = await repo.findMember(tx, auth.workspaceId, id);
      if (!found) throw notFound('Team member');
      if (found.member.role === 'admin' && role !== 'admin') {
        const admins = await repo.lockActiveAdmins(tx, auth.workspaceId);
        if (admins.length <= 1 && admins.includes(id)) {
          throw conflict('A workspace keeps at least one admin: promote someone else first');
        }
      }
      const member = await repo.updateMember(tx, id, { role, updatedAt: clock.now() });
      if (found.member.role !== role) {
        await recordAudit(tx, clock, actor, {
          workspaceId: auth.workspaceId,
          action: 'member.role_changed',
          target: { type: 'member', id, label: found.member.email },
          changes: { role: { from: found.member.role, to: role } },
        });
      }
      return { member: member!, name: found.name };
    });
    await credentials.invalidate(tags.member(id));
    return updated;
  }

  async function remove(auth: AuthContext, id: string, actor: Actor) {
    await db.transaction(async (tx) => {
      const found = await repo.findMember(tx, auth.workspaceId, id);
      if (!found) throw notFound('Team member');
      if (found.member.role === 'admin') {
        const admins = await repo.lockActiveAdmins(tx, auth.workspaceId);
        if (admins.length <= 1 && admins.includes(id)) {
          throw conflict('A workspace keeps at least one admin: the last admin cannot be removed');
        }
      }
      await repo.deleteMember(tx, id);
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'member.removed',
        target: { type: 'member', id, label: found.member.email },
        changes: { role: found.member.role, status: found.member.status },
      });
    });
    await credentials.invalidate(tags.member(id));
  }

  return { list, invite, resendInvitation, revokeInvitation, changeRole, remove };
}

export type TeamService = ReturnType<typeof createTeamService>;
