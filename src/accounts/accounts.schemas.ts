// Request and response schemas of accounts.routes.ts (sign-up, sign-in, sessions, invitations).
import { z } from 'zod';
import { WORKSPACE_NAME_MAX } from '../workspaces/workspace-name';
import { PERMISSION_NAMES, ROLES } from '../auth/permissions';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';
import type { WorkspaceRow } from '../workspaces/workspaces.reader';
import type { MemberRow, UserRow } from './accounts.repo';
import type { InvitationAcceptance } from './invitation-acceptance';
import { text, withoutNul } from '../core/text';
import { invitationTokenSchema } from './invitation-token';

export const email = withoutNul(z.email()).max(254).meta({ example: 'ada@example.com' });
export const password = text()
  .min(10, 'must be at least 10 characters')
  .max(256, 'must be at most 256 characters');

export const signupBody = z
  .object({
    email,
    password,
    name: text().trim().max(120).optional(),
    workspace_name: text().trim().min(1).max(WORKSPACE_NAME_MAX).optional(),
    invitation_token: invitationTokenSchema
      .optional()
      .meta({ description: 'Accept this invitation too (it must be for `email`): the session then acts in its workspace.' }),
  })
  .strict()
  .meta({
    examples: [
      { email: 'ada@example.com', password: 'correct-horse-battery', name: 'Ada Lovelace', workspace_name: 'Analytical Engines' },
      { email: 'grace@acme.com', password: 'lighthouse-42-harbour', name: 'Grace Hopper', invitation_token: 'Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA_e2Ku7Ro-Qw' },
    ],
  });

export const toSignupInput = (body: z.infer<typeof signupBody>) => ({
  email: body.email,
  password: body.password,
  name: body.name,
  workspaceName: body.workspace_name,
  invitationToken: body.invitation_token,
});

export const loginBody = z
  .object({
    email: text().max(254),
    password: text().max(256),
    workspace_id: idSchema('workspace')
      .optional()
      .meta({ description: 'Sign in to this workspace (default: the oldest membership).' }),
    invitation_token: invitationTokenSchema
      .optional()
      .meta({ description: 'Accept this invitation (it must be for `email`) and sign in to its workspace.' }),
  })
  .strict()
  .meta({
    examples: [
      { email: 'ada@example.com', password: 'correct-horse-battery' },
      { email: 'ada@example.com', password: 'correct-horse-battery', workspace_id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h' },
    ],
  });

export const switchWorkspaceBody = z
  .object({ workspace_id: idSchema('workspace') })
  .strict()
  .meta({ examples: [{ workspace_id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h' }] });

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    email_verified: z.boolean().meta({
      description:
        'Whether the user followed a link e-mailed to this address (a verification, password-reset or invitation link). Unverified accounts work, and are asked to verify.',
    }),
    created_at: timestamp,
  })
  .meta({
    id: 'User',
    examples: [
      {
        id: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        email_verified: true,
        created_at: '2026-11-20T09:12:00.000Z',
      },
    ],
  });

export const workspaceSchema = z
  .object({ id: z.string(), name: z.string(), role: z.enum(ROLES), created_at: timestamp })
  .meta({
    id: 'Workspace',
    examples: [{ id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h', name: 'Analytical Engines', role: 'admin', created_at: '2026-11-20T09:12:00.000Z' }],
  });

const emailDelivery = z.boolean().meta({
  description:
    'Whether this server sends e-mail (its operator set SMTP_URL). False: verification, password-reset, invitation and ' +
    'notification e-mails only reach the server\'s log, so a client must not tell anyone to look in their inbox.',
});

export const sessionSchema = z
  .object({
    user: userSchema,
    workspace: workspaceSchema,
    member_id: z.string(),
    csrf_token: z.string().meta({ description: 'Echo in the X-CSRF-Token header on unsafe requests.' }),
    workspaces: z.array(workspaceSchema),
    permissions: z.array(z.enum(PERMISSION_NAMES)).meta({
      description:
        'What this session may do in `workspace`: the permissions of the server\'s table that the member\'s role ' +
        'grants (a web-app session holds every scope). A client shows or hides actions from it; the server ' +
        'still checks every request. Changes with the role and with a workspace switch.',
      example: ['demos.read', 'demos.write', 'analytics.read'],
    }),
    email_delivery: emailDelivery,
  })
  .meta({
    id: 'Session',
    examples: [
      {
        user: {
          id: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w',
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          email_verified: true,
          created_at: '2026-11-20T09:12:00.000Z',
        },
        workspace: { id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h', name: 'Analytical Engines', role: 'editor', created_at: '2026-11-20T09:12:00.000Z' },
        member_id: 'mem_01jd3k6z1a4b7c0d3e6f9g2h5j',
        csrf_token: 'q8Vt2mX7cN4pR1sL9wB6yK3hD0fJ5gZa',
        workspaces: [
          { id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h', name: 'Analytical Engines', role: 'editor', created_at: '2026-11-20T09:12:00.000Z' },
        ],
        permissions: ['demos.read', 'demos.write', 'analytics.read', 'shares.read', 'shares.write', 'team.read', 'account.read', 'workspace.read'],
        email_delivery: true,
      },
    ],
  });

export const toUser = (u: UserRow) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  email_verified: u.emailVerifiedAt !== null,
  created_at: iso(u.createdAt),
});

export const toWorkspace = (w: WorkspaceRow, m: MemberRow) => ({
  id: w.id,
  name: w.name,
  role: m.role,
  created_at: iso(w.createdAt),
});

export const invitationParams = z.object({ token: invitationTokenSchema });

export const invitationPreviewSchema = z
  .object({
    email: z.string().meta({ description: 'The invited address: only an account with it can accept.' }),
    role: z.enum(ROLES),
    workspace: z.object({ id: z.string(), name: z.string() }),
    invited_by: z
      .object({ name: z.string(), email: z.string() })
      .nullable()
      .meta({ description: 'Who sent (or last resent) the invitation; null if they have left the workspace.' }),
    expires_at: timestamp,
  })
  .meta({
    id: 'InvitationPreview',
    examples: [
      {
        email: 'grace@acme.com',
        role: 'editor',
        workspace: { id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h', name: 'Analytical Engines' },
        invited_by: { name: 'Ada Lovelace', email: 'ada@example.com' },
        expires_at: '2026-12-03T10:00:00.000Z',
      },
    ],
  });

export const signupPolicySchema = z
  .object({
    mode: z.enum(['open', 'invite', 'domains']).meta({
      description:
        'The operator\'s SIGNUP: `open`, anyone may sign up; `invite`, only through an invitation link; `domains`, addresses at `allowed_domains`, and anyone through an invitation link.',
    }),
    allowed_domains: z.array(z.string()).meta({ description: 'The e-mail domains that may sign up when `mode` is `domains`; empty otherwise.' }),
    first_account: z.boolean().meta({
      description: 'True while the server has no account: the first sign-up is accepted in every mode, so its operator can make it from the browser.',
    }),
    email_delivery: emailDelivery,
  })
  .meta({
    id: 'SignupPolicy',
    examples: [
      { mode: 'open', allowed_domains: [], first_account: false, email_delivery: true },
      { mode: 'domains', allowed_domains: ['example.com', 'corp.example'], first_account: false, email_delivery: false },
    ],
  });

export const toSignupPolicy = (policy: { mode: 'open' | 'invite' | 'domains'; domains: string[]; firstAccount: boolean }) => ({
  mode: policy.mode,
  allowed_domains: policy.domains,
  first_account: policy.firstAccount,
});

export const toInvitationPreview = (row: Awaited<ReturnType<InvitationAcceptance['preview']>>) => ({
  email: row.member.email,
  role: row.member.role,
  workspace: { id: row.workspace.id, name: row.workspace.name },
  invited_by: row.inviter?.email ? { name: row.inviter.name ?? '', email: row.inviter.email } : null,
  expires_at: iso(row.member.inviteExpiresAt!),
});
