// A member's role changed, or the member removed, keeping at least one admin in the workspace.
import { tags } from '../core/changes';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { CredentialCache } from '../auth/credential-cache';
import type { AuthContext, Role } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import type { Database } from '../db/client';
import * as repo from './team.repo';

/** What role changes and removals are built from. */
export interface MemberChangesDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  credentials: Pick<CredentialCache, 'invalidate'>;
}

/**
 * Role changes and removals. The active admins are locked before the last-admin check, so two demotions
 * cannot both pass it; the member's cached credentials are dropped after the commit.
 *
 * @example
 * const changes = createMemberChanges({ database, clock, credentials });
 * await changes.changeRole(auth, memberId, 'viewer', actor);
 */
export function createMemberChanges({ database, clock, credentials }: MemberChangesDeps) {
  const { db } = database;

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

  return { changeRole, remove };
}

/** The member-change verbs, as the team service hands them on. */
export type MemberChanges = ReturnType<typeof createMemberChanges>;
