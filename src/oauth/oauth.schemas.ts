import { z } from 'zod';
import { PERMISSIONS, ROLES, type Role, SCOPE_DESCRIPTIONS, SCOPES } from '../auth/permissions';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';
import type { listGrants, OAuthAppRow } from './oauth.repo';
import { paginationQuery } from '../core/pagination';
import { text } from '../core/text';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere, http only on loopback (RFC 8252 native apps), or a private-use scheme like com.example.app:/cb. */
export const redirectUri = text()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.hash) return false;
      if (url.protocol === 'https:') return true;
      if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
      return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
    } catch {
      return false;
    }
  }, 'must be an https URL, an http URL on localhost, or a private-use scheme (com.example.app:/callback), without a fragment');

export const createAppBody = z
  .object({
    name: text().trim().min(1).max(100),
    redirect_uris: z.array(redirectUri).min(1).max(10),
    scopes: z.array(z.enum(SCOPES)).min(1),
    public: z
      .boolean()
      .default(false)
      .meta({ description: 'A public client (single-page or native app) gets no secret and must use PKCE.' }),
  })
  .strict()
  .meta({
    examples: [
      { name: 'Acme CRM', redirect_uris: ['https://crm.acme.com/oauth/callback'], scopes: ['demos:read', 'analytics:read'] },
      { name: 'Acme desktop', redirect_uris: ['http://127.0.0.1/callback'], scopes: ['demos:read'], public: true },
    ],
  });

export const toCreateAppInput = (body: z.infer<typeof createAppBody>) => ({
  name: body.name,
  redirectUris: body.redirect_uris,
  scopes: body.scopes,
  isPublic: body.public,
});

export const appParams = z.object({ id: idSchema('oauthApp') });

export const oauthAppSchema = z
  .object({
    id: z.string(),
    client_id: z.string().meta({ description: 'The value to send as client_id (the app id).' }),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    scopes: z.array(z.enum(SCOPES)),
    public: z.boolean(),
    secret_last_four: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({
    id: 'OAuthApp',
    examples: [
      {
        id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k',
        client_id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k',
        name: 'Acme CRM',
        redirect_uris: ['https://crm.acme.com/oauth/callback'],
        scopes: ['demos:read', 'analytics:read'],
        public: false,
        secret_last_four: 'vBPt',
        created_at: '2026-11-21T12:00:00.000Z',
      },
    ],
  });

export const createdAppSchema = oauthAppSchema
  .extend({
    client_secret: z
      .string()
      .nullable()
      .meta({ description: 'Shown only in this response (null for public clients): store it now.' }),
  })
  .meta({
    id: 'CreatedOAuthApp',
    examples: [
      {
        id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k',
        client_id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k',
        name: 'Acme CRM',
        redirect_uris: ['https://crm.acme.com/oauth/callback'],
        scopes: ['demos:read', 'analytics:read'],
        public: false,
        secret_last_four: 'vBPt',
        created_at: '2026-11-21T12:00:00.000Z',
        client_secret: 'dss_Nf5AjxvUlKsiC47wqaMl9Xvq2ZG4MzAOUQklImCvBPt',
      },
    ],
  });

export function toOAuthApp(app: OAuthAppRow) {
  return {
    id: app.id,
    client_id: app.id,
    name: app.name,
    redirect_uris: app.redirectUris,
    scopes: app.scopes as (typeof SCOPES)[number][],
    public: app.isPublic,
    secret_last_four: app.secretLastFour,
    created_at: iso(app.createdAt),
  };
}

export const authorizationQuery = z.object({
  client_id: text().max(100),
  redirect_uri: text().max(2000).optional(),
  response_type: text().max(50),
  scope: text().max(500).optional(),
  state: text().max(1000).optional(),
  code_challenge: text().max(200).optional(),
  code_challenge_method: text().max(20).optional(),
  resource: text()
    .max(2000)
    .optional()
    .meta({ description: 'RFC 8707: the API ({API_URL}) or its MCP endpoint ({API_URL}/mcp); anything else is invalid_target.' }),
});

export const decisionBody = authorizationQuery
  .extend({
    decision: z.enum(['allow', 'deny']),
    workspace_id: idSchema('workspace')
      .optional()
      .meta({ description: 'The workspace to grant (one where you are an active member); default: the one you are signed in to.' }),
  })
  .strict()
  .meta({
    examples: [
      {
        client_id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k',
        redirect_uri: 'https://crm.acme.com/oauth/callback',
        response_type: 'code',
        scope: 'demos:read analytics:read',
        state: 'k2Jx9fQ4',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        decision: 'allow',
        workspace_id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h',
      },
    ],
  });

export const consentSchema = z
  .object({
    app: z.object({
      id: z.string(),
      name: z.string(),
      verified: z.boolean().meta({ description: 'Vouched for by the operator of this Demoshare instance.' }),
      built_in: z.boolean().meta({ description: 'Shipped with Demoshare itself (the recorder extension).' }),
      owner_workspace_name: z
        .string()
        .nullable()
        .meta({ description: 'The workspace that registered the app; null for built-in and self-registered clients.' }),
    }),
    redirect_uri: z.string(),
    workspace_id: z.string().meta({ description: 'The workspace granted unless another is chosen: the one signed in to.' }),
    workspaces: z
      .array(z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) }))
      .meta({ description: 'The workspaces the user is an active member of: any of them may be granted.' }),
    scopes: z.array(
      z.object({
        name: z.enum(SCOPES),
        description: z.string(),
        roles: z.array(z.enum(ROLES)).meta({ description: 'The roles for which the scope allows anything: rights are scopes ∩ role.' }),
      }),
    ),
    error: z
      .object({ error: z.string(), error_description: z.string(), redirect_to: z.string() })
      .nullable()
      .meta({ description: 'Set when the request is invalid in a way the client must be told about: redirect there.' }),
  })
  .meta({
    id: 'OAuthConsent',
    examples: [
      {
        app: { id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k', name: 'Acme CRM', verified: false, built_in: false, owner_workspace_name: 'Acme' },
        redirect_uri: 'https://crm.acme.com/oauth/callback',
        workspace_id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h',
        workspaces: [{ id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h', name: 'Analytical Engines', role: 'editor' }],
        scopes: [
          { name: 'demos:read', description: 'List and read demos', roles: ['admin', 'editor', 'viewer'] },
          { name: 'analytics:read', description: 'Read engagement data', roles: ['admin', 'editor', 'viewer'] },
        ],
        error: null,
      },
    ],
  });

/** The roles that hold at least one permission of the table through `scope`. */
const rolesOfScope = (scope: string) =>
  ROLES.filter((role) => Object.values(PERMISSIONS).some((rule) => rule.scope === scope && (rule.roles as readonly Role[]).includes(role)));

export const describeScopes = (scopes: string[]) =>
  scopes.map((name) => ({
    name: name as (typeof SCOPES)[number],
    description: SCOPE_DESCRIPTIONS[name as (typeof SCOPES)[number]],
    roles: rolesOfScope(name),
  }));

/** The token endpoint's form parameters (RFC 6749 §4.1.3, §6). */
export const tokenForm = z
  .object({
  grant_type: text().max(100),
  code: text().max(200).optional(),
  redirect_uri: text().max(2000).optional(),
  code_verifier: text().max(200).optional(),
  refresh_token: text().max(200).optional(),
  scope: text().max(500).optional(),
  resource: text().max(2000).optional(),
  client_id: text().max(100).optional(),
  client_secret: text().max(200).optional(),
  })
  .meta({
    examples: [
      {
        grant_type: 'authorization_code',
        code: '4R5YhuIG43KIjFAHQsiJoUGm1YtmaD7v3dNi8LfppWT',
        redirect_uri: 'https://crm.acme.com/oauth/callback',
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        client_id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k',
        client_secret: 'dss_Nf5AjxvUlKsiC47wqaMl9Xvq2ZG4MzAOUQklImCvBPt',
      },
      { grant_type: 'refresh_token', refresh_token: 'dsr_S8iq9y7AjzQHb6BAEcn6zJ4A3DdvHyrNktBXtnjfObI', client_id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k' },
    ],
  });

export const revokeForm = z
  .object({
    token: text().max(200),
    token_type_hint: text().max(50).optional(),
    client_id: text().max(100).optional(),
    client_secret: text().max(200).optional(),
  })
  .meta({ examples: [{ token: 'dsr_S8iq9y7AjzQHb6BAEcn6zJ4A3DdvHyrNktBXtnjfObI', token_type_hint: 'refresh_token', client_id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k' }] });

export const tokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().meta({ description: 'Seconds: 3600.' }),
    refresh_token: z.string().meta({ description: 'Single use: each refresh returns a new one. Lives 60 days.' }),
    scope: z.string().meta({ description: 'Granted scopes, separated by spaces.' }),
  })
  .meta({
    id: 'OAuthToken',
    examples: [
      {
        access_token: 'dsa_kY9pF34Qy6nB3Wwd25rq4f5zr3QA7YeEEBY3ABp3e2z',
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: 'dsr_S8iq9y7AjzQHb6BAEcn6zJ4A3DdvHyrNktBXtnjfObI',
        scope: 'demos:read analytics:read',
      },
    ],
  });

export const oauthErrorSchema = z
  .object({ error: z.string(), error_description: z.string() })
  .meta({ id: 'OAuthError', description: 'RFC 6749 §5.2 error body.' });

export const authorizationsQuery = paginationQuery.extend({
  all_members: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'true (admins): every member’s authorisations in the current workspace, not only yours.' }),
});

export const authorizationParams = z.object({ id: idSchema('oauthGrant') });

export const authorizationSchema = z
  .object({
    id: z.string(),
    app: z.object({ id: z.string(), name: z.string(), verified: z.boolean() }),
    workspace: z.object({ id: z.string(), name: z.string() }),
    user: z.object({ id: z.string(), email: z.string() }),
    scopes: z.array(z.enum(SCOPES)),
    created_at: timestamp,
    last_used_at: timestamp.nullable().meta({ description: 'When a token of it last authenticated a request (to the minute).' }),
  })
  .meta({
    id: 'OAuthAuthorization',
    examples: [
      {
        id: 'grt_01jd3p2b4c6d8e0f2g4h6j8k0m',
        app: { id: 'app_01jd3p1a3b5c7d9e1f3g5h7j9k', name: 'Acme CRM', verified: false },
        workspace: { id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h', name: 'Analytical Engines' },
        user: { id: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w', email: 'ada@example.com' },
        scopes: ['demos:read', 'analytics:read'],
        created_at: '2026-11-21T12:05:00.000Z',
        last_used_at: '2026-11-25T18:31:00.000Z',
      },
    ],
  });

export function toAuthorization(row: Awaited<ReturnType<typeof listGrants>>['rows'][number]) {
  return {
    id: row.grant.id,
    app: row.app,
    workspace: row.workspace,
    user: { id: row.grant.userId, email: row.userEmail },
    scopes: row.grant.scopes as (typeof SCOPES)[number][],
    created_at: iso(row.grant.createdAt),
    last_used_at: row.grant.lastUsedAt ? iso(row.grant.lastUsedAt) : null,
  };
}
