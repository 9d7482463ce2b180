import { defineModule } from '../module';
import { teamRoutes } from './team.routes';
import { createTeamService, type TeamService } from './team.service';

declare module '../module' {
  interface Services {
    team: { team: TeamService };
  }
}

/** A workspace's members: invitations, roles, removal (on the accounts tables). */
export const teamModule = defineModule({
  name: 'team',
  owns: { permissions: ['team.read', 'team.write'], events: ['member.invited'] },
  create: (kernel) => ({
    team: createTeamService({
      ...kernel,
      appUrl: kernel.config.APP_URL,
      invitationTtlMs: kernel.config.INVITATION_TTL,
    }),
  }),
  routes: teamRoutes,
});
