// A hub's identified visitors: the list (pages, dates), the CSV export (escaping), bad input, and another workspace's hub.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { newId } from '../src/core/ids';
import { hubClient } from './helpers/hubs';
import { demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const DAY = 86_400_000;

describe('hub visitors', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  let hubId: string;
  let token: string;
  let entries: { id: string; demoId: string }[];
  const clock = manualClock('2026-11-20T09:00:00.000Z');

  const call = (url: string, k = key) => t.app.inject({ method: 'GET', url, headers: bearer(k) });

  beforeAll(async () => {
    t = await createTestApp({ clock });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    const demoA = await demoWithSteps(t, key, 2);
    const demoB = await demoWithSteps(t, key, 2);
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
    const hub = (await post('/v1/hubs', { name: 'Prospects', lead_fields: ['company', 'job_title'] })).json().data;
    hubId = hub.id;
    token = hub.url.split('/h/')[1];
    const collection = (await post(`/v1/hubs/${hubId}/collections`, { name: 'All' })).json().data;
    entries = [];
    for (const [demoId, title] of [
      [demoA, 'Invoices, the quick tour'],
      [demoB, null],
    ] as const) {
      const entry = await post(`/v1/hubs/${hubId}/entries`, { demo_id: demoId, collection_id: collection.id, ...(title ? { title } : {}) });
      expect(entry.statusCode, entry.body).toBe(201);
      entries.push({ id: entry.json().data.id, demoId });
    }

    // Three visitors on three days; the second opens the first demo twice and the second once; one visit never identifies.
    const visit = async (ip: string, form: object, opens: string[] = []) => {
      const v = hubClient(t, token, { ip });
      const passed = await v.call('POST', '/access', form);
      expect(passed.statusCode, passed.body).toBe(200);
      for (const entryId of opens) expect((await v.call('POST', `/entries/${entryId}/open`)).statusCode).toBe(200);
    };
    await visit('203.0.113.1', { name: 'Ann Early', email: 'ann@early.test', company: 'Early Co', job_title: 'CTO' });
    clock.advance(DAY);
    await visit('203.0.113.2', { name: 'Smith, "Bob"', email: 'Bob@Acme.test', company: '=HYPERLINK("http://evil.test")', job_title: '@buyer' }, [
      entries[0]!.id,
      entries[0]!.id,
      entries[1]!.id,
    ]);
    clock.advance(DAY);
    await visit('203.0.113.3', { name: 'Cleo', email: 'cleo@late.test', company: 'Late\nLine', job_title: 'VP' });
    expect((await hubClient(t, token, { ip: '203.0.113.4' }).call('GET', '')).json().data.gate).toBe('identification');
  });
  afterAll(() => t?.close());

  it('lists who identified, newest first, with their answers and the demos they opened, in pages', async () => {
    const res = await call(`/v1/hubs/${hubId}/visitors?per_page=2`);
    expect(res.statusCode, res.body).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(data.map((v: { email: string }) => v.email)).toEqual(['cleo@late.test', 'bob@acme.test']);
    expect(data[1]).toEqual({
      email: 'bob@acme.test',
      name: 'Smith, "Bob"',
      values: { company: '=HYPERLINK("http://evil.test")', job_title: '@buyer' },
      identified_at: '2026-11-21T09:00:00.000Z',
      demos_opened: 3,
      demos: [
        { id: entries[0]!.demoId, title: 'Invoices, the quick tour', opens: 2 },
        { id: entries[1]!.demoId, title: 'Secret roadmap tour', opens: 1 },
      ],
    });
    expect(data[0]).toMatchObject({ demos_opened: 0, demos: [] });
    const second = (await call(`/v1/hubs/${hubId}/visitors?per_page=2&page=2`)).json();
    expect(second.data.map((v: { email: string }) => v.email)).toEqual(['ann@early.test']);
  });

  it('filters on the day of identification, inclusive', async () => {
    const day = (await call(`/v1/hubs/${hubId}/visitors?start_date=2026-11-21&end_date=2026-11-21`)).json();
    expect(day.data.map((v: { email: string }) => v.email)).toEqual(['bob@acme.test']);
    const since = (await call(`/v1/hubs/${hubId}/visitors?start_date=2026-11-21T09:00:00.001Z`)).json();
    expect(since.data.map((v: { email: string }) => v.email)).toEqual(['cleo@late.test']);
    expect((await call(`/v1/hubs/${hubId}/visitors?end_date=2026-11-19`)).json().meta.total).toBe(0);
  });

  it('exports the same visitors as CSV, quoted and with formulas defused', async () => {
    const res = await call(`/v1/hubs/${hubId}/visitors/export?start_date=2026-11-20`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="hub-visitors-${hubId}-2026-11-22.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('identified_at,email,name,company,job_title,phone,demos_opened,demo_ids,demo_titles');
    expect(lines[1]).toBe('2026-11-22T09:00:00.000Z,cleo@late.test,Cleo,"Late\nLine",VP,,0,,');
    expect(lines[2]).toBe(
      `2026-11-21T09:00:00.000Z,bob@acme.test,"Smith, ""Bob""","'=HYPERLINK(""http://evil.test"")",'@buyer,,3,` +
        `${entries[0]!.demoId}; ${entries[1]!.demoId},"Invoices, the quick tour; Secret roadmap tour"`,
    );
    expect(lines[3]).toMatch(/^2026-11-20T09:00:00.000Z,ann@early.test,Ann Early,Early Co,CTO,,0,,$/);
    expect(lines).toHaveLength(5); // the last CRLF ends the last line
  });

  it('leaves out the visits of members signed in to the web app, as their views; a stranger’s sign-in changes nothing', async () => {
    const figures = async () => (await call(`/v1/hubs/${hubId}/analytics`)).json().data;
    const before = await figures();
    const visitAs = async (cookie: string, email: string) => {
      const v = hubClient(t, token, { ip: '198.51.100.9', cookie });
      expect((await v.call('POST', '/access', { name: 'Someone', email, company: 'Us', job_title: 'Tester' })).statusCode).toBe(200);
      expect((await v.call('POST', `/entries/${entries[0]!.id}/open`)).statusCode).toBe(200);
    };
    await visitAs(admin.cookie, 'admin.testing@example.com');
    const member = await t.member(admin, 'viewer');
    await visitAs(member.cookie, 'member.testing@example.com');
    const after = await figures();
    expect(after).toMatchObject({ visits: before.visits, identified_visitors: before.identified_visitors, demos_opened: before.demos_opened });
    expect(after.recent_visitors.map((v: { email: string }) => v.email)).not.toContain('admin.testing@example.com');
    const listed = (await call(`/v1/hubs/${hubId}/visitors?per_page=100`)).json();
    expect(listed.meta.total).toBe(3);
    expect(JSON.stringify(listed.data)).not.toContain('testing@example.com');
    expect((await call(`/v1/hubs/${hubId}/visitors/export`)).body).not.toContain('testing@example.com');

    // Someone signed in to another workspace is a visitor like any other here.
    const stranger = await t.signUp();
    clock.advance(60_000);
    await visitAs(stranger.cookie, 'stranger@elsewhere.test');
    expect(await figures()).toMatchObject({ visits: before.visits + 1, identified_visitors: before.identified_visitors + 1, demos_opened: before.demos_opened + 1 });
    const now = (await call(`/v1/hubs/${hubId}/visitors`)).json();
    expect(now.meta.total).toBe(4);
    expect(now.data[0].email).toBe('stranger@elsewhere.test');
  });

  it('answers bad input with a 400 naming the parameter, and a hub not of the workspace with 404', async () => {
    for (const path of ['visitors', 'visitors/export']) {
      const bad = await call(`/v1/hubs/${hubId}/${path}?start_date=2026-13-01`);
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json().error.details[0].field).toBe('start_date');
      const reversed = await call(`/v1/hubs/${hubId}/${path}?start_date=2026-11-22&end_date=2026-11-20`);
      expect(reversed.statusCode).toBe(400);
      expect(reversed.json().error.details.map((d: { field: string }) => d.field)).toEqual(['start_date', 'end_date']);
      expect((await call(`/v1/hubs/${hubId}/${path}?email=ann@early.test`)).statusCode).toBe(400);
      expect((await call(`/v1/hubs/${newId('hub')}/${path}`)).statusCode).toBe(404);
      expect((await call(`/v1/hubs/not-a-hub/${path}`)).statusCode).toBe(400);
      const other = await t.apiKey('all');
      const elsewhere = await call(`/v1/hubs/${hubId}/${path}`, other);
      expect(elsewhere.statusCode).toBe(404);
      expect(elsewhere.body).not.toContain('ann@early.test');
    }
    expect((await call(`/v1/hubs/${hubId}/visitors?per_page=101`)).statusCode).toBe(400);
  });
});
