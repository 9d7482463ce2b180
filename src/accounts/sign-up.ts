// Sign-up: a new user with a workspace of their own (and an invitation's workspace too, when given one).
import type { RequestOrigin } from '../audit/actor';
import type { Clock } from '../core/clock';
import { hashPassword } from '../core/crypto';
import { conflict } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { type AccountLinkDeps, sendAccountLink } from './account-links';
import * as repo from './accounts.repo';
import { normaliseEmail } from './email-address';
import type { InvitationAcceptance } from './invitation-acceptance';
import type { AccountWorkspaces } from './memberships';
import { opensTo, type SignupPolicy, signupRefused } from './signup-policy';

/** What sign-up is built from: the kernel's database and clock, the SIGNUP policy, and the ports to workspaces and invitations. */
export interface SignUpDeps extends AccountLinkDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  signup: SignupPolicy;
  workspaces: Pick<AccountWorkspaces, 'create'>;
  invitations: Pick<InvitationAcceptance, 'findLive' | 'assertInvitedAddress' | 'claim'>;
}

/** A sign-up as the routes and the CLI give it. */
export interface NewAccount {
  email: string;
  password: string;
  name?: string;
  workspaceName?: string;
  /** Join the workspace of this invitation too: only with the address it was sent to. */
  invitationToken?: string;
  /** The operator vouches for the address (`demoshare users create`): no verification link is sent, and SIGNUP does not apply. */
  verifiedByOperator?: boolean;
}

/** A request with no origin: the command line. */
export const NO_ORIGIN: RequestOrigin = { ip: null, userAgent: null };

/**
 * Sign-up under the SIGNUP policy.
 *
 * @example
 * const signUp = createSignUp({ ...kernel, ...links, signup, workspaces, invitations });
 * const { user, workspace } = await signUp.createAccount({ email, password, name: 'Ada' }, origin);
 */
export function createSignUp(deps: SignUpDeps) {
  const { clock, signup, workspaces, invitations } = deps;
  const { db } = deps.database;

  /**
   * Lets in a sign-up without an invitation, under SIGNUP: any address when open, one of the listed domains,
   * or anyone while the server has no account (its operator's first, made from the browser).
   */
  async function admit(tx: Executor, email: string) {
    if (opensTo(signup, email)) return;
    await repo.lockFirstAccount(tx);
    if (await repo.anyUser(tx)) throw signupRefused(signup);
  }

  /** Who may sign up here, and whether the server is still empty (so the first sign-up is open). */
  async function signupPolicy() {
    return { ...signup, firstAccount: !(await repo.anyUser(db)) };
  }

  /**
   * Creates a user with a workspace of their own, as its admin. With an invitation token (for the same
   * address) the user also joins that workspace, in the same transaction: a bad token creates nothing.
   * Without one, no invitation is ever accepted: being invited is not proof of owning the address, and a
   * verification link is e-mailed; with one, the address is verified (the invitation link reached it).
   */
  async function createAccount(input: NewAccount, origin: RequestOrigin = NO_ORIGIN) {
    const email = normaliseEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    return db.transaction(async (tx) => {
      const invitation = input.invitationToken ? await invitations.findLive(tx, input.invitationToken) : undefined;
      if (invitation) invitations.assertInvitedAddress(invitation, email);
      // Before the 409: a closed server answers every refused address alike, taken or not.
      if (!invitation && !input.verifiedByOperator) await admit(tx, email);
      if (await repo.findUserByEmail(tx, email)) throw conflict('An account with this e-mail address already exists');
      const now = clock.now();
      const user = await repo.insertUser(tx, {
        id: newId('user'),
        email,
        name: input.name?.trim() ?? '',
        passwordHash,
        emailVerifiedAt: invitation || input.verifiedByOperator ? now : null,
        createdAt: now,
        updatedAt: now,
      });
      const workspace = await workspaces.create(tx, {
        name: input.workspaceName?.trim() || `${user.name || email.split('@')[0]}'s workspace`,
        createdAt: now,
      });
      const member = await repo.insertMember(tx, {
        id: newId('member'),
        workspaceId: workspace.id,
        userId: user.id,
        email,
        role: 'admin',
        status: 'active',
        joinedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      if (invitation && input.invitationToken) {
        const joined = await invitations.claim(tx, input.invitationToken, user.id, invitation.workspace.id, origin);
        return { user, workspace: invitation.workspace, member: joined };
      }
      if (!user.emailVerifiedAt) await sendAccountLink(deps, tx, 'verify_email', user, email);
      return { user, workspace, member };
    });
  }

  return { signupPolicy, createAccount };
}

/** Sign-up's verbs, as the accounts service hands them on. */
export type SignUp = ReturnType<typeof createSignUp>;
