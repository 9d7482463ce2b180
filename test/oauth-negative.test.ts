import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const REDIRECT = 'https://client.example.com/callback';

/** The negative cases issue 15 lists, each against the real app in process. */
describe('OAuth: what must be refused', () => {
  let t: TestApp;
  let user: TestSession;
  const apps: Record<'a' | 'b', { id: string; secret: string }> = { a: { id: '', secret: '' }, b: { id: '', secret: '' } };

  const token = (body: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: body });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const query = (extra: Record<string, string> = {}) => ({ client_id: apps.a.id, redirect_uri: REDIRECT, response_type: 'code', scope: 'demos:read', state: 'st', ...extra });

  async function code(extra: Record<string, string> = {}) {
    const res = await user.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query(extra), decision: 'allow' } });
    expect(res.statusCode, res.body).toBe(200);
    const c = new URL(res.json().data.redirect_to).searchParams.get('code');
    expect(c).toBeTruthy();
    return c!;
  }

  beforeAll(async () => {
    t = await createTestApp();
    user = await t.signUp();
    for (const name of ['a', 'b'] as const) {
      const res = await user.inject({ method: 'POST', url: '/v1/oauth/apps', payload: { name: `App ${name}`, redirect_uris: [REDIRECT], scopes: ['demos:read'] } });
      apps[name] = { id: res.json().data.client_id, secret: res.json().data.client_secret };
    }
  });
  afterAll(() => t?.close());

  it.each([
    ['a trailing slash', `${REDIRECT}/`],
    ['a query', `${REDIRECT}?next=/admin`],
    ['case', 'https://client.example.com/Callback'],
    ['case of the host', 'https://CLIENT.example.com/callback'],
    ['a subdomain', 'https://evil.client.example.com/callback'],
    ['user-info', 'https://client.example.com@evil.example/callback'],
    ['user-info before the host', 'https://user@client.example.com/callback'],
    ['encoding', 'https://client.example.com/%63allback'],
    ['a fragment', `${REDIRECT}#x`],
    ['a port', 'https://client.example.com:443/callback'],
  ])('never redirects to a redirect_uri that differs by %s: a 400, on the consent page and on allow', async (_, uri) => {
    const described = await user.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query({ redirect_uri: uri }))}` });
    expect(described.statusCode).toBe(400);
    expect(described.json().error.code).toBe('invalid_request');
    expect(described.body).not.toContain('redirect_to');
    const allowed = await user.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query({ redirect_uri: uri }), decision: 'allow' } });
    expect(allowed.statusCode).toBe(400);
    expect(allowed.body).not.toContain('code=');
  });

  it('answers an unknown client with a 400 and no redirect', async () => {
    const res = await user.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query({ client_id: 'app_01jzzzzzzzzzzzzzzzzzzzzzzz' }))}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/Unknown client_id/);
  });

  it('refuses response_type=token (no implicit grant) and plain PKCE, telling the client by redirect', async () => {
    for (const [extra, error] of [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'a'.repeat(43) }, 'invalid_request'],
    ] as const) {
      const res = await user.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query(extra), decision: 'allow' } });
      const back = new URL(res.json().data.redirect_to);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('error')).toBe(error);
      expect(back.searchParams.get('state')).toBe('st');
      expect(back.searchParams.get('code')).toBeNull();
    }
  });

  it('refuses a wrong PKCE verifier, and a verifier where no challenge was sent', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const withPkce = await code({ code_challenge: challenge, code_challenge_method: 'S256' });
    const base = { grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: apps.a.id, client_secret: apps.a.secret };
    const wrong = await token(form({ ...base, code: withPkce, code_verifier: randomBytes(32).toString('base64url') }));
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });
    const missing = await token(form({ ...base, code: await code({ code_challenge: challenge, code_challenge_method: 'S256' }) }));
    expect(missing.json().error).toBe('invalid_grant');
    const unexpected = await token(form({ ...base, code: await code(), code_verifier: verifier }));
    expect(unexpected.json().error).toBe('invalid_grant');
  });

  it("refuses client A's code redeemed by client B", async () => {
    const c = await code();
    const res = await token(form({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: apps.b.id, client_secret: apps.b.secret }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/another client/) });
    // B neither spent the code nor, replaying it after A's exchange, revokes A's authorisation.
    const mine = await token(form({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: apps.a.id, client_secret: apps.a.secret }));
    expect(mine.statusCode).toBe(200);
    const replay = await token(form({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: apps.b.id, client_secret: apps.b.secret }));
    expect(replay.json().error).toBe('invalid_grant');
    const demos = await t.app.inject({ method: 'GET', url: '/v1/demos', headers: { authorization: `Bearer ${mine.json().access_token}` } });
    expect(demos.statusCode).toBe(200);
  });

  it('refuses a missing or different redirect_uri at the token endpoint', async () => {
    const base = { grant_type: 'authorization_code', client_id: apps.a.id, client_secret: apps.a.secret };
    const missing = await token(form({ ...base, code: await code() }));
    expect(missing.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/redirect_uri/) });
    const different = await token(form({ ...base, code: await code(), redirect_uri: `${REDIRECT}/` }));
    expect(different.json().error).toBe('invalid_grant');
  });

  it('answers a bad client secret with 401 invalid_client: by Basic with WWW-Authenticate, by form too', async () => {
    const c = await code();
    const basic = Buffer.from(`${apps.a.id}:dss_wrong`).toString('base64');
    const byBasic = await token(form({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT }), { authorization: `Basic ${basic}` });
    expect(byBasic.statusCode).toBe(401);
    expect(byBasic.json().error).toBe('invalid_client');
    expect(byBasic.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(byBasic.headers['cache-control']).toBe('no-store');
    const byForm = await token(form({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: apps.a.id, client_secret: 'dss_wrong' }));
    expect(byForm.statusCode).toBe(401);
    expect(byForm.json().error).toBe('invalid_client');
    // The code was not spent by the failed attempts: the real client still redeems it.
    const good = await token(form({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: apps.a.id, client_secret: apps.a.secret }));
    expect(good.statusCode).toBe(200);
  });

  it('refuses grant_type=password and client_credentials', async () => {
    for (const grant of ['password', 'client_credentials', 'implicit']) {
      const res = await token(form({ grant_type: grant, username: 'a', password: 'b', client_id: apps.a.id, client_secret: apps.a.secret }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('unsupported_grant_type');
    }
  });

  it('refuses duplicate parameters (RFC 6749 §3.1) at the token and authorization endpoints', async () => {
    const c = await code();
    const dup = `${form({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: apps.a.id, client_secret: apps.a.secret })}&code=${c}`;
    const res = await token(dup);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
    const twice = `${new URLSearchParams(query())}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`;
    const described = await user.inject({ method: 'GET', url: `/v1/oauth/authorize?${twice}` });
    expect(described.statusCode).toBe(400);
    expect(described.body).not.toContain('redirect_to');
  });
});

describe('OAuth: the token endpoint under its rate limit', () => {
  it('answers 429 with Retry-After and an RFC 6749 body (temporarily_unavailable)', async () => {
    const t = await createTestApp();
    try {
      let last = await t.app.inject({ method: 'POST', url: '/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=x' });
      for (let i = 0; i < 30 && last.statusCode !== 429; i++) {
        last = await t.app.inject({ method: 'POST', url: '/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=x' });
      }
      expect(last.statusCode).toBe(429);
      expect(last.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/Too many requests/) });
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
      expect(last.headers['x-ratelimit-remaining']).toBe('0');
      expect(last.headers['cache-control']).toBe('no-store');
      const revoke = await t.app.inject({ method: 'POST', url: '/v1/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'token=x' });
      expect(revoke.statusCode).toBe(429);
      expect(revoke.json().error).toBe('temporarily_unavailable');
    } finally {
      await t.close();
    }
  });
});

describe('OAuth resource indicators (RFC 8707)', () => {
  let t: TestApp;
  let user: TestSession;
  let app: { id: string; secret: string };
  const API = 'http://localhost:3000';

  beforeAll(async () => {
    t = await createTestApp();
    user = await t.signUp();
    const res = await user.inject({ method: 'POST', url: '/v1/oauth/apps', payload: { name: 'Assistant', redirect_uris: [REDIRECT], scopes: ['demos:read'] } });
    app = { id: res.json().data.client_id, secret: res.json().data.client_secret };
  });
  afterAll(() => t?.close());

  const decide = (resource?: string) =>
    user.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: { client_id: app.id, redirect_uri: REDIRECT, response_type: 'code', state: 'st', decision: 'allow', ...(resource ? { resource } : {}) },
    });
  const exchange = (code: string, extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.id, client_secret: app.secret, ...extra }).toString(),
    });
  const codeOf = async (resource?: string) => new URL((await decide(resource)).json().data.redirect_to).searchParams.get('code') ?? '';

  it('accepts this API and its /mcp endpoint as the resource, and records it on the grant', async () => {
    for (const resource of [API, `${API}/mcp`]) {
      const res = await exchange(await codeOf(resource), { resource });
      expect(res.statusCode, res.body).toBe(200);
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: res.json().refresh_token, resource, client_id: app.id, client_secret: app.secret }).toString(),
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
    }
    const stored = (await t.ctx.database.db.execute(sql`select resource from oauth_grants where resource is not null order by created_at`)) as unknown as {
      rows: Array<{ resource: string }>;
    };
    expect(stored.rows.map((r) => r.resource)).toEqual([API, `${API}/mcp`]);
    // Without a resource, as before.
    expect((await exchange(await codeOf())).statusCode).toBe(200);
  });

  it('answers another resource with invalid_target: by redirect at authorization, 400 at the token endpoint', async () => {
    for (const resource of ['https://evil.example', `${API}/v1`, `${API}/`, 'http://localhost:3001']) {
      const back = new URL((await decide(resource)).json().data.redirect_to);
      expect(back.searchParams.get('error')).toBe('invalid_target');
      expect(back.searchParams.get('code')).toBeNull();
      const res = await exchange(await codeOf(), { resource });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_target');
    }
    // A token request may not switch the audience the user consented to.
    const res = await exchange(await codeOf(API), { resource: `${API}/mcp` });
    expect(res.json().error).toBe('invalid_target');
  });
});
