// A membership as accounts answers it: the members row (accounts') with its workspace (asked of workspaces).
import type { Executor } from '../db/client';
import type { WorkspaceRow, WorkspacesReader } from '../workspaces/workspaces.reader';
import type { MemberRow } from './accounts.repo';

/**
 * What accounts asks of the workspaces domain: make a user's first workspace at sign-up, and name the
 * workspaces of memberships. The accounts module passes the workspaces module's `reader`.
 */
export type AccountWorkspaces = Pick<WorkspacesReader, 'find' | 'byIds' | 'create'>;

/** An active membership with its workspace. */
export interface Membership {
  member: MemberRow;
  workspace: WorkspaceRow;
}

/**
 * Pairs members rows with their workspaces in one query, keeping the rows' order. A row whose workspace
 * is gone (deleted since; the foreign key cascades) is left out.
 *
 * @example
 * const memberships = await withWorkspaces(workspaces, await repo.activeMembersOfUser(db, userId));
 */
export async function withWorkspaces(
  workspaces: Pick<AccountWorkspaces, 'byIds'>,
  members: MemberRow[],
  executor?: Executor,
): Promise<Membership[]> {
  const found = await workspaces.byIds(
    members.map((m) => m.workspaceId),
    executor,
  );
  return members.flatMap((member) => {
    const workspace = found.get(member.workspaceId);
    return workspace ? [{ member, workspace }] : [];
  });
}
