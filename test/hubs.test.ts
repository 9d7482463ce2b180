import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { hubClient } from './helpers/hubs';
import { makePng } from './helpers/images';
import { demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

describe('demo hubs', () => {
  let t: TestApp;
  let key: string;
  let demoA: string;
  let demoB: string;
  let draft: string;
  const clock = manualClock(new Date());

  beforeAll(async () => {
    t = await createTestApp({ clock });
    key = await t.apiKey('all');
    demoA = await demoWithSteps(t, key, 2);
    demoB = await demoWithSteps(t, key, 3);
    draft = await demoWithSteps(t, key, 1, false);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object, k = key) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(k), ...(payload ? { payload } : {}) });

  async function hubWith(body: object) {
    const created = await call('POST', '/v1/hubs', { name: 'Product tours', ...body });
    expect(created.statusCode, created.body).toBe(201);
    const hub = created.json().data;
    const col1 = (await call('POST', `/v1/hubs/${hub.id}/collections`, { name: 'Getting started' })).json().data;
    const col2 = (await call('POST', `/v1/hubs/${hub.id}/collections`, { name: 'Advanced' })).json().data;
    const e1 = await call('POST', `/v1/hubs/${hub.id}/entries`, { demo_id: demoA, collection_id: col1.id, description: 'Two minutes' });
    expect(e1.statusCode, e1.body).toBe(201);
    const e2 = await call('POST', `/v1/hubs/${hub.id}/entries`, { demo_id: demoB, collection_id: col2.id, title: 'Reports' });
    const e3 = await call('POST', `/v1/hubs/${hub.id}/entries`, { demo_id: draft, collection_id: col2.id });
    return { hub, token: hub.url.split('/h/')[1] as string, col1, col2, e1: e1.json().data, e2: e2.json().data, e3: e3.json().data };
  }

  it('builds a hub: collections and entries in order, each entry on a link of its own marked with the hub', async () => {
    const { hub, col1, col2, e1, e2, e3 } = await hubWith({ intro: 'See it work', cta_label: 'Book a demo', cta_url: 'https://example.com/book' });
    expect(hub).toMatchObject({ name: 'Product tours', title: 'Product tours', intro: 'See it work', has_password: false, cta_label: 'Book a demo' });
    expect(hub.url).toMatch(/\/h\/[A-Za-z0-9_-]{40,}$/);
    expect(hub.embed_url).toMatch(/\/embed\/h\//);
    expect(e1).toMatchObject({ collection_id: col1.id, demo_id: demoA, title: null, description: 'Two minutes', position: 0, available: true });
    expect(e3.available).toBe(false);
    // The link is the hub's: marked, not the demo's share_url.
    const link = (await call('GET', `/v1/shares/${e1.share_id}`)).json().data;
    expect(link.hub_id).toBe(hub.id);
    expect((await call('GET', `/v1/demos/${demoA}`)).json().data.share_url ?? null).toBeNull();
    // Reorder: Advanced first, then Reports first inside it.
    expect((await call('PATCH', `/v1/hubs/${hub.id}/collections/${col2.id}`, { position: 0 })).json().data.position).toBe(0);
    await call('PATCH', `/v1/hubs/${hub.id}/entries/${e3.id}`, { position: 0 });
    const detail = (await call('GET', `/v1/hubs/${hub.id}`)).json().data;
    expect(detail.collections.map((c: { name: string }) => c.name)).toEqual(['Advanced', 'Getting started']);
    expect(detail.collections[0].entries.map((e: { id: string }) => e.id)).toEqual([e3.id, e2.id]);
    const list = await call('GET', '/v1/hubs');
    expect(list.json().meta.total).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad input with a clear 400 and records of another workspace with 404', async () => {
    expect((await call('POST', '/v1/hubs', { name: 'x', colour: 'red' })).statusCode).toBe(400);
    const lists = await call('POST', '/v1/hubs', { name: 'x', allowed_domains: ['acme.com'] });
    expect(lists.statusCode).toBe(400);
    expect(lists.json().error.details[0].field).toBe('require_identification');
    expect((await call('POST', '/v1/hubs', { name: 'x', cta_label: 'Book' })).statusCode).toBe(400);
    const { hub, col1 } = await hubWith({});
    const other = await t.apiKey('all');
    expect((await call('GET', `/v1/hubs/${hub.id}`, undefined, other)).statusCode).toBe(404);
    expect((await call('POST', `/v1/hubs/${hub.id}/collections`, { name: 'Mine' }, other)).statusCode).toBe(404);
    const otherDemo = await demoWithSteps(t, other, 1);
    const wrong = await call('POST', `/v1/hubs/${hub.id}/entries`, { demo_id: otherDemo, collection_id: col1.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details[0].field).toBe('demo_id');
    expect((await call('DELETE', `/v1/hubs/${hub.id}`, undefined, other)).statusCode).toBe(404);
  });

  it('shows an open hub: its published demos by collection, a visit, and a demo opened on its link without a gate', async () => {
    const { hub, token, e1 } = await hubWith({});
    const v = hubClient(t, token);
    const state = await v.call('GET', '');
    expect(state.statusCode, state.body).toBe(200);
    const data = state.json().data;
    expect(data.gate).toBe('ready');
    expect(data.hub.brand).toMatchObject({ name: expect.any(String), font: 'system' });
    expect(data.collections.map((c: { name: string }) => c.name)).toEqual(['Getting started', 'Advanced']);
    expect(data.collections[1].entries).toHaveLength(1); // the draft is not shown
    // An open hub asks nothing: a form sent anyway is ignored (found by the fuzzer: it was a 500).
    const ignored = await v.call('POST', '/access', { password: 'x', name: 'N', email: 'n@example.com', company: 'C' });
    expect(ignored.statusCode, ignored.body).toBe(200);
    expect(ignored.json().data.gate).toBe('ready');
    const cover = await v.call('GET', `/entries/${e1.id}/cover`);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
    const opened = await v.call('POST', `/entries/${e1.id}/open`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data.embed_url).toContain('/embed/');
    const figures = (await call('GET', `/v1/hubs/${hub.id}/analytics`)).json().data;
    expect(figures).toMatchObject({ visits: 1, demos_opened: 1 });
  });

  it('gates a hub like a link; a viewer past them plays every demo without meeting a gate again; views count for both', async () => {
    const { hub, token, e1, e2 } = await hubWith({ password: 'open sesame', lead_fields: ['company'], allowed_domains: ['acme.com'] });
    expect(hub).toMatchObject({ has_password: true, lead_fields: ['company'] });
    // The entry's link carries the hub's gates: the link alone asks for the password.
    const link = (await call('GET', `/v1/shares/${e1.share_id}`)).json().data;
    expect(link).toMatchObject({ has_password: true, require_identification: true, allowed_domains: ['acme.com'] });
    const stranger = viewerClient(t, link.url.split('/s/')[1]);
    expect((await stranger.call('GET', '')).json().data.gate).toBe('password');

    const v = hubClient(t, token);
    const first = (await v.call('GET', '')).json().data;
    expect(first).toMatchObject({ gate: 'password', fields: ['password', 'name', 'email', 'company'], collections: [] });
    expect((await v.call('POST', `/entries/${e1.id}/open`)).statusCode).toBe(401);
    const missing = await v.call('POST', '/access', { password: 'open sesame' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.map((d: { field: string }) => d.field)).toEqual(['name', 'email', 'company']);
    const wrong = await v.call('POST', '/access', { password: 'nope', name: 'Jane', email: 'jane@acme.com', company: 'Acme' });
    expect(wrong.statusCode).toBe(401);
    const refused = await v.call('POST', '/access', { password: 'open sesame', name: 'Jane', email: 'jane@other.org', company: 'Other' });
    expect(refused.statusCode).toBe(403);
    const passed = await v.call('POST', '/access', { password: 'open sesame', name: 'Jane', email: 'Jane@Acme.com', company: 'Acme' });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json().data).toMatchObject({ gate: 'ready', viewer: { email: 'jane@acme.com', name: 'Jane' } });
    expect(passed.json().data.collections).toHaveLength(2);

    // Two demos opened: each link's player is ready at once, identified as on the hub.
    for (const entry of [e1, e2]) {
      const opened = await v.call('POST', `/entries/${entry.id}/open`);
      expect(opened.statusCode, opened.body).toBe(200);
      const { share_token, session_token } = opened.json().data;
      const state = await t.app.inject({ method: 'GET', url: `/v1/viewer/${share_token}`, headers: { 'x-viewer-session': session_token } });
      expect(state.json().data).toMatchObject({ gate: 'ready', viewer: { email: 'jane@acme.com' } });
      // The cookie the open set does the same for a first-party player.
      const cookie = (opened.cookies as Array<{ name: string; value: string }>).find((c) => c.name.startsWith('ds_view_'))!;
      const byCookie = await t.app.inject({ method: 'GET', url: `/v1/viewer/${share_token}`, headers: { cookie: `${cookie.name}=${cookie.value}` } });
      expect(byCookie.json().data.gate).toBe('ready');
      const sent = await t.app.inject({
        method: 'POST',
        url: `/v1/viewer/${share_token}/events`,
        headers: { 'x-viewer-session': session_token },
        payload: {
          events: [
            { id: randomUUID(), type: 'view_started' },
            ...(entry === e1
              ? [
                  { id: randomUUID(), type: 'step_reached', step_number: 2, seconds_on_previous: 3 },
                  { id: randomUUID(), type: 'completed', seconds_on_previous: 2 },
                ]
              : []),
          ],
        },
      });
      expect(sent.statusCode, sent.body).toBe(202);
    }
    // The views count for the demo (its views list) and for the hub.
    let figures: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) {
      figures = (await call('GET', `/v1/hubs/${hub.id}/analytics`)).json().data;
      if (figures.completions === 1 && figures.views === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(figures).toMatchObject({ visits: 1, identified_visitors: 1, demos_opened: 2, views: 2, completions: 1, completion_rate: 0.5 });
    expect((figures.recent_visitors as unknown[])[0]).toMatchObject({ email: 'jane@acme.com', values: { company: 'Acme' }, demos_opened: 2 });
    const demoViews = (await call('GET', `/v1/demos/${demoA}/views`)).json();
    expect(demoViews.data.some((view: { viewer: { email: string } }) => view.viewer.email === 'jane@acme.com')).toBe(true);

    // A new password reaches the links: the hub asks again, and so does the link's old session.
    const opened = (await v.call('POST', `/entries/${e1.id}/open`)).json().data;
    expect((await call('PATCH', `/v1/hubs/${hub.id}`, { password: 'new one' })).statusCode).toBe(200);
    expect((await v.call('GET', '')).json().data.gate).toBe('password');
    const old = await t.app.inject({ method: 'GET', url: `/v1/viewer/${opened.share_token}`, headers: { 'x-viewer-session': opened.session_token } });
    expect(old.json().data.gate).toBe('password');

    // Erasing the viewer (docs/sharing.md, Viewer privacy) removes their hub session, with its lead answers.
    const erased = await call('POST', '/v1/viewer-erasures', { email: 'jane@acme.com' });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data.viewer_sessions).toBeGreaterThanOrEqual(3);
    const after = (await call('GET', `/v1/hubs/${hub.id}/analytics`)).json().data;
    expect(after.recent_visitors).toEqual([]);
  });

  it('sets no cookie for a viewer whose page has not been granted consent: the session rides in headers', async () => {
    const { token, e1 } = await hubWith({ require_identification: true });
    const v = hubClient(t, token, { cookies: false });
    const state = await v.call('GET', '');
    expect(state.headers['set-cookie']).toBeUndefined();
    expect(state.json().data.session_token).toEqual(expect.any(String));
    const passed = await v.call('POST', '/access', { name: 'Ann', email: 'ann@example.com' });
    expect(passed.json().data.gate).toBe('ready');
    expect(passed.headers['set-cookie']).toBeUndefined();
    const opened = await v.call('POST', `/entries/${e1.id}/open`);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['set-cookie']).toBeUndefined();
  });

  it('expires with its links, and deleting a hub revokes them', async () => {
    const { hub, token, e1 } = await hubWith({});
    const link = (await call('GET', `/v1/shares/${e1.share_id}`)).json().data;
    const later = new Date(clock.now().getTime() + 3_600_000).toISOString();
    expect((await call('PATCH', `/v1/hubs/${hub.id}`, { expires_at: later })).statusCode).toBe(200);
    expect((await call('GET', `/v1/shares/${e1.share_id}`)).json().data.expires_at).toBe(later);
    clock.advance(3_600_001);
    expect((await t.app.inject({ method: 'GET', url: `/v1/hub-viewer/${token}` })).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: `/h/${token}` })).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: `/v1/viewer/${link.url.split('/s/')[1]}` })).statusCode).toBe(410);
    expect((await call('DELETE', `/v1/hubs/${hub.id}`)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/h/${token}` })).statusCode).toBe(404);
    expect((await call('GET', `/v1/shares/${e1.share_id}`)).statusCode).toBe(404);
  });

  it('takes an uploaded cover, and serves no default cover behind a password', async () => {
    const { hub, token, e1, e2 } = await hubWith({ password: 'pw' });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/hubs/${hub.id}/entries/${e1.id}/cover`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(16, 9, [200, 0, 0]),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.has_cover).toBe(true);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/v1/hubs/${hub.id}/entries/${e1.id}/cover`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: Buffer.from('not an image'),
    });
    expect(bad.statusCode).toBe(415);
    expect((await t.app.inject({ method: 'GET', url: `/v1/hub-viewer/${token}/entries/${e1.id}/cover` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/v1/hub-viewer/${token}/entries/${e2.id}/cover` })).statusCode).toBe(404);
  });

  it('counts a hub’s figures within the days asked for (start_date, end_date), as the web app’s card asks them', async () => {
    const saved = clock.now();
    try {
      const { hub, token, e1, e2 } = await hubWith({});
      // Two visits on 1 March (one opens a demo), one on 10 March that opens two.
      const visit = async (at: string, opens: string[]) => {
        clock.set(at);
        const v = hubClient(t, token);
        expect((await v.call('GET', '')).statusCode).toBe(200);
        for (const entry of opens) expect((await v.call('POST', `/entries/${entry}/open`)).statusCode).toBe(200);
      };
      await visit('2026-03-01T10:00:00.000Z', [e1.id]);
      await visit('2026-03-01T23:59:59.999Z', []);
      await visit('2026-03-10T00:00:00.000Z', [e1.id, e2.id]);
      clock.set('2026-03-10T12:00:00.000Z');
      const figures = async (query: string) => {
        const res = await call('GET', `/v1/hubs/${hub.id}/analytics${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data;
      };

      const day = await figures('?start_date=2026-03-01&end_date=2026-03-01');
      expect(day).toMatchObject({ start: '2026-03-01T00:00:00.000Z', end: '2026-03-01T23:59:59.999Z', visits: 2, demos_opened: 1 });
      expect(day.series).toEqual([{ date: '2026-03-01', visits: 2, demos_opened: 1 }]);
      expect(day.entries.map((e: { opens: number }) => e.opens)).toEqual([1, 0, 0]);
      expect(await figures('?start_date=2026-03-02')).toMatchObject({ end: '2026-03-10T12:00:00.000Z', visits: 1, demos_opened: 2 });
      expect(await figures('?start_date=2026-03-01&end_date=2026-03-10')).toMatchObject({ visits: 3, demos_opened: 3 });
      // A timestamp is exact: the second visit of 1 March fell in its last millisecond.
      expect(await figures('?start_date=2026-03-01T12:00:00.000Z&end_date=2026-03-01T23:59:59.999Z')).toMatchObject({ visits: 1, demos_opened: 0 });
      // Only an end: the 30 days before it. Neither: the 30 days before now.
      expect(await figures('?end_date=2026-03-09')).toMatchObject({ start: '2026-02-07T23:59:59.999Z', visits: 2 });
      expect(await figures('')).toMatchObject({ start: '2026-02-08T12:00:00.000Z', end: '2026-03-10T12:00:00.000Z', visits: 3 });

      const inverted = await call('GET', `/v1/hubs/${hub.id}/analytics?start_date=2026-03-10&end_date=2026-03-01`);
      expect(inverted.statusCode).toBe(400);
      expect(inverted.json().error).toMatchObject({
        code: 'invalid_request',
        details: [
          { field: 'start_date', message: 'must be on or before end_date' },
          { field: 'end_date', message: 'must be on or after start_date' },
        ],
      });
      const unknown = await call('GET', `/v1/hubs/${hub.id}/analytics?from=2026-03-01`);
      expect(unknown.statusCode).toBe(400);
      const other = await t.apiKey('all');
      expect((await call('GET', `/v1/hubs/${hub.id}/analytics?start_date=2026-03-01`, undefined, other)).statusCode).toBe(404);
    } finally {
      clock.set(saved);
    }
  });

  it('serves the hub pages with the hub’s title, framable only as an embed', async () => {
    const { token } = await hubWith({ title: 'Acme demo center', intro: 'Tours <b>for</b> you' });
    const page = await t.app.inject({ method: 'GET', url: `/h/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Acme demo center');
    expect(page.body).toContain('Tours &lt;b&gt;for&lt;/b&gt; you');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const embed = await t.app.inject({ method: 'GET', url: `/embed/h/${token}?consent=pending` });
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(embed.body).toContain('"consent":"pending"');
    expect((await t.app.inject({ method: 'GET', url: `/h/${'x'.repeat(43)}` })).statusCode).toBe(404);
  });
});
