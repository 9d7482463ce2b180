// The one table of scopes × roles every route is authorised against, and the 403 it throws.
import { AppError } from '../core/errors';

/**
 * The contract's eight scopes, and beside them `oauth_apps:write`: managing a workspace's OAuth apps through
 * the API (an integration registering itself, an admin's script), not only in the web app; and `audit:read`:
 * a SIEM pulling the audit log with a key or token, not only an admin reading it in the web app; and
 * `leads:read`: a CRM pulling the leads of lead forms (docs/leads.md).
 *
 * @example
 * ```ts
 * import { SCOPES } from './permissions';
 *
 * SCOPES.includes('demos:read'); // true
 * ```
 */
export const SCOPES = [
  'demos:read',
  'demos:write',
  'analytics:read',
  'shares:read',
  'shares:write',
  'team:read',
  'team:write',
  'webhooks:write',
  'oauth_apps:write',
  'audit:read',
  'leads:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What each scope grants, in words shown on the consent screen and in the API reference.
 *
 * @example
 * ```ts
 * import { SCOPE_DESCRIPTIONS } from './permissions';
 *
 * SCOPE_DESCRIPTIONS['audit:read']; // 'Read the workspace’s audit log (admins only)'
 * ```
 */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'demos:read': 'List and read demos',
  'demos:write': 'Create, update and delete demos',
  'analytics:read': 'Read engagement data',
  'shares:read': 'List share links',
  'shares:write': 'Create and manage share links',
  'team:read': 'List team members',
  'team:write': 'Invite and manage team members',
  'webhooks:write': 'Create and manage webhooks',
  'oauth_apps:write': 'Register and manage the workspace’s OAuth apps',
  'audit:read': 'Read the workspace’s audit log (admins only)',
  'leads:read': 'Read the leads viewers sent through demos’ forms',
};

/**
 * A member's roles, from most to least able.
 *
 * @example
 * ```ts
 * import { ROLES } from './permissions';
 *
 * const roleSchema = ROLES; // z.enum(ROLES) in request schemas
 * ```
 */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const EVERYONE: readonly Role[] = ROLES;
const EDITORS: readonly Role[] = ['admin', 'editor'];
const ADMINS: readonly Role[] = ['admin'];

/**
 * The one table of what each route may do. A route declares one permission; a request passes when its
 * credential carries the scope (`null`: web-app session only) and its member's current role is listed.
 * Effective rights are therefore scopes ∩ role: a viewer's key with every scope still only reads.
 *
 * @example
 * ```ts
 * import { PERMISSIONS } from './permissions';
 *
 * PERMISSIONS['demos.delete']; // { scope: 'demos:write', roles: ['admin'] }
 * ```
 */
export const PERMISSIONS = {
  'demos.read': { scope: 'demos:read', roles: EVERYONE },
  'demos.write': { scope: 'demos:write', roles: EDITORS },
  'demos.delete': { scope: 'demos:write', roles: ADMINS },
  /**
   * Erasing a viewer's views, sessions and access log (docs/sharing.md, Viewer privacy): deleting a demo's
   * data, as `demos.delete` is, so the same scope and role. No analytics write scope exists among the eight.
   */
  'viewers.erase': { scope: 'demos:write', roles: ADMINS },
  'analytics.read': { scope: 'analytics:read', roles: EVERYONE },
  /** Beyond the contract's eight: the leads viewers sent through lead forms (docs/leads.md), every member as analytics. */
  'leads.read': { scope: 'leads:read', roles: EVERYONE },
  'shares.read': { scope: 'shares:read', roles: EVERYONE },
  'shares.write': { scope: 'shares:write', roles: EDITORS },
  'team.read': { scope: 'team:read', roles: EVERYONE },
  'team.write': { scope: 'team:write', roles: ADMINS },
  'webhooks.manage': { scope: 'webhooks:write', roles: ADMINS },
  /** Every member manages their own keys; admins see and revoke everyone's. */
  'keys.manage': { scope: null, roles: EVERYONE },
  /** Beyond `keys.manage`: see and revoke every member's keys, not only one's own. No route of its own. */
  'keys.manage_all': { scope: null, roles: ADMINS },
  'oauth_apps.manage': { scope: 'oauth_apps:write', roles: ADMINS },
  /** Every user sees and revokes the OAuth authorisations they gave (Authorized apps), in any workspace. */
  'oauth_grants.manage': { scope: null, roles: EVERYONE },
  /** Beyond `oauth_grants.manage`: see and revoke every member's authorisations in the workspace. No route of its own. */
  'oauth_grants.manage_all': { scope: null, roles: ADMINS },
  'account.read': { scope: null, roles: EVERYONE },
  /** Workspace settings (name, branding, share defaults): no contract scope covers them, so web app only. */
  'workspace.read': { scope: null, roles: EVERYONE },
  'workspace.manage': { scope: null, roles: ADMINS },
  /** Custom domains (Settings → Domains): where the workspace's links answer, so admins, in the web app. */
  'domains.manage': { scope: null, roles: ADMINS },
  /** The workspace's AI model and its key (Settings → AI): a secret of the workspace, so admins, in the web app. */
  'ai.manage': { scope: null, roles: ADMINS },
  /** The HubSpot connection, its token, sync log and re-sync (Settings → HubSpot, docs/crm.md): a secret of the workspace, so admins, in the web app. */
  'crm.manage': { scope: null, roles: ADMINS },
  /** Beyond the contract's eight scopes: a SIEM reads the log with a key or token of an admin (docs/audit-log.md). */
  'audit.read': { scope: 'audit:read', roles: ADMINS },
  /** The workspace's Slack alerts (Settings → Slack): its webhook URL is a secret, so admins, in the web app. */
  'slack.manage': { scope: null, roles: ADMINS },
} as const satisfies Record<string, { scope: Scope | null; roles: readonly Role[] }>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * The table's names in its order, as a tuple for `z.enum`.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { PERMISSION_NAMES } from './permissions';
 *
 * const permission = z.enum(PERMISSION_NAMES);
 * ```
 */
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as [Permission, ...Permission[]];

export type CredentialKind = 'api_key' | 'oauth' | 'session';

/** Who is calling, resolved once per request by the authentication hook. */
export interface AuthContext {
  kind: CredentialKind;
  credentialId: string;
  workspaceId: string;
  userId: string;
  memberId: string;
  role: Role;
  scopes: ReadonlySet<Scope>;
}

/**
 * Who may call a route with `permission`, as its description in the API reference opens (the auth hook
 * prefixes it), so the document cannot drift from this table.
 *
 * @example
 * ```ts
 * import { describeAccess } from './permissions';
 *
 * describeAccess('demos.read'); // 'Scope `demos:read`; roles: admin, editor, viewer.'
 * ```
 */
export function describeAccess(permission: Permission): string {
  const { scope, roles } = PERMISSIONS[permission];
  const who = `roles: ${roles.join(', ')}.`;
  return scope ? `Scope \`${scope}\`; ${who}` : `Web application (session sign-in) only; ${who}`;
}

/**
 * Whether the role column of the table lets `role` use `permission` (scopes aside).
 *
 * @example
 * ```ts
 * import { roleAllows } from './permissions';
 *
 * roleAllows('viewer', 'demos.write'); // false
 * ```
 */
export function roleAllows(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly Role[]).includes(role);
}

/**
 * Every permission `role` holds through a credential of `kind` carrying `scopes`: what `authorize` would
 * let pass, listed in table order. The session endpoint sends it so the web app hides what would be a 403.
 *
 * @example permissionsOf('viewer', 'session', SCOPES) // ['demos.read', 'analytics.read', ...]
 */
export function permissionsOf(role: Role, kind: CredentialKind, scopes: Iterable<Scope>): Permission[] {
  const held = new Set(scopes);
  return PERMISSION_NAMES.filter((permission) => {
    const { scope } = PERMISSIONS[permission];
    const credentialAllows = scope === null ? kind === 'session' : held.has(scope);
    return credentialAllows && roleAllows(role, permission);
  });
}

/**
 * Throws the documented 403 when `auth` may not use `permission`.
 *
 * @example
 * ```ts
 * import { type AuthContext, authorize } from './permissions';
 *
 * declare const auth: AuthContext; // request.auth, set by the auth hook
 * authorize(auth, 'webhooks.manage'); // throws a 403 naming the missing scope or role
 * ```
 */
export function authorize(auth: AuthContext, permission: Permission): void {
  const rule = PERMISSIONS[permission];
  if (rule.scope === null) {
    if (auth.kind !== 'session') {
      throw new AppError('forbidden', 'This endpoint is available to the web application only (session sign-in)');
    }
  } else if (!auth.scopes.has(rule.scope)) {
    throw new AppError('insufficient_scope', `This credential lacks the scope ${rule.scope}`, {
      details: [{ field: 'scope', message: `requires ${rule.scope}` }],
    });
  }
  if (!roleAllows(auth.role, permission)) {
    const needed = (rule.roles as readonly Role[]).join(' or ');
    throw new AppError('forbidden', `Your role (${auth.role}) cannot do this: it requires ${needed}`);
  }
}

/**
 * The scopes of a space- or comma-separated list (`all` for every scope), de-duplicated; a 400 naming
 * any unknown word (the CLI's --scopes, an OAuth `scope` parameter).
 *
 * @example
 * ```ts
 * import { parseScopes } from './permissions';
 *
 * parseScopes('demos:read, analytics:read'); // ['demos:read', 'analytics:read']
 * parseScopes('all').length; // every scope
 * ```
 */
export function parseScopes(text: string): Scope[] {
  const words = text.split(/[\s,]+/).filter(Boolean);
  if (words.length === 1 && words[0] === 'all') return [...SCOPES];
  const unknown = words.filter((w) => !(SCOPES as readonly string[]).includes(w));
  if (unknown.length > 0) {
    throw new AppError('invalid_request', `Unknown scope(s): ${unknown.join(', ')}. Valid: ${SCOPES.join(', ')}`);
  }
  return [...new Set(words as Scope[])];
}

// What routes declare and what the auth hook resolves, on Fastify's own types.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route needs (PERMISSIONS in auth/permissions.ts). Every /v1 route declares this or `public`. */
    permission?: Permission;
    /** No credential needed; rate-limited per IP. */
    public?: boolean;
    /** A viewer route or page (with `public`): rate-limited per IP on the viewer budget, not the public one. */
    viewer?: boolean;
  }
  interface FastifyRequest {
    auth?: AuthContext;
  }
}
