import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { manualClock } from '../src/core/clock';
import { applyViewRetention, VIEW_RETENTION_JOB } from '../src/viewer-privacy/view-retention';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const DAY = 86_400_000;
// Views on three days: day 0 and day 9 fall past a retention of 40 days on day 50; day 50 stays.
const DAY0 = Date.parse('2026-03-01T22:30:00.000Z');

describe('VIEW_RETENTION: views past it, and the analytics of their days, are deleted', () => {
  let t: TestApp;
  let key: string;
  let demoA: string;
  let demoB: string;
  let shareA: string;
  const clock = manualClock(new Date(DAY0));

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const sql = async (text: string, values: unknown[] = []) => (await t.ctx.database.executeSql(text, values)).rows as Record<string, number>[];
  const analytics = (demoId: string, from: string, to: string) => get(`/v1/demos/${demoId}/analytics?start_date=${from}&end_date=${to}&include_internal=true`);
  const rollupDays = async () =>
    (
      await sql(`select min(day)::text as first from (
        select day from demo_daily_stats union all select day from demo_step_daily_stats union all
        select day from demo_daily_viewers union all select day from demo_daily_segments union all
        select day from demo_daily_sketches union all select day from workspace_daily_sketches) d`)
    )[0]!.first as unknown as string;

  beforeAll(async () => {
    t = await createTestApp({
      clock,
      config: { VIEW_RETENTION: 40 * DAY, VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 },
    });
    const admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoA = await demoWithSteps(t, key, 3);
    demoB = await demoWithSteps(t, key, 2);
    const linkA = await createShare(t, key, demoA, { name: 'Prospects' });
    shareA = linkA.id;
    const linkB = await createShare(t, key, demoB);
    // Day 0, late in the UTC day: the viewer to be forgotten, another, and an anonymous one.
    await playView(t, linkA.token, { email: 'ana@globex.com', name: 'Ana', reached: 3, complete: true });
    await playView(t, linkA.token, { email: 'bo@initech.io', name: 'Bo', reached: 2 });
    await playView(t, linkB.token, { reached: 1 });
    clock.advance(9 * DAY);
    await playView(t, linkA.token, { email: 'ana@globex.com', name: 'Ana', reached: 2 });
    clock.advance(41 * DAY);
    // Day 50: what stays. Ana comes back.
    await playView(t, linkA.token, { email: 'ana@globex.com', name: 'Ana', reached: 3, complete: true });
    await playView(t, linkA.token, { email: 'cy@umbrella.org', name: 'Cy', reached: 1 });
    await playView(t, linkB.token, { reached: 2 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes the views and roll-ups of the days before the first day kept, and the rest adds up', async () => {
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const recentBefore = await analytics(demoA, today, today);
    const shareBefore = (await get(`/v1/demos/${demoA}/shares`)).data.find((s: { id: string }) => s.id === shareA);
    expect((await get(`/v1/demos/${demoA}/views?per_page=100&include_internal=true`)).data).toHaveLength(5);

    const result = await applyViewRetention(t.ctx);
    // 40 days before day 50 at 22:30 UTC is day 10: days 0 and 9 go, whole.
    expect(result.keptFrom).toBe(new Date(DAY0 + 10 * DAY).toISOString().slice(0, 10));
    expect(result.views).toBe(4);
    expect(result.rollupRows).toBeGreaterThan(0);

    const left = (await get(`/v1/demos/${demoA}/views?per_page=100&include_internal=true`)).data as Array<{ viewer: { email: string | null }; started_at: string }>;
    expect(left.map((v) => v.viewer.email).sort()).toEqual(['ana@globex.com', 'cy@umbrella.org']);
    expect((await get(`/v1/demos/${demoB}/views?per_page=100&include_internal=true`)).data).toHaveLength(1);
    expect((await sql(`select count(*)::int as n from views where started_at < $1`, [`${result.keptFrom}T00:00:00Z`]))[0]!.n).toBe(0);
    expect((await sql(`select count(*)::int as n from view_steps s where not exists (select 1 from views v where v.id = s.view_id)`))[0]!.n).toBe(0);
    expect(await rollupDays()).toBe(today);

    // Over the whole period, the figures are those of the views that remain; today's did not move.
    const whole = await analytics(demoA, new Date(DAY0).toISOString().slice(0, 10), today);
    expect(whole.data).toMatchObject({ total_views: 2, unique_viewers: 2, completion_rate: 0.5 });
    expect(await analytics(demoA, today, today)).toEqual({ ...recentBefore, meta: { ...recentBefore.meta, request_id: expect.any(String) } });
    // The link's lifetime counter is not a record of anyone: it keeps counting the views that went.
    const shareAfter = (await get(`/v1/demos/${demoA}/shares`)).data.find((s: { id: string }) => s.id === shareA);
    expect(shareAfter.view_count).toBe(shareBefore.view_count);

    // Ana's earlier visits are gone from every table the views feed; her visit of today is there.
    const traces = await sql(`select (select count(*)::int from views where viewer_email = 'ana@globex.com') as views,
      (select count(*)::int from demo_daily_viewers where viewer_key = 'ana@globex.com') as keys`);
    expect(traces[0]).toEqual({ views: 1, keys: 1 });

    // Nothing more to do on the same day.
    expect(await applyViewRetention(t.ctx)).toEqual({ keptFrom: result.keptFrom, views: 0, rollupRows: 0 });
  });

  it('keeps everything with VIEW_RETENTION=0s, and new views are recorded as before', async () => {
    const before = (await sql(`select count(*)::int as n from views`))[0]!.n;
    clock.advance(200 * DAY);
    expect(await applyViewRetention({ ...t.ctx, config: { ...t.ctx.config, VIEW_RETENTION: 0 } })).toEqual({ keptFrom: null, views: 0, rollupRows: 0 });
    expect((await sql(`select count(*)::int as n from views`))[0]!.n).toBe(before);
  });

  it('refuses a retention no longer than a viewer session lives', () => {
    expect(() => loadConfig({ VIEW_RETENTION: '30d' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIEW_RETENTION: '30d' })).toThrow(/VIEW_RETENTION: must be longer than VIEWER_SESSION_TTL/);
    expect(loadConfig({ VIEW_RETENTION: '13d', VIEWER_SESSION_TTL: '12d' }).VIEW_RETENTION).toBe(13 * DAY);
    expect(loadConfig({}).VIEW_RETENTION).toBe(0);
  });

  it('runs daily from the job queue', async () => {
    const jobClock = manualClock(new Date(DAY0));
    const withJobs = await createTestApp({ clock: jobClock, jobs: true, config: { VIEW_RETENTION: 31 * DAY } });
    try {
      const owner = await withJobs.signUp();
      const ownerKey = await withJobs.apiKey('all', owner);
      const link = await createShare(withJobs, ownerKey, await demoWithSteps(withJobs, ownerKey, 2));
      await playView(withJobs, link.token, { email: 'ana@globex.com', name: 'Ana', reached: 2 });
      jobClock.advance(33 * DAY);
      await playView(withJobs, link.token, { email: 'bo@initech.io', name: 'Bo', reached: 1 });
      const emails = async () =>
        (await withJobs.db.database.executeSql('select viewer_email from views order by started_at')).rows.map((r) => r.viewer_email);
      expect(await emails()).toEqual(['ana@globex.com', 'bo@initech.io']);
      await withJobs.ctx.queue.send(VIEW_RETENTION_JOB, {});
      // A deadline, not a wait: under a loaded CI the queue's worker has taken longer than 20 s to get to it.
      // Until the list is what the job leaves, not until it is shorter: the partitions job, which started
      // with the app, may move Ana's view out of the DEFAULT partition meanwhile, and a read planned before
      // that move and run after it misses the row once (a CI run ended the wait on such a read).
      const deadline = Date.now() + 90_000;
      const left = async () => JSON.stringify(await emails());
      while ((await left()) !== '["bo@initech.io"]' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(await emails()).toEqual(['bo@initech.io']);
    } finally {
      await withJobs.close();
    }
  }, 150_000);
});
