import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { createGenerator } from '../src/generation';
import { waitForDemo } from './helpers/demos';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from './helpers/site-server';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';
import { testDocumentPool } from './helpers/documents';

// The real generator (HTML capture, built-in writer) behind POST /v1/demos with generate_with_ai, as
// the runtime wires it: what the demos module stores is what generation produced.
describe('generation through the demos API', () => {
  let forbidden: ForbiddenServer;
  let site: TestSite;
  let t: TestApp;
  let key: string;
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const generator = createGenerator({ net, documents, chromiumPath: null });

  beforeAll(async () => {
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden);
    t = await createTestApp({
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' },
      generator: (options) => generator.generate(options),
    });
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    await t?.close();
    await generator.close();
    await net.close();
    await documents.close();
    await site?.close();
    await forbidden?.close();
  });

  it('turns the test site into a draft demo with steps, hotspots and snapshots', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: `${site.origin}/`, type: 'interactive', generate_with_ai: true },
    });
    expect(res.statusCode).toBe(201);
    const demo = await waitForDemo(t, key, res.json().data.id, (d) => d.status !== 'generating');
    expect(demo).toMatchObject({ status: 'draft', title: 'Orbit — Product tours people finish' });
    expect(demo.generation).toMatchObject({ status: 'succeeded', error: null });

    const steps = demo.steps as Array<{ number: number; title: string; html_url: string | null; page_url: string }>;
    expect(steps[0]!.title).toBe('Turn your product into a tour people finish');
    expect(steps.some((s) => s.page_url === `${site.origin}/pricing.html`)).toBe(true);
    expect(steps.every((s) => typeof s.html_url === 'string')).toBe(true);
    const hotspots = demo.hotspots as Array<{ step_number: number; selector: string; label: string; action: { type: string } }>;
    expect(hotspots.find((h) => h.step_number === 2)).toMatchObject({ selector: '#hero-cta', label: 'Start free trial', action: { type: 'next' } });
    expect(forbidden.connections).toBe(0);
  });

  it('records a refused address as the demo’s generation error', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: `${site.origin}/docs`, type: 'interactive', generate_with_ai: true },
    });
    expect(res.statusCode).toBe(201);
    const demo = await waitForDemo(t, key, res.json().data.id, (d) => d.status !== 'generating');
    expect(demo.status).toBe('draft');
    expect(demo.generation).toMatchObject({ error_code: 'blocked_address' });
    expect((demo.generation as { error: string }).error).toMatch(/\(127\.0\.0\.2 is a loopback address\).*ALLOW_PRIVATE_NETWORK_CIDRS/);
    expect(forbidden.connections).toBe(0);
  });
});
