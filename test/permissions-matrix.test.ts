import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredAccess, type RouteAccess } from '../src/auth/auth.hook';
import { type CredentialKind, PERMISSIONS, type Permission, ROLES, type Role, SCOPES, type Scope } from '../src/auth/permissions';
import { type IdKind, newId } from '../src/core/ids';
import { registeredRoutes } from './helpers/routes';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

/**
 * Every registered /v1 route, called with every role through a web session, API keys of every single scope
 * and of all scopes, and OAuth tokens, checked against PERMISSIONS: what the table denies is a 403 with the
 * documented code, what it allows is anything but 401/403. A route added without a row fails here.
 */

interface Caller {
  label: string;
  kind: CredentialKind;
  role: Role;
  scopes: readonly Scope[];
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** The table read directly (not through `authorize`): the code a denial carries, or null when allowed. */
function expectedDenial(permission: Permission, caller: Pick<Caller, 'kind' | 'role' | 'scopes'>): 'forbidden' | 'insufficient_scope' | null {
  const rule = PERMISSIONS[permission];
  if (rule.scope === null && caller.kind !== 'session') return 'forbidden';
  if (rule.scope !== null && !caller.scopes.includes(rule.scope)) return 'insufficient_scope';
  if (!(rule.roles as readonly Role[]).includes(caller.role)) return 'forbidden';
  return null;
}

// Ids of the right kind (and tokens of the right length), so that an allowed request passes validation and
// reaches its handler, which then answers 404: a handler-level 403 would show up.
const ID_KIND_BY_COLLECTION: Record<string, IdKind> = {
  'api-keys': 'apiKey',
  members: 'member',
  demos: 'demo',
  apps: 'oauthApp',
  authorizations: 'oauthGrant',
  webhooks: 'webhook',
  shares: 'share',
  sessions: 'session',
  recordings: 'recording',
  hubs: 'hub',
  domains: 'domain',
};
const PARAM_KINDS: Record<string, IdKind> = { check_id: 'demoCheck', step_id: 'step', hotspot_id: 'hotspot', chapter_id: 'chapter', asset_id: 'asset', delivery_id: 'delivery', workspace_id: 'workspace', view_id: 'view', render_id: 'render', collection_id: 'hubCollection', entry_id: 'hubEntry', message_id: 'slackMessage', experiment_id: 'experiment' };

function concreteUrl(url: string): string {
  const parts = url.split('/');
  return parts
    .map((part, i) => {
      if (!part.startsWith(':')) return part;
      const name = part.slice(1);
      if (name === 'token') return randomBytes(32).toString('base64url');
      // A demo's version and a recorded step's number are numbers, not ids.
      if (name === 'version' || name === 'number') return '1';
      // A demo file's key (PUT /v1/demos/by-key/:key) is a name, not an id.
      if (name === 'key') return 'a-demo-key';
      // A demo's translation is named by its language tag.
      if (name === 'lang') return 'fr';
      // A blob is named by its SHA-256 (GET /v1/public-assets/sha256/:digest).
      if (name === 'digest') return randomBytes(32).toString('hex');
      const kind = PARAM_KINDS[name] ?? ID_KIND_BY_COLLECTION[parts[i - 1]!];
      if (!kind) throw new Error(`No fake id for :${name} in ${url}: add its kind to the test`);
      return newId(kind);
    })
    .join('/');
}

const hasBody = (method: string) => method === 'POST' || method === 'PATCH' || method === 'PUT';
const request = (route: RouteAccess): InjectOptions => ({
  method: route.method as InjectOptions['method'],
  url: concreteUrl(route.url),
  ...(hasBody(route.method) ? { payload: {} } : {}),
});

// Signing out ends the caller's session: it goes last so that every other route still sees it alive.
const lastOfAll = (route: RouteAccess) => (route.url === '/v1/auth/logout' ? 1 : 0);

/**
 * The scope each route must need by the design's rules (GET demos → demos:read, views and analytics →
 * analytics:read, …; null: web session only), independent of what the route declares, so that a route
 * declaring the wrong row fails too. Only admins delete a demo.
 */
function contractScope(method: string, url: string): Scope | null {
  const read = method === 'GET';
  if (/^\/v1\/(auth|account|api-keys|invitations|oauth\/authorize|oauth\/authorizations|workspace)(\/|$)/.test(url)) return null;
  // Custom domains: where the workspace's links answer, a workspace setting: web session only, as the workspace's.
  if (url.startsWith('/v1/domains')) return null;
  // The audit log's own scope, beside the contract's eight (DESIGN.md, "Extending the contract").
  if (/^\/v1\/audit-log(\.csv)?$/.test(url)) return 'audit:read';
  // The leads of lead forms: their own scope beside the contract's eight (docs/leads.md).
  if (/^\/v1\/(leads|demos\/:id\/leads)(\.csv)?$/.test(url)) return 'leads:read';
  if (url.startsWith('/v1/webhooks')) return 'webhooks:write';
  // The CRM connection holds a workspace secret (a HubSpot token), like Settings → AI: web-app sessions only (docs/crm.md).
  if (url.startsWith('/v1/crm/')) return null;
  if (url.startsWith('/v1/oauth/apps')) return 'oauth_apps:write';
  if (url.startsWith('/v1/team')) return read ? 'team:read' : 'team:write';
  if (/^\/v1\/demos\/:id\/(analytics|views)(\/|$)/.test(url) || url === '/v1/analytics') return 'analytics:read';
  // A link's A/B test results are figures of views, like analytics (docs/ab-tests.md); the test itself is the link's.
  if (/^\/v1\/shares\/:id\/(experiment|experiments\/:experiment_id)\/results$/.test(url)) return 'analytics:read';
  if (/^\/v1\/demos\/:id\/shares$/.test(url) || url.startsWith('/v1/shares/')) return read ? 'shares:read' : 'shares:write';
  // Erasing a viewer deletes views, as deleting a demo does: demos:write (admins only, by the table).
  if (url === '/v1/viewer-erasures') return 'demos:write';
  if (url.startsWith('/v1/demos')) return read ? 'demos:read' : 'demos:write';
  // A demo hub is a page of share links (docs/hubs.md): managed as links are; its figures and visitors are analytics.
  if (/^\/v1\/hubs\/:id\/(analytics|visitors(\/export)?)$/.test(url)) return 'analytics:read';
  if (url.startsWith('/v1/hubs')) return read ? 'shares:read' : 'shares:write';
  // A recording becomes steps of a demo: it is demo writing, and reading it is reading demos.
  if (url.startsWith('/v1/recordings')) return read ? 'demos:read' : 'demos:write';
  throw new Error(`${method} ${url}: no rule of the design covers it; add one here and a row in PERMISSIONS`);
}

const REDIRECT = 'https://client.example.com/callback';

describe('permission matrix: every /v1 route × role × credential', () => {
  let t: TestApp;
  let routes: RouteAccess[];
  const sessions = {} as Record<Role, TestSession>;
  const callers: Caller[] = [];

  async function oauthToken(who: TestSession, scopes: readonly Scope[], app: { clientId: string; clientSecret: string }) {
    const consent = await who.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: { client_id: app.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: scopes.join(' '), state: 's', decision: 'allow' },
    });
    if (consent.statusCode !== 200) throw new Error(`consent failed: ${consent.statusCode} ${consent.body}`);
    const code = new URL(consent.json().data.redirect_to).searchParams.get('code') ?? '';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: REDIRECT }).toString(),
    });
    if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.statusCode} ${res.body}`);
    return res.json().access_token as string;
  }

  beforeAll(async () => {
    const many = 1_000_000;
    t = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: many, RATE_LIMIT_PUBLIC_PER_MINUTE: many, VIEWER_RATE_LIMIT_PER_MINUTE: many } });
    sessions.admin = await t.signUp();
    sessions.editor = await t.member(sessions.admin, 'editor');
    sessions.viewer = await t.member(sessions.admin, 'viewer');

    const created = await sessions.admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Matrix client', redirect_uris: [REDIRECT], scopes: [...SCOPES] },
    });
    if (created.statusCode !== 201) throw new Error(`app creation failed: ${created.body}`);
    const oauthApp = { clientId: created.json().data.client_id as string, clientSecret: created.json().data.client_secret as string };

    const scopeSets: Scope[][] = [...SCOPES.map((s) => [s]), [...SCOPES]];
    for (const role of ROLES) {
      const session = sessions[role];
      callers.push({ label: `${role} session`, kind: 'session', role, scopes: SCOPES, inject: session.inject });
      for (const scopes of scopeSets) {
        const key = await t.apiKey(scopes, session);
        const label = `${role} key [${scopes.length === SCOPES.length ? 'all' : scopes.join(' ')}]`;
        callers.push({ label, kind: 'api_key', role, scopes, inject: (o) => t.app.inject({ ...o, headers: { ...bearer(key), ...o.headers } }) });
      }
      for (const scopes of [[...SCOPES], ['demos:read' as const]]) {
        const token = await oauthToken(session, scopes, oauthApp);
        const label = `${role} oauth [${scopes.length === SCOPES.length ? 'all' : scopes.join(' ')}]`;
        callers.push({ label, kind: 'oauth', role, scopes, inject: (o) => t.app.inject({ ...o, headers: { ...bearer(token), ...o.headers } }) });
      }
    }

    routes = [...declaredAccess(t.app)].filter((r) => r.method !== 'HEAD').sort((a, b) => lastOfAll(a) - lastOfAll(b));
  }, 120_000);
  afterAll(() => t?.close());

  it('has a declaration for every registered /v1 route, naming a permission of the table or public', () => {
    const api = registeredRoutes(t.app).filter((r) => r.url.startsWith('/v1/') && !r.url.includes('*'));
    expect(api.length).toBeGreaterThan(40);
    const undeclared = api.filter((r) => !routes.some((d) => d.method === r.method && d.url === r.url));
    expect(undeclared).toEqual([]);
    for (const route of routes) {
      if (route.permission) expect(Object.keys(PERMISSIONS), `${route.method} ${route.url}`).toContain(route.permission);
      else expect(route.public, `${route.method} ${route.url}`).toBe(true);
    }
  });

  it('declares on every guarded route the scope the design gives it (and admins alone delete demos)', () => {
    const wrong = routes
      .filter((r) => r.permission)
      .filter((r) => PERMISSIONS[r.permission!].scope !== contractScope(r.method, r.url))
      .map((r) => `${r.method} ${r.url}: ${r.permission} needs ${PERMISSIONS[r.permission!].scope}, the design says ${contractScope(r.method, r.url)}`);
    expect(wrong).toEqual([]);
    expect(routes.find((r) => r.method === 'DELETE' && r.url === '/v1/demos/:id')?.permission).toBe('demos.delete');
    expect(PERMISSIONS['demos.delete'].roles).toEqual(['admin']);
    // The audit log is an admin's to read, whatever the credential.
    expect(Object.values(PERMISSIONS).filter((rule) => rule.scope === 'audit:read').map((rule) => [...rule.roles])).toEqual([['admin']]);
  });

  it('tells each role its permissions in the session body, and they are exactly the routes it may call', async () => {
    const byRole: Record<Role, Permission[]> = {
      admin: Object.keys(PERMISSIONS) as Permission[],
      editor: ['demos.read', 'demos.write', 'analytics.read', 'leads.read', 'shares.read', 'shares.write', 'team.read', 'keys.manage', 'oauth_grants.manage', 'account.read', 'workspace.read'],
      viewer: ['demos.read', 'analytics.read', 'leads.read', 'shares.read', 'team.read', 'keys.manage', 'oauth_grants.manage', 'account.read', 'workspace.read'],
    };
    for (const role of ROLES) {
      const res = await sessions[role].inject({ method: 'GET', url: '/v1/auth/session' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.permissions, role).toEqual(byRole[role]);
      const permitted = new Set(res.json().data.permissions);
      for (const route of routes.filter((r) => r.permission)) {
        expect(permitted.has(route.permission), `${role} ${route.method} ${route.url}`).toBe(expectedDenial(route.permission!, { kind: 'session', role, scopes: SCOPES }) === null);
      }
    }
  });

  it('answers a workspace switch with the permissions of the role held there', async () => {
    const viewer = sessions.viewer;
    const own = (await viewer.inject({ method: 'GET', url: '/v1/auth/session' })).json().data.workspaces.find(
      (w: { id: string }) => w.id !== sessions.admin.workspaceId,
    );
    expect(own.role).toBe('admin');
    try {
      const there = await viewer.inject({ method: 'POST', url: '/v1/auth/workspace', payload: { workspace_id: own.id } });
      expect(there.statusCode).toBe(200);
      expect(there.json().data.permissions).toContain('team.write');
    } finally {
      const back = await viewer.inject({ method: 'POST', url: '/v1/auth/workspace', payload: { workspace_id: sessions.admin.workspaceId } });
      expect(back.json().data.permissions).not.toContain('demos.write');
    }
  });

  it('is the table docs/api.md shows, row for row', () => {
    const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_.]+)` \| ([^|]+) \|\s*(✓?)\s*\|\s*(✓?)\s*\|\s*(✓?)\s*\|/gm)].map((m) => ({
      permission: m[1],
      scope: m[2]!.trim() === 'session only' ? null : m[2]!.trim().replaceAll('`', ''),
      roles: ROLES.filter((_, i) => m[3 + i] === '✓'),
    }));
    expect(rows).toEqual(Object.entries(PERMISSIONS).map(([permission, rule]) => ({ permission, scope: rule.scope, roles: [...rule.roles] })));
  });

  it('answers every public route without credentials (never 401 or 403)', async () => {
    const open = routes.filter((r) => r.public);
    // Listed by hand so that a route turning public shows in review.
    expect(open.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /v1/auth/signup-policy',
      'GET /v1/hub-viewer/:token',
      'GET /v1/hub-viewer/:token/entries/:entry_id/cover',
      'GET /v1/invitations/:token',
      'GET /v1/openapi.json',
      'GET /v1/public-assets/sha256/:digest',
      'GET /v1/viewer/:token',
      'GET /v1/viewer/:token/assets/:asset_id',
      'GET /v1/viewer/:token/demo',
      'GET /v1/workspace-logos/:workspace_id/:version',
      'POST /v1/auth/login',
      'POST /v1/auth/password-reset',
      'POST /v1/auth/password-reset/complete',
      'POST /v1/auth/signup',
      'POST /v1/auth/verify-email',
      'POST /v1/hub-viewer/:token/access',
      'POST /v1/hub-viewer/:token/entries/:entry_id/open',
      'POST /v1/oauth/revoke',
      'POST /v1/oauth/token',
      'POST /v1/viewer/:token/access',
      'POST /v1/viewer/:token/consent',
      'POST /v1/viewer/:token/events',
      'POST /v1/viewer/:token/identify',
      'POST /v1/viewer/:token/leads',
      'POST /v1/viewer/:token/offline-events',
      'POST /v1/viewer/:token/unlock',
    ]);
    for (const route of open) {
      const res = await t.app.inject(request(route));
      expect([401, 403], `${route.method} ${route.url}: ${res.body}`).not.toContain(res.statusCode);
    }
  });

  it('refuses every guarded route without credentials (401 unauthorized)', async () => {
    for (const route of routes.filter((r) => r.permission)) {
      const res = await t.app.inject(request(route));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    }
  });

  it('answers every guarded route as the table says, for every role and credential', async () => {
    const failures: string[] = [];
    let allowed = 0;
    let denied = 0;
    for (const route of routes) {
      if (!route.permission) continue;
      for (const caller of callers) {
        const res = await caller.inject(request(route));
        const denial = expectedDenial(route.permission, caller);
        const where = `${caller.label} ${route.method} ${route.url} (${route.permission})`;
        if (denial) {
          denied++;
          const code = res.statusCode === 403 ? res.json().error?.code : undefined;
          if (res.statusCode !== 403 || code !== denial) failures.push(`${where}: expected 403 ${denial}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
        } else {
          allowed++;
          if (res.statusCode === 401 || res.statusCode === 403) failures.push(`${where}: allowed by the table, got ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Both sides of the table were exercised, not only one.
    expect(allowed).toBeGreaterThan(100);
    expect(denied).toBeGreaterThan(100);
  }, 240_000);
});
