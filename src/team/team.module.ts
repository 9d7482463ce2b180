import { members, users } from '../accounts/accounts.tables';
import { defineModule } from '../module';
import { teamRoutes } from './team.routes';
import { createTeamService, type TeamService } from './team.service';

declare module '../module' {
  interface Services {
    team: { team: TeamService };
  }
}

/**
 * A workspace's members: invitations, roles, removal. The members and users tables are accounts'; team
 * queries them from the workspace's side (its repository), and asks workspaces' reader for the name.
 *
 * @example
 * // app.ts lists it once; its routes call ctx.services.team.team:
 * await ctx.services.team.team.invite(auth, { email, role: 'editor' }, actorOf(request));
 */
export const teamModule = defineModule({
  name: 'team',
  owns: { permissions: ['team.read', 'team.write'], events: ['member.invited'] },
  // A workspace's member list is the members table seen from the workspace (with the users' names).
  reads: { tables: [members, users] },
  needs: ['workspaces'],
  create: (kernel, deps) => ({
    team: createTeamService({
      ...kernel,
      appUrl: kernel.config.APP_URL,
      invitationTtlMs: kernel.config.INVITATION_TTL,
      workspaces: deps.workspaces.reader,
    }),
  }),
  routes: teamRoutes,
});
