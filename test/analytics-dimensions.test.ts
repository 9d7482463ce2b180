import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { estimate, REGISTERS, STANDARD_ERROR } from '../src/core/hll';
import { createShare, demoWithSteps, playView, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });
const BASE = Date.parse('2026-05-04T09:00:00.000Z');
const DAY = 86_400_000;

describe('analytics per link, per company, per workspace, journeys and internal traffic', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  const clock = manualClock(new Date(BASE));

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  });
  afterAll(() => t?.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  const view = (token: string, opts: Parameters<typeof playView>[2]) => playView(t, token, opts);

  it('answers per link and per company, with free-mail viewers as individuals and anonymous ones left out', async () => {
    clock.set(new Date(BASE));
    const demoId = await demoWithSteps(t, key, 3);
    const globex = await createShare(t, key, demoId, { name: 'Globex' });
    // A personalised link: its values name the account in the per-link figures.
    const initech = await createShare(t, key, demoId, { name: 'Initech', variables: { company: 'Initech', first_name: 'Cy' } });
    await view(globex.token, { email: 'ana@globex.com', reached: 3, complete: true });
    await view(globex.token, { email: 'ana@globex.com', reached: 2 });
    await view(globex.token, { email: 'bo@globex.com', reached: 1 });
    clock.advance(DAY);
    await view(initech.token, { email: 'cy@initech.io', reached: 3, complete: true });
    await view(initech.token, { email: 'dee@gmail.com', reached: 1 });
    await view(initech.token, { email: 'ed@outlook.com', reached: 3, complete: true });
    await view(initech.token, { reached: 2 });

    const links = await get(`/v1/demos/${demoId}/analytics/links`);
    expect(links).toEqual([
      {
        share_id: initech.id,
        name: 'Initech',
        variables: { company: 'Initech', first_name: 'Cy' },
        revoked: false,
        views: 4,
        unique_viewers: 4,
        completions: 2,
        completion_rate: 0.5,
        last_viewed_at: new Date(BASE + DAY).toISOString(),
      },
      {
        share_id: globex.id,
        name: 'Globex',
        variables: {},
        revoked: false,
        views: 3,
        unique_viewers: 2,
        completions: 1,
        completion_rate: 0.3333,
        last_viewed_at: new Date(BASE).toISOString(),
      },
    ]);
    // A range of the first day only.
    const day1 = new Date(BASE).toISOString().slice(0, 10);
    expect(await get(`/v1/demos/${demoId}/analytics/links?start_date=${day1}&end_date=${day1}`)).toHaveLength(1);

    const companies = await get(`/v1/demos/${demoId}/analytics/companies`);
    expect(companies).toEqual([
      { company: 'globex.com', kind: 'company', viewers: 2, views: 3, completions: 1, completion_rate: 0.3333, last_seen_at: new Date(BASE).toISOString() },
      { company: null, kind: 'individuals', viewers: 2, views: 2, completions: 1, completion_rate: 0.5, last_seen_at: new Date(BASE + DAY).toISOString() },
      { company: 'initech.io', kind: 'company', viewers: 1, views: 1, completions: 1, completion_rate: 1, last_seen_at: new Date(BASE + DAY).toISOString() },
    ]);

    // A revoked link keeps its figures.
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/shares/${globex.id}`, headers: bearer(key) });
    expect(del.statusCode, del.body).toBe(204);
    const after = await get(`/v1/demos/${demoId}/analytics/links`);
    expect(after.find((l: { share_id: string }) => l.share_id === globex.id)).toMatchObject({ name: 'Globex', revoked: true, views: 3 });
  });

  it('leaves members’ own views out of every figure unless include_internal=true', async () => {
    clock.set(new Date(BASE + 10 * DAY));
    const demoId = await demoWithSteps(t, key, 2);
    const link = await createShare(t, key, demoId, { name: 'Prospect' });
    await view(link.token, { email: 'pat@prospect.com', reached: 2, complete: true });
    // The owner previews the link while signed in, and a colleague identifies with their member address.
    await view(link.token, { reached: 2, complete: true, member: admin });
    await view(link.token, { email: admin.email.toUpperCase(), reached: 1 });

    const listed = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views?include_internal=true`, headers: bearer(key) });
    expect(listed.json().data.map((v: { internal: boolean }) => v.internal).sort()).toEqual([false, true, true]);
    expect((await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: bearer(key) })).json().data).toHaveLength(1);

    const external = await get(`/v1/demos/${demoId}/analytics`);
    expect(external).toMatchObject({ total_views: 1, unique_viewers: 1, completion_rate: 1 });
    expect(external.steps[0].views).toBe(1);
    const all = await get(`/v1/demos/${demoId}/analytics?include_internal=true`);
    expect(all).toMatchObject({ total_views: 3, unique_viewers: 3 });
    expect(all.steps[0].views).toBe(3);
    expect((await get(`/v1/demos/${demoId}/analytics/links`))[0]).toMatchObject({ views: 1, unique_viewers: 1 });
    expect((await get(`/v1/demos/${demoId}/analytics/links?include_internal=true`))[0]).toMatchObject({ views: 3, unique_viewers: 3 });
    expect((await get(`/v1/demos/${demoId}/analytics/companies`)).map((c: { company: string }) => c.company)).toEqual(['prospect.com']);
    const day = new Date(BASE + 10 * DAY).toISOString().slice(0, 10);
    expect(await get(`/v1/analytics?start_date=${day}&end_date=${day}`)).toMatchObject({ total_views: 1 });
    expect(await get(`/v1/analytics?start_date=${day}&end_date=${day}&include_internal=true`)).toMatchObject({ total_views: 3 });

    const bad = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics?include_internal=yes`, headers: bearer(key) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('include_internal');
  });

  it('sums the workspace: totals, a zero-filled series, unique viewers across demos and the top demos', async () => {
    const other = await t.signUp();
    const otherKey = await t.apiKey('all', other);
    clock.set(new Date(BASE + 20 * DAY));
    const a = await demoWithSteps(t, otherKey, 2);
    const b = await demoWithSteps(t, otherKey, 2);
    const la = await createShare(t, otherKey, a);
    const lb = await createShare(t, otherKey, b);
    await view(la.token, { email: 'same@acme.com', reached: 2, complete: true });
    await view(la.token, { email: 'x@acme.com', reached: 1 });
    clock.advance(2 * DAY);
    await view(lb.token, { email: 'same@acme.com', reached: 2, complete: true });
    const start = new Date(BASE + 20 * DAY).toISOString().slice(0, 10);
    const end = new Date(BASE + 23 * DAY).toISOString().slice(0, 10);
    const res = await t.app.inject({ method: 'GET', url: `/v1/analytics?start_date=${start}&end_date=${end}&granularity=day`, headers: bearer(otherKey) });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ total_views: 3, unique_viewers: 2, completions: 2, completion_rate: 0.6667, demos_viewed: 2 });
    expect(data.series.map((p: { views: number }) => p.views)).toEqual([2, 0, 1, 0]);
    expect(data.top_demos.map((d: { demo_id: string; views: number; unique_viewers: number }) => [d.demo_id, d.views, d.unique_viewers])).toEqual([
      [a, 2, 2],
      [b, 1, 1],
    ]);
    // The first workspace's demos are not this one's.
    expect(data.top_demos.some((d: { title: string }) => !d.title)).toBe(false);
  });

  it('tells one view’s journey, with the viewer’s other views', async () => {
    clock.set(new Date(BASE + 30 * DAY));
    const first = await demoWithSteps(t, key, 3);
    const second = await demoWithSteps(t, key, 2);
    const l1 = await createShare(t, key, first);
    const l2 = await createShare(t, key, second);
    await view(l2.token, { email: 'jo@journey.io', reached: 2 });
    clock.advance(60_000);
    await view(l1.token, { email: 'jo@journey.io', reached: 3, complete: true });
    const [latest] = (await t.app.inject({ method: 'GET', url: `/v1/demos/${first}/views`, headers: bearer(key) })).json().data;
    const journey = await get(`/v1/demos/${first}/views/${latest.id}/journey`);
    expect(journey.view.id).toBe(latest.id);
    expect(journey.steps.map((s: { number: number; title: string }) => [s.number, s.title])).toEqual([
      [1, 'Step 1'],
      [2, 'Step 2'],
      [3, 'Step 3'],
    ]);
    expect(journey.steps.map((s: { seconds: number }) => s.seconds)).toEqual([3, 3, 2]);
    expect(journey.other_views).toEqual([expect.objectContaining({ demo_id: second, steps_viewed: [1, 2], completed: false })]);
    const missing = await t.app.inject({ method: 'GET', url: `/v1/demos/${second}/views/${latest.id}/journey`, headers: bearer(key) });
    expect(missing.statusCode).toBe(404);
  });
});

describe('unique viewers from HyperLogLog sketches', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('estimates within three standard errors, and matches exact counts for a handful of viewers', async () => {
    const clock = manualClock(new Date(BASE));
    t = await createTestApp({ clock, config: { ANALYTICS_EXACT_VIEWERS_UP_TO: 0, VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    const admin = await t.signUp();
    const key = await t.apiKey('all', admin);
    // The SQL function the ingestion calls, at scale: 50,000 distinct keys into one sketch.
    const n = 50_000;
    const result = (await t.ctx.database.db.execute(
      sql`select demoshare_hll_add(decode(repeat('00', ${REGISTERS}), 'hex'), array(select 'viewer-' || g || '@example.com' from generate_series(1, ${n}) g)) as s`,
    )) as unknown as { rows: Array<{ s: Uint8Array | string }> };
    const raw = result.rows[0]!.s;
    const sketch = typeof raw === 'string' ? Buffer.from(raw.replace(/^\\x/, ''), 'hex') : new Uint8Array(raw);
    expect(Math.abs(estimate(sketch) - n) / n).toBeLessThan(3 * STANDARD_ERROR);

    // Through the API, with every range estimated: a few viewers come out exact (linear counting).
    const demoId = await demoWithSteps(t, key, 1);
    const link = await createShare(t, key, demoId);
    for (let i = 0; i < 6; i++) {
      const v = viewerClient(t, link.token, `203.0.113.${i + 1}`);
      await v.call('GET', '');
      await v.call('POST', '/identify', { name: 'V', email: `v${i % 4}@hll.test` });
      await v.call('POST', '/events', { events: [ev('view_started')] });
    }
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics?granularity=day`, headers: bearer(key) });
    expect(res.json().data).toMatchObject({ total_views: 6, unique_viewers: 4 });
    expect(res.json().data.series).toEqual([expect.objectContaining({ views: 6, unique_viewers: 4 })]);

    // The workspace's own day sketches: a viewer of two demos counts once, a member's view only when asked.
    const other = await demoWithSteps(t, key, 1);
    const otherLink = await createShare(t, key, other);
    for (const i of [2, 3, 4, 5]) await playView(t, otherLink.token, { email: `v${i}@hll.test`, reached: 1, ip: `203.0.113.${20 + i}` });
    await playView(t, otherLink.token, { reached: 1, member: admin });
    const overview = async (query = '') =>
      (await t.app.inject({ method: 'GET', url: `/v1/analytics?granularity=day${query}`, headers: bearer(key) })).json().data;
    expect(await overview()).toMatchObject({ total_views: 10, unique_viewers: 6, series: [expect.objectContaining({ views: 10, unique_viewers: 6 })] });
    expect(await overview('&include_internal=true')).toMatchObject({ total_views: 11, unique_viewers: 7 });
    const rows = (await t.ctx.database.db.execute(sql`select count(*)::int as n from workspace_daily_sketches`)) as unknown as { rows: Array<{ n: number }> };
    expect(rows.rows[0]!.n).toBe(2);
  });
});
