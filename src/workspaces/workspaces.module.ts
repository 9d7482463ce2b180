import { defineModule } from '../module';
import { createWorkspacesReader, type WorkspacesReader } from './workspaces.reader';
import { workspacesRoutes } from './workspaces.routes';
import { createWorkspacesService, type WorkspacesService } from './workspaces.service';

declare module '../module' {
  interface Services {
    /** `reader` is what other modules may ask of workspaces (find, lock, create at sign-up). */
    workspaces: { workspaces: WorkspacesService; reader: WorkspacesReader };
  }
}

/**
 * Workspaces: the workspaces row and its settings (name, branding for share pages and players, share-link
 * defaults). Accounts makes one with its first account through `reader.create`; accounts' tables refer to
 * it by foreign key, so this folder imports nothing of accounts.
 *
 * @example
 * // another module reads a workspace through the reader, never the table:
 * defineModule({ name: 'demos', needs: ['workspaces'], create: (kernel, deps) => ({ ... deps.workspaces.reader ... }) });
 */
export const workspacesModule = defineModule({
  name: 'workspaces',
  owns: { tables: 'workspaces.tables.ts', ids: ['workspace'], permissions: ['workspace.read', 'workspace.manage'] },
  create: (kernel) => ({
    workspaces: createWorkspacesService(kernel),
    reader: createWorkspacesReader(kernel.database),
  }),
  routes: workspacesRoutes,
});
