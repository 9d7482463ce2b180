import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../src/events/events.tables';
import { shares } from '../src/shares/shares.tables';
import { cleanUpViewerData } from '../src/viewing/viewer.jobs';
import { ingestedEvents, viewerSessions, views } from '../src/viewing/viewing.tables';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

async function until(condition: () => boolean, state: () => unknown, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(state())}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('view tracking, GET /v1/demos/:id/views and analytics', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  let demoId: string;
  let share: Awaited<ReturnType<typeof createShare>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, 3);
    share = await createShare(t, key, demoId, { require_identification: true });
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, k = key) => t.app.inject({ method: method as 'GET', url, headers: bearer(k) });
  const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });

  async function identified(email: string, ip: string) {
    const v = viewerClient(t, share.token, ip);
    const res = await v.call('POST', '/identify', { name: email.split('@')[0], email });
    expect(res.statusCode, res.body).toBe(200);
    return v;
  }

  it('records a full view: start, steps, completion; both events in the outbox', async () => {
    const v = await identified('carol@example.com', '198.51.100.1');
    const start = await v.call('POST', '/events', { events: [ev('view_started', { referrer: 'https://news.example/' })] });
    expect(start.statusCode, start.body).toBe(202);
    expect(start.json().data).toEqual({ accepted: 1, duplicates: 0 });
    const steps = await v.call('POST', '/events', {
      events: [
        ev('step_reached', { step_number: 2, seconds_on_previous: 4.5 }),
        ev('step_reached', { step_number: 3, seconds_on_previous: 3 }),
        ev('completed', { seconds_on_previous: 2.5 }),
      ],
    });
    expect(steps.statusCode, steps.body).toBe(202);
    expect(steps.json().data.accepted).toBe(3);

    const res = await call('GET', `/v1/demos/${demoId}/views`);
    expect(res.statusCode, res.body).toBe(200);
    const [view] = res.json().data;
    expect(view).toMatchObject({
      id: expect.stringMatching(/^view_/),
      demo_id: demoId,
      share_id: share.id,
      viewer: { email: 'carol@example.com', name: 'carol', anonymous_id: expect.any(String) },
      steps_viewed: [1, 2, 3],
      step_times: [
        { number: 1, seconds: 4.5 },
        { number: 2, seconds: 3 },
        { number: 3, seconds: 2.5 },
      ],
      completed: true,
      completed_at: expect.any(String),
      duration_seconds: 10,
      referrer: 'https://news.example/',
      user_agent: 'vitest-viewer',
    });
    const outbox = await t.ctx.database.db.select().from(events).where(eq(events.workspaceId, admin.workspaceId));
    const viewed = outbox.find((e) => e.kind === 'demo.viewed');
    const completed = outbox.find((e) => e.kind === 'demo.completed');
    expect(viewed?.data).toMatchObject({
      demo_id: demoId,
      view_id: view.id,
      share_id: share.id,
      viewer_email: 'carol@example.com',
      viewer_name: 'carol',
      started_at: view.started_at,
    });
    expect(completed?.data).toMatchObject({ demo_id: demoId, view_id: view.id, viewer_email: 'carol@example.com' });
    expect(typeof (completed!.data as { completion_time: number }).completion_time).toBe('number');
    const shareNow = await call('GET', `/v1/shares/${share.id}`);
    expect(shareNow.json().data.view_count).toBe(1);
    expect(shareNow.json().data.last_viewed_at).not.toBeNull();
  });

  it('counts a retried event once, and a repeated batch not at all', async () => {
    const v = await identified('dave@example.com', '198.51.100.2');
    const batch = [ev('view_started'), ev('step_reached', { step_number: 2, seconds_on_previous: 5 })];
    expect((await v.call('POST', '/events', { events: batch })).json().data).toEqual({ accepted: 2, duplicates: 0 });
    expect((await v.call('POST', '/events', { events: batch })).json().data).toEqual({ accepted: 0, duplicates: 2 });
    const again = batch[1]!;
    const mixed = await v.call('POST', '/events', { events: [again, again, ev('step_reached', { step_number: 3, seconds_on_previous: 1 })] });
    expect(mixed.json().data).toEqual({ accepted: 1, duplicates: 2 });
    const res = await call('GET', `/v1/demos/${demoId}/views?viewer_email=DAVE@example.com`);
    expect(res.json().meta.total).toBe(1);
    expect(res.json().data[0]).toMatchObject({
      steps_viewed: [1, 2, 3],
      step_times: [
        { number: 1, seconds: 5 },
        { number: 2, seconds: 1 },
        { number: 3, seconds: 0 },
      ],
      completed: false,
      duration_seconds: 6,
    });
  });

  it.each([
    [{ events: [] }, 'events'],
    [{ events: [{ id: 'not-a-uuid', type: 'view_started' }] }, 'events.0.id'],
    [{ events: [{ id: randomUUID(), type: 'clicked' }] }, 'events.0.type'],
    [{ events: [{ id: randomUUID(), type: 'step_reached' }] }, 'events.0.step_number'],
    [{ events: [{ id: randomUUID(), type: 'step_reached', step_number: 4 }] }, 'events.0.step_number'],
    [{ events: [{ id: randomUUID(), type: 'step_reached', step_number: 0 }] }, 'events.0.step_number'],
    [{ events: [{ id: randomUUID(), type: 'step_reached', step_number: 2, seconds_on_previous: -1 }] }, 'events.0.seconds_on_previous'],
    [{ events: [{ id: randomUUID(), type: 'view_started', extra: 1 }] }, 'events.0'],
    [{ events: Array.from({ length: 101 }, () => ({ id: randomUUID(), type: 'view_started' })) }, 'events'],
  ])('refuses malformed events %# with a 400 and stores nothing', async (body, field) => {
    const v = await identified(`bad${Math.random().toString(36).slice(2)}@example.com`, '198.51.100.3');
    const before = await t.ctx.database.db.select().from(views);
    const res = await v.call('POST', '/events', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    expect(JSON.stringify(res.json().error.details ?? [])).toContain(field);
    expect(await t.ctx.database.db.select().from(views)).toHaveLength(before.length);
  });

  it('caps a step duration at 3600 seconds', async () => {
    const v = await identified('erin@example.com', '198.51.100.5');
    const res = await v.call('POST', '/events', { events: [ev('view_started'), ev('step_reached', { step_number: 2, seconds_on_previous: 99_999 })] });
    expect(res.statusCode).toBe(202);
    const list = await call('GET', `/v1/demos/${demoId}/views?viewer_email=erin@example.com`);
    expect(list.json().data[0].step_times[0]).toEqual({ number: 1, seconds: 3600 });
  });

  it('refuses events without a session or before the gates', async () => {
    const anon = await t.app.inject({
      method: 'POST',
      url: `/v1/viewer/${share.token}/events`,
      payload: { events: [ev('view_started')] },
    });
    expect(anon.statusCode).toBe(403);
    const open = await createShare(t, key, demoId);
    const none = await t.app.inject({ method: 'POST', url: `/v1/viewer/${open.token}/events`, payload: { events: [ev('view_started')] } });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.details).toEqual([{ field: 'gate', message: 'session' }]);
  });

  it('filters views by date and paginates', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const all = await call('GET', `/v1/demos/${demoId}/views?start_date=${today}&end_date=${today}&per_page=1&page=2`);
    expect(all.statusCode).toBe(200);
    expect(all.json().meta).toMatchObject({ page: 2, per_page: 1 });
    expect(all.json().meta.total).toBeGreaterThanOrEqual(3);
    expect(all.json().data).toHaveLength(1);
    const none = await call('GET', `/v1/demos/${demoId}/views?end_date=2000-01-01`);
    expect(none.json()).toMatchObject({ data: [], meta: { total: 0 } });
    const future = await call('GET', `/v1/demos/${demoId}/views?start_date=2999-01-01T00:00:00Z`);
    expect(future.json().meta.total).toBe(0);
    expect((await call('GET', `/v1/demos/${demoId}/views?start_date=yesterday`)).statusCode).toBe(400);
    expect((await call('GET', `/v1/demos/${demoId}/views?per_page=101`)).statusCode).toBe(400);
  });

  it('aggregates analytics from the daily rollups', async () => {
    const res = await call('GET', `/v1/demos/${demoId}/analytics?granularity=day`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    // carol (completed, 10 s), dave (steps 1-3, 6 s), erin (steps 1-2, 3600 s), plus views of malformed-batch viewers: none.
    expect(data.total_views).toBe(3);
    expect(data.unique_viewers).toBe(3);
    expect(data.completion_rate).toBeCloseTo(1 / 3, 3);
    expect(data.avg_time_seconds).toBeCloseTo((10 + 6 + 3600) / 3, 1);
    expect(data.steps).toEqual([
      { number: 1, views: 3, avg_time: expect.closeTo((4.5 + 5 + 3600) / 3, 1), drop_off_rate: 0, title: 'Step 1' },
      { number: 2, views: 3, avg_time: expect.closeTo(4 / 3, 2), drop_off_rate: expect.closeTo(1 / 3, 3), title: 'Step 2' },
      { number: 3, views: 2, avg_time: expect.closeTo(2.5 / 2, 2), drop_off_rate: 0.5, title: 'Step 3' },
    ]);
    expect(data.series).toEqual([
      { period_start: new Date().toISOString().slice(0, 10), views: 3, unique_viewers: 3, completions: 1 },
    ]);
    const month = await call('GET', `/v1/demos/${demoId}/analytics?granularity=month`);
    expect(month.json().data.series[0].period_start).toMatch(/-01$/);
    const empty = await call('GET', `/v1/demos/${demoId}/analytics?end_date=2000-01-01`);
    expect(empty.json().data).toMatchObject({ total_views: 0, completion_rate: 0, avg_time_seconds: 0 });
    expect((await call('GET', `/v1/demos/${demoId}/analytics?granularity=year`)).statusCode).toBe(400);
  });

  it('needs analytics:read, and another workspace gets 404', async () => {
    const noAnalytics = await t.apiKey(['demos:read'], admin);
    const res = await call('GET', `/v1/demos/${demoId}/views`, noAnalytics);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toContain('analytics:read');
    const other = await t.apiKey('all');
    expect((await call('GET', `/v1/demos/${demoId}/views`, other)).statusCode).toBe(404);
    expect((await call('GET', `/v1/demos/${demoId}/analytics`, other)).statusCode).toBe(404);
    const viewer = await t.member(admin, 'viewer');
    expect((await viewer.inject({ method: 'GET', url: `/v1/demos/${demoId}/views` })).statusCode).toBe(200);
  });
  it('stores every event of concurrent viewers (batched into shared transactions) exactly once', async () => {
    const demo = await demoWithSteps(t, key, 2);
    const open = await createShare(t, key, demo);
    const viewers = await Promise.all(
      Array.from({ length: 15 }, async (_, i) => {
        const v = viewerClient(t, open.token, `203.0.113.${100 + i}`);
        expect((await v.call('GET', '')).statusCode).toBe(200);
        expect((await v.call('GET', '/demo')).statusCode).toBe(200);
        return v;
      }),
    );
    const batches = viewers.map(() => [ev('view_started'), ev('step_reached', { step_number: 2, seconds_on_previous: 2 }), ev('completed', { seconds_on_previous: 1 })]);
    // A busy database, as under load: the link's row stays locked (on PGlite the whole database does)
    // until every request has been handed to the batcher, so the first writes cannot finish before the
    // others arrive: whatever the machine's speed, all 15 wait for the batcher together.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const held = t.ctx.database.db.transaction(async (tx) => {
      await tx.select({ id: shares.id }).from(shares).where(eq(shares.id, open.id)).for('update');
      locked();
      await released;
    });
    await lockTaken;
    const sent = Promise.all(viewers.map((v, i) => v.call('POST', '/events', { events: batches[i] })));
    try {
      await until(
        () => t.ctx.services.viewing.ingestion.pending === viewers.length,
        () => ({ pending: t.ctx.services.viewing.ingestion.pending }),
      );
    } finally {
      release();
      await held;
    }
    const answers = await sent;
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 202));
    // PostgreSQL stamps each row with the transaction that wrote it (xmin): 15 views written by at most
    // three transactions (one or two flushes already under way, then the rest together) were batched.
    const writers = await t.ctx.database.executeSql('select count(distinct xmin::text)::int as n from views where demo_id = $1', [demo]);
    expect(Number(writers.rows[0]?.n)).toBeGreaterThanOrEqual(1);
    expect(Number(writers.rows[0]?.n)).toBeLessThanOrEqual(3);
    // Retried all at once: nothing is counted twice.
    const retried = await Promise.all(viewers.map((v, i) => v.call('POST', '/events', { events: batches[i] })));
    expect(retried.map((a) => a.json().data.accepted)).toEqual(retried.map(() => 0));
    const analytics = (await call('GET', `/v1/demos/${demo}/analytics`)).json().data;
    expect(analytics).toMatchObject({ total_views: 15, unique_viewers: 15, completion_rate: 1, avg_time_seconds: 3 });
    expect((await call('GET', `/v1/shares/${open.id}`)).json().data.view_count).toBe(15);
    const outbox = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.completed'));
    expect(outbox.filter((e) => (e.data as { demo_id: string }).demo_id === demo)).toHaveLength(15);
  });

  it("counts one viewer's overlapping requests sent at once a single time, and keeps the drop-off at the furthest step", async () => {
    const demo = await demoWithSteps(t, key, 3);
    const open = await createShare(t, key, demo);
    const v = viewerClient(t, open.token, '203.0.113.200');
    expect((await v.call('GET', '')).statusCode).toBe(200);
    const shared = ev('step_reached', { step_number: 2, seconds_on_previous: 4 });
    // Sent together: the batcher puts them in one transaction, and the shared event id is claimed once.
    const [a, b] = await Promise.all([
      v.call('POST', '/events', { events: [ev('view_started'), shared] }),
      v.call('POST', '/events', { events: [shared, ev('step_reached', { step_number: 3, seconds_on_previous: 1 })] }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    const answers = [a.json().data, b.json().data];
    expect(answers[0].accepted + answers[1].accepted).toBe(3);
    expect(answers[0].duplicates + answers[1].duplicates).toBe(1);
    const [view] = (await call('GET', `/v1/demos/${demo}/views`)).json().data;
    expect(view).toMatchObject({ steps_viewed: [1, 2, 3], completed: false, duration_seconds: 5 });
    const analytics = (await call('GET', `/v1/demos/${demo}/analytics`)).json().data;
    expect(analytics.total_views).toBe(1);
    expect(analytics.steps.map((s: { drop_off_rate: number }) => s.drop_off_rate)).toEqual([0, 0, 1]);
    expect((await call('GET', `/v1/shares/${open.id}`)).json().data.view_count).toBe(1);
  });

  it('the hourly clean-up deletes expired viewer sessions with their event ids and old access log entries, keeping views', async () => {
    const demo = await demoWithSteps(t, key, 2);
    const open = await createShare(t, key, demo);
    const v = viewerClient(t, open.token, '203.0.113.201');
    expect((await v.call('GET', '')).statusCode).toBe(200);
    expect((await v.call('POST', '/events', { events: [ev('view_started')] })).statusCode).toBe(202);
    const sessionIds = (await t.ctx.database.db.select().from(viewerSessions).where(eq(viewerSessions.shareId, open.id))).map((s) => s.id);
    expect(sessionIds).toHaveLength(1);

    // Nothing has expired yet: nothing goes.
    await cleanUpViewerData(t.ctx);
    expect(await t.ctx.database.db.select().from(viewerSessions).where(eq(viewerSessions.shareId, open.id))).toHaveLength(1);

    const later = new Date(Date.now() + t.ctx.config.VIEWER_SESSION_TTL + t.ctx.config.ACCESS_LOG_RETENTION + 60_000);
    const removed = await cleanUpViewerData({ ...t.ctx, clock: { now: () => later } });
    expect(removed.sessions).toBeGreaterThanOrEqual(1);
    expect(removed.accessLog).toBeGreaterThanOrEqual(1);
    expect(await t.ctx.database.db.select().from(viewerSessions).where(eq(viewerSessions.shareId, open.id))).toEqual([]);
    expect(await t.ctx.database.db.select().from(ingestedEvents).where(eq(ingestedEvents.sessionId, sessionIds[0]!))).toEqual([]);
    expect((await call('GET', `/v1/shares/${open.id}/access-log`)).json().data).toEqual([]);
    // The view stays (it no longer points at a session), and counts in analytics as before.
    const [view] = (await call('GET', `/v1/demos/${demo}/views`)).json().data;
    expect(view).toMatchObject({ steps_viewed: [1] });
    expect((await call('GET', `/v1/demos/${demo}/analytics`)).json().data.total_views).toBe(1);
  });
});
