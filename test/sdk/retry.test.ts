import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, RateLimitError } from '../../packages/sdk/src/index';
import { type TestServer, startTestServer } from '../helpers/server';

// A budget the tests spend at once; the server's window is a real minute, so the retry waits for real.
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

  it('waits the Retry-After the server gave, then succeeds', async () => {
    const log: Array<{ status: number; retryAfter: string | null; at: number }> = [];
    const client = createClient({ baseUrl: server.url, apiKey: await server.apiKey('all'), fetch: recording(log) });
    for (let i = 0; i < PER_MINUTE; i++) await client.demos.list().firstPage();
    const page = await client.demos.list().firstPage();
    expect(page.meta.total).toBe(0);
    // Refused once (the window is a minute: Retry-After up to 60 s), then answered after waiting that long.
    const statuses = log.map((l) => l.status);
    expect(statuses.slice(0, PER_MINUTE + 1)).toEqual([200, 200, 200, 429]);
    expect(statuses.at(-1)).toBe(200);
    const refused = log[PER_MINUTE]!;
    const retryAfter = Number(refused.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(log[PER_MINUTE + 1]!.at - refused.at).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
  }, 150_000);
});
