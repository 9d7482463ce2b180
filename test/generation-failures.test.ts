import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { explainGenerationFailure } from '../src/demos/generation-failure';
import { createGenerator } from '../src/generation';
import { waitForDemo } from './helpers/demos';
import { testDocumentPool } from './helpers/documents';
import { freePort } from './helpers/free-port';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Real failures (a closed port, a name under .invalid, a loopback address outside the allow-list, a site
// answering 404 and 503, TLS spoken to a plain HTTP server, a site that never answers) through the real
// generator and the demos API: each ends as a demo with a code and words saying what to do.
describe('generation failures in words', () => {
  let t: TestApp;
  let key: string;
  let site: Server;
  let origin: string;
  let closedPort: number;
  let chromium: 'html' | 'chromium' = 'html';
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const html = createGenerator({ net, documents, chromiumPath: null });
  const browser = createGenerator({ net, documents, chromiumPath: existsSync(CHROMIUM) ? CHROMIUM : null });

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/never') return; // holds the request until the deadline
      res.statusCode = req.url === '/missing' ? 404 : 503;
      res.end('no');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    closedPort = await freePort();
    t = await createTestApp({
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', GENERATION_TIMEOUT: 3_000 },
      // Chromium's start counts against the deadline: its runs get more time than the 3 s timeout test.
      generator: (options) => (chromium === 'chromium' ? browser.generate({ ...options, timeoutMs: 20_000 }) : html.generate(options)),
    });
    key = await t.apiKey('all');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await html.close();
    await browser.close();
    await net.close();
    await documents.close();
    site?.closeAllConnections();
    site?.close();
  });

  async function fail(sourceUrl: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: sourceUrl, type: 'interactive', generate_with_ai: true },
    });
    expect(res.statusCode).toBe(201);
    const demo = await waitForDemo(t, key, res.json().data.id, (d) => d.status !== 'generating');
    expect(demo).toMatchObject({ status: 'draft', step_count: 0, generation: { status: 'failed' } });
    return demo.generation as { error: string; error_code: string };
  }

  it('a loopback address outside the allow-list names the setting that allows it', async () => {
    const generation = await fail('http://127.0.0.2:9/');
    expect(generation.error_code).toBe('blocked_address');
    expect(generation.error).toMatch(/^127\.0\.0\.2:9 leads to a private network address \(127\.0\.0\.2 is a loopback address\)/);
    expect(generation.error).toContain('adding 127.0.0.2/32 to the ALLOW_PRIVATE_NETWORK_CIDRS setting');
  });

  it('a name that does not exist is a DNS failure, without ENOTFOUND', async () => {
    const generation = await fail('https://no-such-site.invalid/pricing');
    expect(generation).toMatchObject({ error_code: 'dns_failure' });
    expect(generation.error).toBe(
      'no-such-site.invalid could not be found: no address is registered for this name (DNS). Check the spelling of the address, then retry.',
    );
  });

  it('a closed port is unreachable, in HTML and in Chromium capture alike', async () => {
    const words = `Nothing answered at 127.0.0.1:${closedPort}: the connection was refused or the server could not be reached.`;
    const htmlGeneration = await fail(`http://127.0.0.1:${closedPort}/`);
    expect(htmlGeneration.error_code).toBe('unreachable');
    expect(htmlGeneration.error).toContain(words);
    if (!existsSync(CHROMIUM)) return;
    chromium = 'chromium';
    try {
      const chromiumGeneration = await fail(`http://127.0.0.1:${closedPort}/`);
      expect(chromiumGeneration).toMatchObject({ error_code: 'unreachable' });
      expect(chromiumGeneration.error).toContain(words);
      expect(chromiumGeneration.error).not.toContain('ECONNREFUSED');
    } finally {
      chromium = 'html';
    }
  }, 60_000);

  it('HTTP 404 and 503 say what the site answered and what to do', async () => {
    const missing = await fail(`${origin}/missing`);
    expect(missing).toMatchObject({ error_code: 'http_error' });
    expect(missing.error).toContain('answered “page not found” (HTTP 404). Check the address');
    const down = await fail(`${origin}/down`);
    expect(down.error).toContain('had a server error (HTTP 503)');
  });

  it('TLS spoken to a plain HTTP server is a TLS error, not an OpenSSL dump', async () => {
    const generation = await fail(`${origin.replace('http:', 'https:')}/`);
    expect(generation.error_code).toBe('tls_error');
    expect(generation.error).toContain('The secure connection to 127.0.0.1');
    expect(generation.error).not.toMatch(/SSL routines|openssl/i);
  });

  it('a site that never answers is a timeout naming GENERATION_TIMEOUT', async () => {
    const generation = await fail(`${origin}/never`);
    expect(generation.error_code).toBe('timeout');
    expect(generation.error).toContain('took too long to answer: generation stops after 3 s');
    expect(generation.error).toContain('GENERATION_TIMEOUT');
  }, 30_000);

  it('a demo that was regenerated successfully loses the old failure', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: 'https://no-such-site.invalid/', type: 'interactive', generate_with_ai: true },
    });
    const id = res.json().data.id;
    await waitForDemo(t, key, id, (d) => d.status !== 'generating');
    const again = await t.app.inject({ method: 'POST', url: `/v1/demos/${id}/generate`, headers: bearer(key), payload: {} });
    expect(again.statusCode).toBeLessThan(300);
    expect(again.json().data.generation).toMatchObject({ error: null, error_code: null });
  });
});

describe('explainGenerationFailure', () => {
  const context = { sourceUrl: 'https://app.example.com/start', timeoutMs: 60_000 };
  it.each([
    ['Could not capture https://app.example.com/start: https://app.example.com/start did not load (page.goto: net::ERR_NAME_NOT_RESOLVED at https://app.example.com/start)', 'dns_failure'],
    ['Could not capture https://app.example.com/start: connect ECONNREFUSED 127.0.0.1:9', 'unreachable'],
    ['Could not capture https://app.example.com/start: https://app.example.com/start did not load (page.goto: net::ERR_CERT_AUTHORITY_INVALID at https://app.example.com/start)', 'tls_error'],
    ['Could not capture https://app.example.com/start: https://app.example.com/start did not load (page.goto: Timeout 2375ms exceeded.)', 'timeout'],
    ['This address cannot be used: app.example.com resolves to a forbidden address (10.0.0.5 is a private address)', 'blocked_address'],
    ['This address cannot be used: ::1 is a loopback address', 'blocked_address'],
    ['This address cannot be used: the ftp scheme is not allowed (use http or https)', 'invalid_address'],
    ['Found no headings, buttons or forms to build steps from on https://app.example.com/start.', 'nothing_to_capture'],
    ['Generation did not finish: the worker running it stopped 3 times', 'interrupted'],
    ['Something nobody foresaw', 'failed'],
  ])('%s → %s', (raw, code) => {
    const failure = explainGenerationFailure(raw, context);
    expect(failure.code).toBe(code);
    expect(failure.message).not.toMatch(/ECONNREFUSED|ENOTFOUND|ERR_|page\.goto/);
  });
});
