import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import * as repo from './workspaces.repo';

export type { WorkspaceRow } from './workspaces.repo';

/**
 * What other domains may ask of workspaces, and nothing more: accounts makes a workspace at sign-up and
 * names the workspaces of its memberships, demos locks the row to count across it, team names it in an
 * invitation. They take it as the workspaces module's `reader` (named in their module's `needs`) instead
 * of reading the workspaces table.
 *
 * @example
 * // in another module: needs: ['workspaces'], then, inside a transaction
 * await deps.workspaces.reader.lock(tx, workspaceId); // count-then-act holds until tx ends
 */
export function createWorkspacesReader(database: Pick<Database, 'db'>) {
  const { db } = database;
  return {
    /** A workspace by id; undefined when there is none. Pass `tx` to read inside a transaction. */
    find: (id: string, executor: Executor = db) => repo.findWorkspace(executor, id),
    /** The workspaces of `ids` that exist, by id. */
    byIds: async (ids: readonly string[], executor: Executor = db) =>
      new Map((await repo.findWorkspaces(executor, [...new Set(ids)])).map((w) => [w.id, w])),
    /**
     * Locks the workspace row until `tx` ends and returns it: one lock for every check that counts across
     * the workspace, so two requests cannot both pass it.
     */
    lock: (tx: Executor, id: string) => repo.lockWorkspace(tx, id),
    /** Makes a workspace in `tx` (the sign-up's: a workspace never exists without its first admin). */
    create: (tx: Executor, workspace: { name: string; createdAt: Date }) =>
      repo.insertWorkspace(tx, { id: newId('workspace'), ...workspace }),
  };
}

/** The workspaces module's `reader`: its row for other domains (find, lock, create at sign-up). */
export type WorkspacesReader = ReturnType<typeof createWorkspacesReader>;
