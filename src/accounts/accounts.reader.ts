import type { Database } from '../db/client';
import * as repo from './accounts.repo';
import { type AccountWorkspaces, withWorkspaces } from './memberships';

export type { MemberRow, UserRow } from './accounts.repo';
export type { Membership } from './memberships';

/** What the accounts reader is built from. */
export interface AccountsReaderDeps {
  database: Pick<Database, 'db'>;
  workspaces: Pick<AccountWorkspaces, 'byIds'>;
}

/**
 * What other domains may ask of accounts about memberships, and nothing more: oauth (whom a grant acts
 * as), the command line, and the accounts routes take these functions from the accounts module's `reader`
 * (named in their module's `needs`) instead of importing the repository.
 *
 * @example
 * // in another module: needs: ['accounts'], then
 * const member = await deps.accounts.reader.findActiveMember(workspaceId, userId);
 * if (!member) throw notFound('Workspace');
 */
export function createAccountsReader({ database, workspaces }: AccountsReaderDeps) {
  const { db } = database;
  return {
    /** The user's active membership of the workspace; undefined when invited only, removed or never a member. */
    findActiveMember: (workspaceId: string, userId: string) => repo.findActiveMember(db, workspaceId, userId),
    /** The workspaces a user is an active member of, oldest membership first, each with its workspace. */
    membershipsOfUser: async (userId: string) => withWorkspaces(workspaces, await repo.activeMembersOfUser(db, userId)),
    /** The same for the user with this (normalised) address: empty when there is no such user. */
    membershipsByEmail: async (email: string) => withWorkspaces(workspaces, await repo.activeMembersByEmail(db, email)),
  };
}

/** The accounts module's `reader`: membership lookups for other domains. */
export type AccountsReader = ReturnType<typeof createAccountsReader>;
