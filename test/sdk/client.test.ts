import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  createClient,
  type DemoshareClient,
  DemoshareError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  ServerError,
  unwrap,
} from '../../packages/sdk/src/index';
import { startFlakyProxy } from '../helpers/flaky-proxy';
import { makePng } from '../helpers/images';
import { type TestServer, startTestServer } from '../helpers/server';
import { playView } from '../helpers/shares';
import { uniqueEmail } from '../helpers/test-app';

/** A fetch that records "METHOD /path?query" of every request, for counting what the SDK sent. */
function countingFetch(log: string[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    log.push(`${request.method} ${url.pathname}${url.search}`);
    return fetch(request);
  };
}

describe('SDK with an API key, against a running server', () => {
  let server: TestServer;
  let client: DemoshareClient;
  const sent: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true });
    client = createClient({ baseUrl: server.url, apiKey: await server.apiKey('all'), fetch: countingFetch(sent) });
  });
  afterAll(() => server?.close());

  it('creates a demo, adds image and blank steps and a hotspot, publishes it, and deletes it', async () => {
    const created = await client.demos.create({ title: 'SDK tour' });
    expect(created).toMatchObject({ title: 'SDK tour', status: 'draft', steps: [] });
    const first = await client.steps.create(created.id, { bytes: makePng(40, 20), contentType: 'image/png' });
    expect(first).toMatchObject({ number: 1, width: 40, height: 20 });
    const second = await client.steps.create(created.id, { title: 'Blank', number: 1 });
    expect(second.number).toBe(1);
    const renamed = await client.steps.update(created.id, first.id, { title: 'The picture' });
    expect(renamed).toMatchObject({ title: 'The picture', number: 2 });
    const hotspot = await client.hotspots.create(created.id, first.id, { x: 0.1, y: 0.2, width: 0.3, height: 0.1, label: 'Here' });
    expect(hotspot).toMatchObject({ step_number: 2, label: 'Here' });
    expect((await client.hotspots.update(created.id, first.id, hotspot.id, { tooltip: 'Click' })).tooltip).toBe('Click');

    const reordered = await client.steps.replace(created.id, { steps: [first.id, second.id] });
    expect(reordered.steps.map((s) => s.id)).toEqual([first.id, second.id]);
    await client.steps.delete(created.id, second.id);
    const published = await client.demos.publish(created.id);
    expect(published.status).toBe('published');
    const versions = await client.demos.versions(created.id).toArray();
    expect(versions).toHaveLength(1);
    expect((await client.demos.update(created.id, { title: 'SDK tour, renamed' })).title).toBe('SDK tour, renamed');
    expect((await client.demos.get(created.id)).steps).toHaveLength(1);
    await client.hotspots.delete(created.id, first.id, hotspot.id);

    await client.demos.delete(created.id);
    await expect(client.demos.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('iterates every demo across several pages, one request per page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await client.demos.create({ title: `Paged ${i}` })).id);
    sent.length = 0;
    const seen: string[] = [];
    for await (const demo of client.demos.list({ per_page: 3, search: 'Paged' })) seen.push(demo.id);
    expect(seen).toEqual([...ids].reverse());
    expect(sent).toEqual([1, 2, 3].map((page) => `GET /v1/demos?per_page=3&search=Paged&page=${page}`));

    const pages = [];
    for await (const page of client.demos.list({ per_page: 3, search: 'Paged' }).pages()) pages.push(page);
    expect(pages.map((p) => [p.meta.page, p.data.length, p.meta.total])).toEqual([
      [1, 3, 7],
      [2, 3, 7],
      [3, 1, 7],
    ]);
    expect(pages[0]!.meta.request_id).toMatch(/^req_/);
    // Stops fetching once it has what it was asked for.
    sent.length = 0;
    expect(await client.demos.list({ per_page: 2, search: 'Paged' }).toArray(3)).toHaveLength(3);
    expect(sent).toHaveLength(2);
    const first = await client.demos.list({ per_page: 5, search: 'Paged' }).firstPage();
    expect(first.meta).toMatchObject({ total: 7, page: 1, per_page: 5 });
  });

  it('throws typed errors carrying status, code, message, request_id and details', async () => {
    const missing = await client.demos.get('demo_01jd3k7q9x8v2m4n6p0r5s7t9w').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toBeInstanceOf(DemoshareError);
    const notFound = missing as NotFoundError;
    expect(notFound).toMatchObject({ status: 404, code: 'not_found', name: 'NotFoundError', message: 'Demo not found' });
    expect(notFound.requestId).toMatch(/^req_/);
    expect(notFound.requestId).toBe(notFound.headers.get('x-request-id'));

    const invalid = (await client.demos.create({ title: 'x'.repeat(201) }).catch((e: unknown) => e)) as InvalidRequestError;
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid.code).toBe('invalid_request');
    expect(invalid.details).toEqual([expect.objectContaining({ field: 'title' })]);

    const readOnly = createClient({ baseUrl: server.url, apiKey: await server.apiKey(['demos:read']) });
    const scope = (await readOnly.demos.create({ title: 'No' }).catch((e: unknown) => e)) as PermissionError;
    expect(scope).toBeInstanceOf(PermissionError);
    expect(scope).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(scope.message).toContain('demos:write');

    const empty = await client.demos.create({ title: 'Nothing to publish' });
    await expect(client.demos.publish(empty.id)).rejects.toBeInstanceOf(ConflictError);

    const revoked = createClient({ baseUrl: server.url, apiKey: 'dsk_not_a_real_key' });
    await expect(revoked.demos.list().firstPage()).rejects.toMatchObject({ name: 'AuthenticationError', status: 401, code: 'unauthorized' });
  });

  it('shares, views and analytics of a published demo', async () => {
    const demo = await client.demos.create({ title: 'Shared tour' });
    for (let i = 0; i < 2; i++) await client.steps.create(demo.id, { bytes: makePng(8, 4, [i * 50, 0, 0]), contentType: 'image/png' });
    await client.demos.publish(demo.id);
    const share = await client.shares.create(demo.id, { name: 'Prospects' });
    expect(share).toMatchObject({ demo_id: demo.id, name: 'Prospects', has_password: false });
    expect((await client.shares.update(share.id, { name: 'Leads' })).name).toBe('Leads');
    expect(await client.shares.list(demo.id).toArray()).toEqual([expect.objectContaining({ id: share.id })]);
    // Another workspace's key cannot see the demo.
    const stranger = createClient({ baseUrl: server.url, apiKey: await server.apiKey('all') });
    await expect(stranger.shares.create(demo.id)).rejects.toBeInstanceOf(NotFoundError);

    const token = share.url.split('/s/')[1]!;
    await playView(server, token, { email: 'ada@example.com', name: 'Ada', reached: 2, complete: true });
    await playView(server, token, { reached: 1 });
    const views = await client.views.list(demo.id, { per_page: 1 }).toArray();
    expect(views).toHaveLength(2);
    const completed = views.find((v) => v.completed)!;
    expect(completed.viewer.email).toBe('ada@example.com');
    expect((await client.views.journey(demo.id, completed.id)).view.id).toBe(completed.id);

    const analytics = await client.analytics.demo(demo.id);
    expect(analytics).toMatchObject({ total_views: 2, completion_rate: 0.5 });
    expect(await client.analytics.links(demo.id)).toEqual([expect.objectContaining({ share_id: share.id, views: 2 })]);
    expect(Array.isArray(await client.analytics.companies(demo.id))).toBe(true);
    expect((await client.analytics.workspace()).total_views).toBeGreaterThanOrEqual(2);
    expect((await client.shares.accessLog(share.id).toArray()).length).toBeGreaterThanOrEqual(2);

    const erased = await client.views.eraseViewer('ADA@example.com');
    expect(erased).toMatchObject({ views: 1, shares_recounted: 1 });
    expect((await client.views.list(demo.id).toArray()).map((v) => v.viewer.email)).toEqual([null]);
    expect(await client.analytics.demo(demo.id)).toMatchObject({ total_views: 1, completion_rate: 0 });

    await client.shares.revoke(share.id);
    await expect(client.shares.get(share.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('team: invites, lists across pages, changes a role and removes', async () => {
    const invited = [];
    for (let i = 0; i < 3; i++) invited.push(await client.team.invite({ email: uniqueEmail('sdk'), role: 'viewer' }));
    const members = await client.team.list({ per_page: 2 }).toArray();
    expect(members).toHaveLength(4);
    expect((await client.team.update(invited[0]!.id, { role: 'editor' })).role).toBe('editor');
    expect((await client.team.resendInvitation(invited[1]!.id)).id).toBe(invited[1]!.id);
    await client.team.revokeInvitation(invited[1]!.id);
    await client.team.remove(invited[2]!.id);
    expect((await client.team.list().toArray()).map((m) => m.id)).not.toContain(invited[2]!.id);
  });

  it('uploads a recording with the Content-Digest computed for it', async () => {
    const recording = await client.recordings.create({ step_count: 1, title: 'Recorded by the SDK' });
    const png = makePng(64, 40, [10, 120, 200]);
    const step = await client.recordings.uploadStep(recording.id, 1, {
      action: 'click',
      title: 'Click Create',
      page_url: 'https://app.example.com/invoices',
      viewport: { width: 1280, height: 800 },
      target: { x: 100, y: 100, width: 200, height: 40, selector: '#create', label: 'Create' },
      screenshot: `data:image/png;base64,${png.toString('base64')}`,
      snapshot: '<html><body><button id="create">Create</button></body></html>',
    });
    expect(step.received).toEqual([1]);
    const done = await client.recordings.complete(recording.id);
    expect(done.status).toBe('completed');
    expect((await client.demos.get(done.demo_id!)).title).toBe('Recorded by the SDK');
  });

  it('registers, lists, re-keys and deletes an OAuth app with a key carrying oauth_apps:write', async () => {
    const app = await client.oauthApps.create({ name: 'SDK CRM', redirect_uris: ['https://crm.example.com/cb'], scopes: ['demos:read'] });
    expect(app.client_secret).toMatch(/^dss_/);
    expect((await client.oauthApps.list({ per_page: 1 }).toArray()).map((a) => a.client_id)).toContain(app.client_id);
    const rotated = await client.oauthApps.rotateSecret(app.id);
    expect(rotated.client_secret).not.toBe(app.client_secret);
    await client.oauthApps.delete(app.id);
    expect(await client.oauthApps.list().toArray()).toEqual([]);
  });

  it('reads the audit log with a key carrying audit:read: pages newest first, and a feed polled to the end', async () => {
    // The client's own key is in the log.
    const newest = await client.auditLog.list({ action: 'key.created', per_page: 1 }).firstPage();
    expect(newest.data[0]).toMatchObject({ action: 'key.created', target: { type: 'api_key' } });
    const seen: string[] = [];
    let cursor = 'start';
    for (;;) {
      const { entries, next, ready } = await client.auditLog.poll(cursor, { perPage: 3 });
      expect(ready).toBeGreaterThanOrEqual(entries.length);
      seen.push(...entries.map((e) => e.id));
      if (entries.length === 0) {
        expect(next).toBe(cursor);
        break;
      }
      cursor = next;
    }
    const all = await client.auditLog.list().toArray();
    expect([...seen].sort()).toEqual(all.map((e) => e.id).sort());
    expect(seen).toContain(newest.data[0]!.id);
  });

  it('gives the typed openapi-fetch client underneath, with unwrap for its answers', async () => {
    const raw = await client.api.GET('/v1/demos', { params: { query: { per_page: 1 } } });
    expect(raw.response.status).toBe(200);
    expect(raw.data?.meta.per_page).toBe(1);
    const { data } = await unwrap(client.api.GET('/v1/team/members'));
    expect(data.length).toBeGreaterThan(0);
    await expect(unwrap(client.api.GET('/v1/demos/{id}', { params: { path: { id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w' } } }))).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('accepts a base URL ending in /v1 and sends its own headers', async () => {
    const seen: string[] = [];
    const withV1 = createClient({
      baseUrl: `${server.url}/v1/`,
      apiKey: await server.apiKey('all'),
      headers: { 'x-integration': 'crm' },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(`${new URL(request.url).pathname} ${request.headers.get('x-integration')}`);
        return fetch(request);
      },
    });
    await withV1.demos.list().firstPage();
    expect(seen).toEqual(['/v1/demos crm']);
  });

  it('retries a 503 with a backoff, sending the same body again', async () => {
    const proxy = await startFlakyProxy(server.url);
    try {
      const viaProxy = createClient({ baseUrl: proxy.url, apiKey: await server.apiKey('all'), retry: { baseDelayMs: 50 } });
      proxy.failNext('POST', /^\/v1\/demos$/);
      const demo = await viaProxy.demos.create({ title: 'Made on the second try' });
      expect(demo.title).toBe('Made on the second try');
      expect(proxy.log.filter((line) => line.startsWith('POST /v1/demos'))).toEqual(['POST /v1/demos failed', 'POST /v1/demos']);

      const noRetry = createClient({ baseUrl: proxy.url, apiKey: await server.apiKey('all'), retry: false });
      proxy.failNext('GET', /^\/v1\/demos/);
      const failed = (await noRetry.demos.list().firstPage().catch((e: unknown) => e)) as ServerError;
      expect(failed).toBeInstanceOf(ServerError);
      expect(failed).toMatchObject({ status: 503, code: 'unavailable' });
    } finally {
      await proxy.close();
    }
  });
});
