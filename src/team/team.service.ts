import { insertMember } from '../accounts/accounts.repo';
import { normaliseEmail } from '../accounts/accounts.service';
import type { CredentialCache } from '../auth/credential-cache';
import type { AuthContext, Role } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { Mailer } from '../mail/mailer';
import * as repo from './team.repo';

export interface TeamDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  mailer: Mailer;
  appUrl: string;
}

export function createTeamService({ database, clock, credentials, mailer, appUrl }: TeamDeps) {
  const { db } = database;

  async function list(auth: AuthContext, page: { limit: number; offset: number }) {
    return repo.listMembers(db, auth.workspaceId, page);
  }

  /**
   * Invites by e-mail. The member is `invited` until someone signs up or signs in with that address,
   * which makes them `active`.
   */
  async function invite(auth: AuthContext, input: { email: string; role: Role }) {
    const email = normaliseEmail(input.email);
    if (await repo.findMemberByEmail(db, auth.workspaceId, email)) {
      throw conflict(`${email} is already a member of this workspace (or invited)`);
    }
    const now = clock.now();
    const member = await db.transaction(async (tx) => {
      const created = await insertMember(tx, {
        id: newId('member'),
        workspaceId: auth.workspaceId,
        email,
        role: input.role,
        status: 'invited',
        invitedById: auth.memberId,
        createdAt: now,
        updatedAt: now,
      });
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'member.invited',
        data: { member_id: created.id, email, role: created.role, invited_by: auth.memberId },
      });
      return created;
    });
    await mailer
      .send({
        to: email,
        subject: 'You are invited to a Demoshare workspace',
        text: `You have been invited to join a workspace on Demoshare as ${input.role}.\n\nSign up or sign in with this address to accept: ${appUrl}/signup?email=${encodeURIComponent(email)}\n`,
      })
      .catch(() => {});
    return { member, name: null };
  }

  async function changeRole(auth: AuthContext, id: string, role: Role) {
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
      return { member: member!, name: found.name };
    });
    await credentials.invalidate(`member:${id}`);
    return updated;
  }

  async function remove(auth: AuthContext, id: string) {
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
    });
    await credentials.invalidate(`member:${id}`);
  }

  return { list, invite, changeRole, remove };
}

export type TeamService = ReturnType<typeof createTeamService>;
