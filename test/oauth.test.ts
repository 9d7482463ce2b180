import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { manualClock } from '../src/core/clock';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const REDIRECT = 'https://client.example.com/callback';

describe('OAuth 2.0 authorization code flow', () => {
  const clock = manualClock('2026-06-01T10:00:00.000Z');
  let t: TestApp;
  let admin: TestSession;
  let clientId: string;
  let clientSecret: string;

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: form(fields),
    });

  /** Runs the consent step as `who` and returns the code from the redirect. */
  async function authorize(query: Record<string, string>, who: TestSession = admin) {
    const res = await who.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query, decision: 'allow' } });
    expect(res.statusCode).toBe(200);
    const redirect = new URL(res.json().data.redirect_to);
    return { redirect, code: redirect.searchParams.get('code') ?? '' };
  }

  const codeQuery = (extra: Record<string, string> = {}) => ({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'team:read demos:read',
    state: 'xyz-state',
    ...extra,
  });

  async function tokensFor(query = codeQuery()) {
    const { code } = await authorize(query);
    const res = await token({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: REDIRECT });
    expect(res.statusCode).toBe(200);
    return res.json() as { access_token: string; refresh_token: string; expires_in: number; scope: string; token_type: string };
  }

  beforeAll(async () => {
    t = await createTestApp({ clock });
    admin = await t.signUp();
    const res = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Acme CRM', redirect_uris: [REDIRECT], scopes: ['team:read', 'demos:read', 'team:write'] },
    });
    expect(res.statusCode).toBe(201);
    clientId = res.json().data.client_id;
    clientSecret = res.json().data.client_secret;
  });
  afterAll(() => t?.close());

  it('registers an app, showing the secret once and only its last four afterwards', async () => {
    expect(clientSecret).toMatch(/^dss_[0-9A-Za-z]{43}$/);
    const list = await admin.inject({ method: 'GET', url: '/v1/oauth/apps' });
    expect(list.json().data[0]).toMatchObject({ client_id: clientId, secret_last_four: clientSecret.slice(-4) });
    expect(list.body).not.toContain(clientSecret);
  });

  it('describes the request for the consent page', async () => {
    const q = new URLSearchParams(codeQuery()).toString();
    const res = await admin.inject({ method: 'GET', url: `/v1/oauth/authorize?${q}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      app: { id: clientId, name: 'Acme CRM' },
      redirect_uri: REDIRECT,
      error: null,
      scopes: [
        { name: 'team:read', description: 'List team members' },
        { name: 'demos:read', description: 'List and read demos' },
      ],
    });
  });

  it('exchanges a code for tokens that work like API keys, within their scopes', async () => {
    const { redirect } = await authorize(codeQuery());
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe('xyz-state');
    const res = await token({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uri: REDIRECT,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'team:read demos:read' });
    expect(body.access_token).toMatch(/^dsa_/);
    const members = await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(body.access_token) });
    expect(members.statusCode).toBe(200);
    const invite = await t.app.inject({
      method: 'POST',
      url: '/v1/team/members',
      headers: bearer(body.access_token),
      payload: { email: 'x@example.com', role: 'editor' },
    });
    expect(invite.statusCode).toBe(403);
    expect(invite.json().error.code).toBe('insufficient_scope');
  });

  it('accepts client credentials through HTTP Basic', async () => {
    const { code } = await authorize(codeQuery());
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { authorization: `Basic ${basic}` });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a replayed code and revokes what the first exchange issued', async () => {
    const { code } = await authorize(codeQuery());
    const fields = { grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: REDIRECT };
    const first = await token(fields);
    expect(first.statusCode).toBe(200);
    const access = first.json().access_token;
    const again = await token(fields);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already been used/) });
    const after = await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(access) });
    expect(after.statusCode).toBe(401);
  });

  it('rotates refresh tokens and treats reuse as theft', async () => {
    const first = await tokensFor();
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId, client_secret: clientSecret });
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(second.access_token) })).statusCode).toBe(200);

    // Within the grace window (OAUTH_REFRESH_GRACE, 5 s) the same token buys the same pair again...
    clock.advance(4_000);
    const again = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId, client_secret: clientSecret });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ access_token: second.access_token, refresh_token: second.refresh_token, expires_in: 3596 });
    // ...after it, a reuse is theft.
    clock.advance(1_001);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId, client_secret: clientSecret });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('invalid_grant');
    // The whole family is gone: the newest access token and refresh token too.
    expect((await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(second.access_token) })).statusCode).toBe(401);
    const newest = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token, client_id: clientId, client_secret: clientSecret });
    expect(newest.json().error).toBe('invalid_grant');
  });

  it('answers two concurrent refreshes with one token with the same new pair, and nothing is revoked', async () => {
    const first = await tokensFor();
    const fields = { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId, client_secret: clientSecret };
    const answers = await Promise.all([token(fields), token(fields), token(fields)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const pairs = answers.map((a) => a.json() as { access_token: string; refresh_token: string });
    expect(new Set(pairs.map((p) => p.access_token)).size).toBe(1);
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(1);
    expect(pairs[0]!.refresh_token).not.toBe(first.refresh_token);
    expect((await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(pairs[0]!.access_token) })).statusCode).toBe(200);
    // The new refresh token works on; the sealed copy of the pair is dropped once the window has passed.
    clock.advance(6_000);
    const next = await token({ ...fields, refresh_token: pairs[0]!.refresh_token });
    expect(next.statusCode).toBe(200);
    const kept = (await t.ctx.database.db.execute(
      sql`select count(*)::int as n from oauth_tokens where successor_sealed is not null
          and grant_id = (select grant_id from oauth_tokens where used_at is not null order by used_at desc limit 1)`,
    )) as unknown as { rows: Array<{ n: number }> };
    expect(kept.rows[0]!.n).toBe(1);
  });

  it('narrows scopes on refresh but never widens them', async () => {
    const first = await tokensFor();
    const wider = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'team:write', client_id: clientId, client_secret: clientSecret });
    expect(wider.json().error).toBe('invalid_scope');
    const second = await tokensFor();
    const narrower = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token, scope: 'team:read', client_id: clientId, client_secret: clientSecret });
    expect(narrower.statusCode).toBe(200);
    expect(narrower.json().scope).toBe('team:read');
  });

  it('expires access tokens after one hour and codes after 60 seconds', async () => {
    const tokens = await tokensFor();
    clock.advance(3_599_000);
    expect((await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(tokens.access_token) })).statusCode).toBe(200);
    clock.advance(2_000);
    const expired = await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(tokens.access_token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['www-authenticate']).toContain('invalid_token');

    const { code } = await authorize(codeQuery());
    clock.advance(61_000);
    const late = await token({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: REDIRECT });
    expect(late.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
  });

  it('answers RFC 6749 errors for bad clients, grants and requests', async () => {
    const bad = await token({ grant_type: 'authorization_code', code: 'x', client_id: clientId, client_secret: 'dss_wrong', redirect_uri: REDIRECT });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe('invalid_client');
    expect(bad.headers['cache-control']).toBe('no-store');
    const unknownClient = await token({ grant_type: 'authorization_code', code: 'x', client_id: 'app_nope', client_secret: 'x' });
    expect(unknownClient.json().error).toBe('invalid_client');
    const grantType = await token({ grant_type: 'password', client_id: clientId, client_secret: clientSecret });
    expect(grantType.json().error).toBe('unsupported_grant_type');
    const missing = await token({ client_id: clientId });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('invalid_request');
    const { code } = await authorize(codeQuery());
    const otherRedirect = await token({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: 'https://evil.example/cb' });
    expect(otherRedirect.json().error).toBe('invalid_grant');
  });

  it('never redirects to an unregistered address, and reports other problems to the client', async () => {
    const q = new URLSearchParams(codeQuery({ redirect_uri: 'https://evil.example/cb' })).toString();
    const res = await admin.inject({ method: 'GET', url: `/v1/oauth/authorize?${q}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    const scope = new URLSearchParams(codeQuery({ scope: 'webhooks:write' })).toString();
    const scoped = await admin.inject({ method: 'GET', url: `/v1/oauth/authorize?${scope}` });
    expect(scoped.statusCode).toBe(200);
    const redirect = new URL(scoped.json().data.error.redirect_to);
    expect(redirect.searchParams.get('error')).toBe('invalid_scope');
    expect(redirect.searchParams.get('state')).toBe('xyz-state');
    const denied = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...codeQuery(), decision: 'deny' } });
    expect(new URL(denied.json().data.redirect_to).searchParams.get('error')).toBe('access_denied');
  });

  it('requires PKCE S256 from public clients and checks the verifier', async () => {
    const created = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'CLI', redirect_uris: ['http://127.0.0.1:8765/cb'], scopes: ['demos:read'], public: true },
    });
    expect(created.json().data.client_secret).toBeNull();
    const publicId = created.json().data.client_id;
    const base = { client_id: publicId, redirect_uri: 'http://127.0.0.1:8765/cb', response_type: 'code', scope: 'demos:read' };
    const noPkce = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...base, decision: 'allow' } });
    expect(new URL(noPkce.json().data.redirect_to).searchParams.get('error')).toBe('invalid_request');

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = { ...base, code_challenge: challenge, code_challenge_method: 'S256' };
    const first = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...pkce, decision: 'allow' } });
    const code = new URL(first.json().data.redirect_to).searchParams.get('code')!;
    const wrong = await token({ grant_type: 'authorization_code', code, client_id: publicId, redirect_uri: base.redirect_uri, code_verifier: randomBytes(32).toString('base64url') });
    expect(wrong.json().error).toBe('invalid_grant');

    const second = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...pkce, decision: 'allow' } });
    const code2 = new URL(second.json().data.redirect_to).searchParams.get('code')!;
    const right = await token({ grant_type: 'authorization_code', code: code2, client_id: publicId, redirect_uri: base.redirect_uri, code_verifier: verifier });
    expect(right.statusCode).toBe(200);
  });

  it('revokes tokens (RFC 7009) and ends authorisations when the app is deleted', async () => {
    const tokens = await tokensFor();
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ token: tokens.access_token, client_id: clientId, client_secret: clientSecret }),
    });
    expect(revoke.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(tokens.access_token) })).statusCode).toBe(401);
    // Refresh still works: revoking an access token does not end the authorisation.
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: clientSecret });
    expect(refreshed.statusCode).toBe(200);
    const live = refreshed.json().access_token;
    expect((await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(live) })).statusCode).toBe(200);

    const other = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Temp', redirect_uris: [REDIRECT], scopes: ['team:read'] },
    });
    const del = await admin.inject({ method: 'DELETE', url: `/v1/oauth/apps/${clientId}` });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(live) })).statusCode).toBe(401);
    clientId = other.json().data.client_id;
    clientSecret = other.json().data.client_secret;
  });

  it('lets only admins manage apps: in the web app, or with the oauth_apps:write scope', async () => {
    const key = await t.apiKey(['oauth_apps:write'], admin);
    const byKey = await t.app.inject({ method: 'GET', url: '/v1/oauth/apps', headers: bearer(key) });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().data.map((a: { client_id: string }) => a.client_id)).toContain(clientId);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      headers: bearer(key),
      payload: { name: 'Made by a script', redirect_uris: [REDIRECT], scopes: ['demos:read'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.client_secret).toMatch(/^dss_/);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/oauth/apps/${created.json().data.id}`, headers: bearer(key) })).statusCode).toBe(204);
    const without = await t.app.inject({ method: 'GET', url: '/v1/oauth/apps', headers: bearer(await t.apiKey(['demos:read'], admin)) });
    expect(without.statusCode).toBe(403);
    expect(without.json().error.code).toBe('insufficient_scope');
    const editor = await t.member(admin, 'editor');
    const editorKey = await t.apiKey(['oauth_apps:write'], editor);
    const byEditor = await t.app.inject({ method: 'GET', url: '/v1/oauth/apps', headers: bearer(editorKey) });
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().error.code).toBe('forbidden');
    const stranger = await t.signUp();
    const theirs = await stranger.inject({ method: 'DELETE', url: `/v1/oauth/apps/${clientId}` });
    expect(theirs.statusCode).toBe(404);
  });

  it('publishes RFC 9728 protected resource metadata, and names it in every 401 of the API', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource' });
    expect(api.json()).toEqual({
      resource: 'http://localhost:3000',
      authorization_servers: ['http://localhost:3000'],
      scopes_supported: expect.arrayContaining(['demos:read', 'oauth_apps:write']),
      bearer_methods_supported: ['header'],
      resource_name: 'Demoshare API',
      resource_documentation: 'http://localhost:3000/docs',
    });
    const mcp = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp' });
    expect(mcp.json()).toMatchObject({ resource: 'http://localhost:3000/mcp', authorization_servers: ['http://localhost:3000'] });

    const metadata = 'resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource"';
    const none = await t.app.inject({ method: 'GET', url: '/v1/demos' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe(`Bearer realm="demoshare", ${metadata}`);
    const bad = await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(`dsa_${'x'.repeat(43)}`) });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toMatch(new RegExp(`^Bearer realm="demoshare", ${metadata}, error="invalid_token"`));
  });

  it('publishes RFC 8414 metadata', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(res.json()).toMatchObject({
      authorization_endpoint: 'http://localhost:3000/oauth/authorize',
      token_endpoint: 'http://localhost:3000/v1/oauth/token',
      code_challenge_methods_supported: ['S256'],
    });
  });
});
