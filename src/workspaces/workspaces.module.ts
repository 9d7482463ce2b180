import { defineModule } from '../module';
import { workspacesRoutes } from './workspaces.routes';
import { createWorkspacesService, type WorkspacesService } from './workspaces.service';

declare module '../module' {
  interface Services {
    workspaces: { workspaces: WorkspacesService };
  }
}

/**
 * A workspace's own settings: name, branding for its share pages and players, and share-link defaults.
 * The workspaces table itself belongs to accounts (a workspace is made with its first account).
 */
export const workspacesModule = defineModule({
  name: 'workspaces',
  owns: { tables: 'workspaces.tables.ts', permissions: ['workspace.read', 'workspace.manage'] },
  create: (kernel) => ({ workspaces: createWorkspacesService(kernel) }),
  routes: workspacesRoutes,
});
