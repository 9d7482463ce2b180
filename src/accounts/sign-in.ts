// Sign-in: e-mail and password checked, the workspace the session will act in chosen.
import { type RequestOrigin, userActor } from '../audit/actor';
import type { Clock } from '../core/clock';
import { verifyPassword } from '../core/crypto';
import { AppError, notFound } from '../core/errors';
import type { Database } from '../db/client';
import { recordAccountEvent } from './account-audit';
import type { AccountsReader } from './accounts.reader';
import * as repo from './accounts.repo';
import { normaliseEmail } from './email-address';
import type { InvitationAcceptance } from './invitation-acceptance';
import { NO_ORIGIN } from './sign-up';

/** What sign-in is built from: the invitation steps and the membership lookup besides the kernel. */
export interface SignInDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  invitations: Pick<InvitationAcceptance, 'accept'>;
  memberships: Pick<AccountsReader, 'membershipsOfUser'>;
}

// Verified against when the e-mail is unknown, so that a wrong address costs as long as a wrong password.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$jWW3Mo1HW9Cx273YJMQ+CA$nH4YCe/gO8fDX67ssqmXUWfSjnCAzja8M1lEZXcDXxs';

/**
 * Checks e-mail and password; the same error whichever of the two is wrong. The session acts in
 * `workspaceId` when given (a 404 unless the user is an active member of it), else in the user's oldest
 * membership. With an invitation token the user first joins that workspace, and the session acts there.
 *
 * @example
 * const verifyCredentials = createSignIn({ database, clock, invitations, memberships: reader });
 * const { user, workspace } = await verifyCredentials('ada@example.com', password, { origin });
 */
export function createSignIn(deps: SignInDeps) {
  const { clock, invitations, memberships } = deps;
  const { db } = deps.database;

  return async function verifyCredentials(
    emailInput: string,
    password: string,
    options: { workspaceId?: string; invitationToken?: string; origin?: RequestOrigin } = {},
  ) {
    const origin = options.origin ?? NO_ORIGIN;
    const user = await repo.findUserByEmail(db, normaliseEmail(emailInput));
    const valid = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
    if (user && !valid) {
      // An unknown address belongs to no workspace, so only a known account's failures are recorded.
      await db.transaction((tx) =>
        recordAccountEvent(tx, clock, userActor(origin, user.id), user.id, {
          action: 'user.sign_in_failed',
          target: { type: 'user', id: user.id, label: user.email },
        }),
      );
    }
    if (!user || !valid) throw new AppError('unauthorized', 'Wrong e-mail address or password');
    let workspaceId = options.workspaceId;
    if (options.invitationToken) {
      workspaceId = (await invitations.accept(options.invitationToken, user, origin)).workspace.id;
    }
    const found = await memberships.membershipsOfUser(user.id);
    const chosen = workspaceId ? found.find((m) => m.workspace.id === workspaceId) : found[0];
    if (!chosen) {
      if (workspaceId) throw notFound('Workspace');
      throw new AppError('forbidden', 'This account is not a member of any workspace');
    }
    return { user, workspace: chosen.workspace, member: chosen.member };
  };
}

/** Sign-in's one verb: credentials in, the user and the membership the session acts as out. */
export type VerifyCredentials = ReturnType<typeof createSignIn>;
