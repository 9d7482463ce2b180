import type { Database } from '../db/client';
import * as repo from './accounts.repo';

export type { MemberRow, Membership, UserRow } from './accounts.repo';

/**
 * What other domains may ask of accounts about memberships, and nothing more: oauth (whom a grant acts
 * as), team and the command line take these functions from the accounts module's `reader` (named in
 * their module's `needs`) instead of importing the repository.
 *
 * @example
 * // in another module: needs: ['accounts'], then
 * const reader = deps.accounts.reader;
 * const member = await reader.findActiveMember(workspaceId, userId);
 * if (!member) throw notFound('Workspace');
 */
export function createAccountsReader(database: Pick<Database, 'db'>) {
  const { db } = database;
  return {
    /** The user's active membership of the workspace; undefined when invited only, removed or never a member. */
    findActiveMember: (workspaceId: string, userId: string) => repo.findActiveMember(db, workspaceId, userId),
    /** The workspaces a user is an active member of, oldest membership first, each with its workspace. */
    membershipsOfUser: (userId: string) => repo.membershipsOfUser(db, userId),
    /** The same for the user with this (normalised) address: empty when there is no such user. */
    membershipsByEmail: (email: string) => repo.membershipsByEmail(db, email),
  };
}

/** The accounts module's `reader`: membership lookups for other domains. */
export type AccountsReader = ReturnType<typeof createAccountsReader>;
