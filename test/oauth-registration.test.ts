import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const REDIRECT = 'http://127.0.0.1:33418/callback';

const register = (t: TestApp, body: unknown) => t.app.inject({ method: 'POST', url: '/v1/oauth/register', payload: body as object });

describe('OAuth dynamic client registration (RFC 7591), off by default', () => {
  it('has no endpoint and advertises none unless OAUTH_DYNAMIC_REGISTRATION is on', async () => {
    const t = await createTestApp();
    try {
      expect((await register(t, { redirect_uris: [REDIRECT] })).statusCode).toBe(404);
      const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
      expect(metadata.registration_endpoint).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('OAuth dynamic client registration (RFC 7591), enabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { OAUTH_DYNAMIC_REGISTRATION: true } });
  });
  afterAll(() => t?.close());

  it('registers a public client of no workspace that any user may authorise with PKCE', async () => {
    const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(metadata.registration_endpoint).toBe('http://localhost:3000/v1/oauth/register');

    // Unknown client metadata (logo_uri, software_id) is ignored, as RFC 7591 §2 requires.
    const res = await register(t, { client_name: 'Claude', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', logo_uri: 'https://x.example/logo.png', software_id: 'abc' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const client = res.json();
    expect(client).toMatchObject({
      client_id: expect.stringMatching(/^app_/),
      client_name: 'Claude',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'demos:read demos:write analytics:read shares:read shares:write team:read team:write webhooks:write leads:read',
    });
    expect(client).not.toHaveProperty('client_secret');

    const user = await t.signUp();
    const verifier = randomBytes(32).toString('base64url');
    const query = {
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'demos:read',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    const consent = await user.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query)}` });
    expect(consent.json().data.app).toEqual({ id: client.client_id, name: 'Claude', verified: false, built_in: false, owner_workspace_name: null });
    const decided = await user.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query, decision: 'allow' } });
    const code = new URL(decided.json().data.redirect_to).searchParams.get('code') ?? '';
    const tokens = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: verifier }).toString(),
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(tokens.json().access_token) })).statusCode).toBe(200);
    // It belongs to no workspace: nobody's app list shows it.
    expect((await user.inject({ method: 'GET', url: '/v1/oauth/apps' })).json().data).toEqual([]);
  });

  it('refuses redirect URIs and metadata it would not accept from a registered app, in RFC 7591 form', async () => {
    // A budget of its own: every attempt, refused or not, counts against the address's 10 an hour.
    const t = await createTestApp({ config: { OAUTH_DYNAMIC_REGISTRATION: true } });
    onTestFinished(() => t.close());
    for (const [body, error] of [
      [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [`${REDIRECT}#frag`] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{}, 'invalid_redirect_uri'],
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], grant_types: ['password'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], response_types: ['token'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], scope: 'demos:all' }, 'invalid_client_metadata'],
    ] as const) {
      const res = await register(t, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error, error_description: expect.any(String) });
    }
    const https = await register(t, { redirect_uris: ['https://app.example.com/cb', 'com.example.app:/oauth'], scope: 'demos:read' });
    expect(https.statusCode).toBe(201);
    expect(https.json().scope).toBe('demos:read');
  });

  it('is rate-limited per address: 10 an hour, then 429 with Retry-After', async () => {
    const other = await createTestApp({ config: { OAUTH_DYNAMIC_REGISTRATION: true } });
    try {
      const statuses: number[] = [];
      let last = await register(other, { redirect_uris: [REDIRECT] });
      statuses.push(last.statusCode);
      while (last.statusCode === 201 && statuses.length < 12) {
        last = await register(other, { redirect_uris: [REDIRECT] });
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([...Array(10).fill(201), 429]);
      expect(last.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});
