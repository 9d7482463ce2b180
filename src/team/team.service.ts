import type { FastifyBaseLogger } from 'fastify';
import type { CredentialCache } from '../auth/credential-cache';
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import type { Mailer } from '../mail/mailer';
import { createInvitationDelivery, type TeamWorkspaces } from './invitation-delivery';
import { createMemberChanges } from './member-changes';
import { createTeamInvitations } from './team-invitations';
import * as repo from './team.repo';

export type { IssuedInvitation } from './invitation-delivery';

/** What the team service is built from: the kernel, APP_URL, INVITATION_TTL and the workspaces port. */
export interface TeamDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  mailer: Mailer;
  appUrl: string;
  invitationTtlMs: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
  workspaces: TeamWorkspaces;
  /** Where the list is read (the replica when fit, db/read-replica.ts); absent: `database`. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/**
 * A workspace's members, gathered for the routes: the list here, invitations in team-invitations.ts,
 * role changes and removal in member-changes.ts, the e-mail in invitation-delivery.ts.
 *
 * @example
 * const team = createTeamService({ ...kernel, appUrl, invitationTtlMs, workspaces: deps.workspaces.reader });
 * const { rows, total } = await team.list(auth, { limit: 20, offset: 0 });
 */
export function createTeamService(deps: TeamDeps) {
  const { db } = deps.database;
  const invitations = createTeamInvitations({ ...deps, issue: createInvitationDelivery(deps) });
  const changes = createMemberChanges(deps);

  /** One page of the workspace's members (joined and invited), oldest first, with the total. */
  async function list(auth: AuthContext, page: { limit: number; offset: number }) {
    return repo.listMembers(deps.reads?.reader(auth.workspaceId) ?? db, auth.workspaceId, page);
  }

  return {
    list,
    invite: invitations.invite,
    resendInvitation: invitations.resendInvitation,
    revokeInvitation: invitations.revokeInvitation,
    changeRole: changes.changeRole,
    remove: changes.remove,
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
