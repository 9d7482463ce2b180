import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizationUrl, createClient, exchangeCode, RateLimitError } from '../../packages/sdk/src/index';
import { type TestServer, startTestServer } from '../helpers/server';

// A budget the tests spend at once; the server's window is a minute.
const PER_MINUTE = 3;

describe('SDK retries on 429, against a rate-limited server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ config: { RATE_LIMIT_PER_MINUTE: PER_MINUTE } });
  });
  afterAll(() => server?.close());

  function recording(log: Array<{ status: number; retryAfter: string | null; at: number }>): typeof fetch {
    return async (input, init) => {
      const response = await fetch(new Request(input, init));
      log.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
      return response;
    };
  }

  it('fails at once with RateLimitError and retryAfter when the server asks for longer than maxDelayMs', async () => {
    const log: Array<{ status: number; retryAfter: string | null; at: number }> = [];
    const client = createClient({ baseUrl: server.url, apiKey: await server.apiKey('all'), fetch: recording(log), retry: { maxDelayMs: 1_000 } });
    for (let i = 0; i < PER_MINUTE; i++) await client.demos.list().firstPage();
    const error = (await client.demos.list().firstPage().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(error.retryAfter).toBeGreaterThan(1);
    expect(error.requestId).toMatch(/^req_/);
    expect(log.map((l) => l.status)).toEqual([200, 200, 200, 429]);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the Retry-After the server gave, then succeeds', async () => {
    const log: Array<{ status: number; retryAfter: string | null; at: number }> = [];
    const client = createClient({ baseUrl: server.url, apiKey: await server.apiKey('all'), fetch: recording(log) });
    for (let i = 0; i < PER_MINUTE; i++) await client.demos.list().firstPage();
    // The minute passes on a simulated clock, for the server's budget and the client's wait alike: the
    // clock also runs in real time, so the HTTP in between goes on as usual, and nothing waits a real minute.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const answer = client.demos.list().firstPage();
    await vi.waitFor(() => expect(log).toHaveLength(PER_MINUTE + 1), { timeout: 10_000 });
    const refused = log[PER_MINUTE]!;
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A moment short of Retry-After the client has not asked again; at Retry-After it has, and is answered.
    await vi.advanceTimersByTimeAsync(retryAfter * 1000 - 1_000);
    expect(log).toHaveLength(PER_MINUTE + 1);
    await vi.advanceTimersByTimeAsync(1_000);
    const page = await answer;
    expect(page.meta.total).toBe(0);
    expect(log.map((l) => l.status)).toEqual([200, 200, 200, 429, 200]);
    expect(log[PER_MINUTE + 1]!.at - refused.at).toBeGreaterThanOrEqual(retryAfter * 1000);
  });

  it('the token endpoint’s 429 is a RateLimitError as well, from exchangeCode and from a refresh', async () => {
    const redirect = 'https://crm.example.com/cb';
    const admin = await server.signUp();
    const created = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Rate-limited CRM', redirect_uris: [redirect], scopes: ['demos:read'] },
    });
    const { client_id: clientId, client_secret: clientSecret } = created.json().data;
    const query = Object.fromEntries(new URL(authorizationUrl({ appUrl: server.url, clientId, redirectUri: redirect, state: 's' })).searchParams);
    const consent = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query, decision: 'allow' } });
    const code = new URL(consent.json().data.redirect_to).searchParams.get('code')!;
    const tokens = await exchangeCode({ baseUrl: server.url, clientId, clientSecret, code, redirectUri: redirect });

    // Spend this address's budget of the token endpoint (30 a minute) with requests it refuses anyway.
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) {
      const res = await fetch(`${server.url}/v1/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password' }) });
      status = res.status;
      await res.body?.cancel();
    }
    expect(status).toBe(429);
    const refused = (await exchangeCode({ baseUrl: server.url, clientId, clientSecret, code: 'x', redirectUri: redirect }).catch((e: unknown) => e)) as RateLimitError;
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused).toMatchObject({ status: 429, code: 'temporarily_unavailable' });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);

    // A refresh the endpoint refuses for longer than the client waits fails the call with the same error.
    const client = createClient({ baseUrl: server.url, clientId, clientSecret, ...tokens, expiresAt: Date.now(), retry: { maxDelayMs: 1_000 } });
    await expect(client.demos.list().firstPage()).rejects.toMatchObject({ name: 'RateLimitError', status: 429 });
  });
});
