import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationUrl,
  createClient,
  createPkce,
  exchangeCode,
  OAuthError,
  revokeToken,
  type TokenSet,
} from '../../packages/sdk/src/index';
import { manualClock } from '../../src/core/clock';
import { type TestServer, startTestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const REDIRECT = 'https://crm.example.com/oauth/callback';
const HOUR = 3_600_000;

describe('SDK with OAuth tokens, against a running server', () => {
  // The server's clock: advancing it expires the access tokens it issued.
  const clock = manualClock(new Date());
  let server: TestServer;
  let admin: TestSession;
  let clientId: string;
  let clientSecret: string;

  /** The consent step as the signed-in admin would click it; returns the code from the redirect. */
  async function consent(url: string): Promise<string> {
    const query = Object.fromEntries(new URL(url).searchParams);
    const res = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query, decision: 'allow' } });
    expect(res.statusCode, res.body).toBe(200);
    const redirect = new URL(res.json().data.redirect_to);
    expect(redirect.searchParams.get('state')).toBe(query.state);
    return redirect.searchParams.get('code')!;
  }

  async function tokens(): Promise<TokenSet> {
    const pkce = await createPkce();
    const url = authorizationUrl({
      appUrl: server.url,
      clientId,
      redirectUri: REDIRECT,
      scope: ['demos:read', 'demos:write', 'team:read'],
      state: crypto.randomUUID(),
      codeChallenge: pkce.challenge,
    });
    const code = await consent(url);
    return exchangeCode({ baseUrl: server.url, clientId, clientSecret, code, redirectUri: REDIRECT, codeVerifier: pkce.verifier });
  }

  /** Records "METHOD /path" of every request, with the status answered. */
  function recording(log: string[]): typeof fetch {
    return async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      log.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
      return response;
    };
  }

  beforeAll(async () => {
    server = await startTestServer({ clock });
    admin = await server.signUp();
    const res = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Acme CRM', redirect_uris: [REDIRECT], scopes: ['demos:read', 'demos:write', 'team:read'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    clientId = res.json().data.client_id;
    clientSecret = res.json().data.client_secret;
  });
  afterAll(() => server?.close());

  it('runs the authorization code flow with PKCE and calls the API with the tokens', async () => {
    const set = await tokens();
    expect(set).toMatchObject({ tokenType: 'Bearer', scope: 'demos:read demos:write team:read' });
    expect(set.accessToken).toMatch(/^dsa_/);
    expect(set.refreshToken).toMatch(/^dsr_/);
    expect(set.expiresAt.getTime()).toBeGreaterThan(Date.now() + HOUR - 60_000);
    const client = createClient({ baseUrl: server.url, clientId, clientSecret, ...set });
    const members = await client.team.list().toArray();
    expect(members.map((m) => m.email)).toEqual([admin.email]);
  });

  it('refreshes once after the server refused an expired token, for every concurrent request, and hands over the new pair', async () => {
    const set = await tokens();
    const log: string[] = [];
    const handed: TokenSet[] = [];
    const client = createClient({
      baseUrl: server.url,
      clientId,
      clientSecret,
      ...set,
      fetch: recording(log),
      onTokens: (t) => {
        handed.push(t);
      },
    });
    await client.demos.create({ title: 'Before expiry' });
    clock.advance(2 * HOUR);

    const lists = await Promise.all(Array.from({ length: 5 }, () => client.demos.list().firstPage()));
    expect(lists.every((page) => page.data.some((d) => d.title === 'Before expiry'))).toBe(true);
    expect(handed).toHaveLength(1);
    expect(handed[0]!.accessToken).not.toBe(set.accessToken);
    expect(handed[0]!.refreshToken).not.toBe(set.refreshToken);
    expect(log.filter((l) => l.startsWith('POST /v1/oauth/token'))).toEqual(['POST /v1/oauth/token 200']);
    expect(log.filter((l) => l === 'GET /v1/demos 401').length).toBeGreaterThanOrEqual(1);
    expect(log.filter((l) => l === 'GET /v1/demos 200')).toHaveLength(5);

    // The rotated pair keeps working (no reuse of the old refresh token was detected).
    clock.advance(2 * HOUR);
    await client.demos.list().firstPage();
    expect(handed).toHaveLength(2);
    expect(log.filter((l) => l.startsWith('POST /v1/oauth/token'))).toHaveLength(2);
  });

  it('refreshes before sending when the token is known to expire', async () => {
    const set = await tokens();
    const log: string[] = [];
    const handed: TokenSet[] = [];
    const client = createClient({
      baseUrl: server.url,
      clientId,
      clientSecret,
      ...set,
      expiresAt: Date.now() + 30_000,
      fetch: recording(log),
      onTokens: (t) => {
        handed.push(t);
      },
    });
    await client.demos.list().firstPage();
    expect(log).toEqual(['POST /v1/oauth/token 200', 'GET /v1/demos 200']);
    expect(handed).toHaveLength(1);
    // Fresh for an hour now: no refresh before the next request.
    await client.demos.list().firstPage();
    expect(log).toHaveLength(3);
  });

  it('throws an OAuthError invalid_grant when the refresh token no longer works', async () => {
    const set = await tokens();
    await revokeToken({ baseUrl: server.url, clientId, clientSecret, token: set.refreshToken });
    const client = createClient({ baseUrl: server.url, clientId, clientSecret, ...set });
    const error = (await client.demos.list().firstPage().catch((e: unknown) => e)) as OAuthError;
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_grant' });
  });

  it('without a refresh token the refused token is an AuthenticationError', async () => {
    const set = await tokens();
    clock.advance(2 * HOUR);
    const client = createClient({ baseUrl: server.url, accessToken: set.accessToken });
    await expect(client.demos.list().firstPage()).rejects.toMatchObject({ name: 'AuthenticationError', code: 'unauthorized' });
  });
});
