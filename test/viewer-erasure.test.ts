import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { addressPattern } from '../src/viewer-privacy/viewer-privacy.service';
import { findInDatabase, textColumns } from './helpers/database-scan';
import { createShare, demoWithSteps, playView, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

const BASE = Date.parse('2026-06-01T10:00:00.000Z');
const DAY = 86_400_000;
const ERASED = 'ana@globex.com';
const ERASED_NAME = 'Ana Lytic';

interface ApiView {
  id: string;
  viewer: { email: string | null; name: string | null; anonymous_id: string | null };
  steps_viewed: number[];
  step_times: Array<{ number: number; seconds: number }>;
  completed: boolean;
  duration_seconds: number;
  share_id: string | null;
  started_at: string;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);
const mean = (total: number, n: number) => (n > 0 ? Math.round((total / n) * 100) / 100 : 0);
const viewerKey = (v: ApiView) => v.viewer.email ?? v.viewer.anonymous_id;

/** A demo's analytics as the raw views make them, computed here without the roll-ups. */
function fromViews(views: ApiView[], stepCount: number) {
  const duration = views.reduce((s, v) => s + v.duration_seconds, 0);
  return {
    total_views: views.length,
    unique_viewers: new Set(views.map(viewerKey)).size,
    completion_rate: ratio(views.filter((v) => v.completed).length, views.length),
    avg_time_seconds: mean(duration, views.length),
    steps: Array.from({ length: stepCount }, (_, i) => {
      const n = i + 1;
      const reached = views.filter((v) => v.steps_viewed.includes(n));
      const seconds = reached.reduce((s, v) => s + (v.step_times.find((t) => t.number === n)?.seconds ?? 0), 0);
      const ended = reached.filter((v) => !v.completed && Math.max(...v.steps_viewed) === n).length;
      return { number: n, views: reached.length, avg_time: mean(seconds, reached.length), drop_off_rate: ratio(ended, reached.length) };
    }),
  };
}

describe('viewer-data erasure (POST /v1/viewer-erasures)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let failing: WebhookReceiver;
  let admin: TestSession;
  let key: string;
  let other: TestSession;
  let otherKey: string;
  const demos: string[] = [];
  const links: Array<{ id: string; token: string }> = [];
  const clock = manualClock(new Date(BASE));

  const get = async (url: string, k = key) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(k) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const allViews = async (demoId: string, k = key): Promise<ApiView[]> =>
    (await get(`/v1/demos/${demoId}/views?per_page=100&include_internal=true`, k)).data;
  const scan = (needle: string) => findInDatabase(t.ctx.database, needle);
  /**
   * The rows holding `email` as a whole address (hana@… holds ana@… as a substring), by column: findInDatabase
   * finds the columns, the pattern the erasure itself uses tells an address from a longer one.
   */
  const traces = async (email: string) => {
    const found = new Map<string, Record<string, unknown>[]>();
    const types = new Map((await textColumns(t.ctx.database)).map((c) => [`${c.table_schema}.${c.table_name}.${c.column_name}`, c.data_type]));
    for (const hit of await scan(email)) {
      const [schema, table, column] = hit.split('.') as [string, string, string];
      const cast = types.get(hit) === 'bytea' ? `encode("${column}", 'escape')` : `"${column}"::text`;
      const rows = await sql(`select * from "${schema}"."${table}" where ${cast} ~* $1`, [addressPattern(email)]);
      if (rows.length > 0) found.set(hit, rows);
    }
    return found;
  };
  const sql = async (text: string, values: unknown[] = []) => (await t.ctx.database.executeSql(text, values)).rows as Record<string, unknown>[];

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    failing = await new WebhookReceiver().start();
    failing.respond(() => ({ status: 500, body: 'down' }));
    t = await createTestApp({
      clock,
      jobs: true,
      config: {
        ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
        WEBHOOK_POLL_INTERVAL: 100,
        // The failing receiver's second attempt is an hour away on the test's frozen clock: still pending.
        WEBHOOK_RETRY_DELAYS: [3_600_000, 3_600_000],
        VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000,
        RATE_LIMIT_PER_MINUTE: 1_000_000,
      },
    });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    const events = ['demo.viewed', 'demo.completed', 'viewer.identified'];
    for (const url of [`${receiver.url}/hook`, `${failing.url}/hook`]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url, events } });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (let i = 0; i < 2; i++) {
      const demoId = await demoWithSteps(t, key, 3);
      demos.push(demoId);
      links.push(await createShare(t, key, demoId, { name: `Link ${i + 1}` }));
    }
    const [l1, l2] = links as [{ id: string; token: string }, { id: string; token: string }];
    // Day 1: the viewer to erase on both demos (in mixed case once), and others beside them.
    await playView(t, l1.token, { email: 'Ana@Globex.com', name: ERASED_NAME, reached: 3, complete: true });
    await playView(t, l1.token, { email: 'bo@initech.io', name: 'Bo', reached: 2 });
    await playView(t, l1.token, { email: 'hana@globex.com', name: 'Hana', reached: 3, complete: true });
    await playView(t, l1.token, { reached: 1 });
    await playView(t, l2.token, { email: ERASED, name: ERASED_NAME, reached: 2 });
    clock.advance(DAY);
    // Day 2.
    await playView(t, l1.token, { email: ERASED, name: ERASED_NAME, reached: 2 });
    await playView(t, l2.token, { email: 'cy@umbrella.org', name: 'Cy', reached: 3, complete: true });
    await playView(t, l2.token, { email: 'bo@initech.io', name: 'Bo', reached: 3 });
    await playView(t, l2.token, { reached: 2 });

    // Another workspace, the same address.
    other = await t.signUp();
    otherKey = await t.apiKey('all', other);
    const otherDemo = await demoWithSteps(t, otherKey, 2);
    const otherLink = await createShare(t, otherKey, otherDemo);
    await playView(t, otherLink.token, { email: ERASED, name: 'Ana Elsewhere', reached: 2, complete: true });
    demos.push(otherDemo);

    // Every event of the first workspace delivered to the receiver that answers, and tried once at the other.
    const workspace = admin.workspaceId;
    await eventually(
      async () => {
        const [row] = await sql(
          `select (select count(*)::int from events where workspace_id = $1 and dispatched_at is null) as undispatched,
                  (select count(*)::int from webhook_deliveries where workspace_id = $1 and status = 'succeeded') as ok,
                  (select count(*)::int from webhook_deliveries where workspace_id = $1 and attempts = 0) as untried,
                  (select count(*)::int from events where workspace_id = $1 and kind = any($2)) as events`,
          [workspace, events],
        );
        return row!.undispatched === 0 && row!.untried === 0 && row!.ok === row!.events && (row!.events as number) > 0;
      },
      30_000,
      'every event delivered',
    );
    expect(receiver.received.some((r) => r.body.toString().includes(ERASED))).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await failing?.close();
  });

  it('refuses bad input with 400, and editors, viewers and keys without demos:write with 403, changing nothing', async () => {
    const post = (payload: unknown, headers: Record<string, string> = bearer(key)) =>
      t.app.inject({ method: 'POST', url: '/v1/viewer-erasures', headers, payload: payload as object });
    for (const body of [{}, { email: 'not-an-address' }, { email: ERASED, extra: 1 }, { email: 'a\u0000@globex.com' }, { email: 42 }]) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    }
    const editor = await t.member(admin, 'editor');
    const viewer = await t.member(admin, 'viewer');
    const refusals = [
      await editor.inject({ method: 'POST', url: '/v1/viewer-erasures', payload: { email: ERASED } }),
      await viewer.inject({ method: 'POST', url: '/v1/viewer-erasures', payload: { email: ERASED } }),
      await post({ email: ERASED }, bearer(await t.apiKey('all', editor))),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    const narrow = await post({ email: ERASED }, bearer(await t.apiKey(['analytics:read', 'shares:write'], admin)));
    expect(narrow.statusCode).toBe(403);
    expect(narrow.json().error.code).toBe('insufficient_scope');
    expect(narrow.json().error.message).toContain('demos:write');
    // Nothing went: the viewer's three views are still listed.
    const mine = (await Promise.all(demos.slice(0, 2).map((d) => allViews(d)))).flat().filter((v) => v.viewer.email === ERASED);
    expect(mine).toHaveLength(3);
  });

  it('erases one viewer in one workspace, rebuilds the analytics from the views left, and records counts only', async () => {
    const [d1, d2] = demos as [string, string];
    const before = { d1: await allViews(d1), d2: await allViews(d2) };
    const stepCount = 3;
    // The roll-ups agree with the raw views before, too: the comparison below means something.
    expect(stripSeries((await get(`/v1/demos/${d1}/analytics?include_internal=true`)).data)).toEqual(fromViews(before.d1, stepCount));
    const overviewBefore = (await get('/v1/analytics?include_internal=true')).data;
    expect(overviewBefore.total_views).toBe(before.d1.length + before.d2.length);
    const accessLogBefore = (await get(`/v1/shares/${links[0]!.id}/access-log?per_page=100`)).data as Array<{ viewer_email: string | null }>;
    expect(accessLogBefore.some((e) => e.viewer_email === ERASED)).toBe(true);
    expect((await scan(ERASED)).length).toBeGreaterThan(3);

    const res = await t.app.inject({ method: 'POST', url: '/v1/viewer-erasures', headers: bearer(key), payload: { email: 'ANA@globex.com' } });
    expect(res.statusCode, res.body).toBe(200);
    const counts = res.json().data;
    expect(counts).toMatchObject({
      views: 3,
      viewer_sessions: 3,
      demos_recomputed: 2,
      days_recomputed: 3,
      shares_recounted: 2,
      // The failing webhook's deliveries of the viewer's seven events wait for a retry: cancelled.
      webhook_deliveries_cancelled: 7,
    });
    // Steps reached: 3 + 2 + 2.
    expect(counts.step_times).toBe(7);
    expect(counts.dedup_ids).toBeGreaterThanOrEqual(7);
    expect(counts.access_log_entries).toBeGreaterThanOrEqual(3);
    // demo.viewed ×3, demo.completed ×1, viewer.identified ×3; each to two webhooks.
    expect(counts.webhook_events).toBe(7);
    expect(counts.webhook_deliveries).toBe(14);
    expect(counts.notification_records).toBeGreaterThanOrEqual(3);

    // Not a trace of the address or the name in this workspace: the other workspace's rows alone remain.
    expect(await scan(ERASED_NAME)).toEqual([]);
    const ours = [admin.workspaceId, d1, d2, ...links.map((l) => l.id)];
    for (const [hit, rows] of await traces(ERASED)) {
      for (const row of rows) for (const id of ours) expect(JSON.stringify(row), hit).not.toContain(id);
    }
    const after = { d1: await allViews(d1), d2: await allViews(d2) };
    expect([...after.d1, ...after.d2].filter((v) => v.viewer.email === ERASED)).toEqual([]);
    // Everybody else untouched, view for view.
    const others = (vs: ApiView[]) => vs.filter((v) => v.viewer.email !== ERASED);
    expect(after.d1).toEqual(others(before.d1));
    expect(after.d2).toEqual(others(before.d2));
    expect((await allViews(d1)).some((v) => v.viewer.email === 'hana@globex.com')).toBe(true);

    // Analytics: exactly what the remaining views make.
    for (const [demoId, views] of [
      [d1, after.d1],
      [d2, after.d2],
    ] as const) {
      expect(stripSeries((await get(`/v1/demos/${demoId}/analytics?include_internal=true`)).data)).toEqual(fromViews(views, stepCount));
      for (const day of [0, 1]) {
        const date = new Date(BASE + day * DAY).toISOString().slice(0, 10);
        const ofDay = views.filter((v) => v.started_at.startsWith(date));
        const got = (await get(`/v1/demos/${demoId}/analytics?include_internal=true&start_date=${date}&end_date=${date}`)).data;
        expect(stripSeries(got), `${demoId} ${date}`).toEqual(fromViews(ofDay, stepCount));
      }
      const byLink = (await get(`/v1/demos/${demoId}/analytics/links?include_internal=true`)).data;
      expect(byLink.map((l: { views: number; unique_viewers: number }) => [l.views, l.unique_viewers])).toEqual([
        [views.length, new Set(views.map(viewerKey)).size],
      ]);
      const companies = (await get(`/v1/demos/${demoId}/analytics/companies?include_internal=true`)).data as Array<{ views: number }>;
      expect(companies.reduce((s, c) => s + c.views, 0)).toBe(views.filter((v) => v.viewer.email).length);
    }
    const all = [...after.d1, ...after.d2];
    const overview = (await get('/v1/analytics?include_internal=true')).data;
    expect(overview).toMatchObject({
      total_views: all.length,
      unique_viewers: new Set(all.map(viewerKey)).size,
      completions: all.filter((v) => v.completed).length,
      avg_time_seconds: mean(
        all.reduce((s, v) => s + v.duration_seconds, 0),
        all.length,
      ),
    });
    // The sketches hold exactly the remaining viewers: rebuilt as ingestion would fill them from scratch.
    const sketchMismatch = await sql(
      `with keys as (
         select v.demo_id, d.workspace_id, (v.started_at at time zone 'UTC')::date as day, v.internal,
           coalesce(v.viewer_email, v.anonymous_id) as k
         from views v join demos d on d.id = v.demo_id where d.workspace_id = $1),
       demo_expected as (select demo_id, day, internal, demoshare_hll_add(decode(repeat('00', 4096), 'hex'), array_agg(distinct k)) as s from keys group by 1, 2, 3),
       ws_expected as (select workspace_id, day, internal, demoshare_hll_add(decode(repeat('00', 4096), 'hex'), array_agg(distinct k)) as s from keys group by 1, 2, 3)
       select 'demo' as kind from demo_expected e full join demo_daily_sketches r using (demo_id, day, internal)
         where (r.demo_id is null or r.demo_id in (select id from demos where workspace_id = $1)) and e.s is distinct from r.sketch
       union all
       select 'workspace' from ws_expected e full join workspace_daily_sketches r using (workspace_id, day, internal)
         where coalesce(r.workspace_id, e.workspace_id) = $1 and e.s is distinct from r.sketch`,
      [admin.workspaceId],
    );
    expect(sketchMismatch).toEqual([]);
    // The links' counters.
    const shareList = (await get(`/v1/demos/${d1}/shares`)).data as Array<{ id: string; view_count: number; last_viewed_at: string | null }>;
    const l1 = shareList.find((s) => s.id === links[0]!.id)!;
    expect(l1.view_count).toBe(after.d1.length);
    expect(l1.last_viewed_at).toBe(after.d1.map((v) => v.started_at).sort().at(-1));
    // The access log keeps everyone else's lines.
    const accessLog = (await get(`/v1/shares/${links[0]!.id}/access-log?per_page=100`)).data as Array<{ viewer_email: string | null }>;
    expect(accessLog.length).toBe(accessLogBefore.length - accessLogBefore.filter((e) => e.viewer_email === ERASED).length);
    expect(accessLog.some((e) => e.viewer_email === 'hana@globex.com')).toBe(true);

    // The delivery log keeps its deliveries, without the viewer; the failing webhook's retries were cancelled.
    const hooks = (await get('/v1/webhooks')).data as Array<{ id: string; url: string }>;
    const failingHook = hooks.find((h) => h.url.startsWith(failing.url))!;
    const deliveries = (await get(`/v1/webhooks/${failingHook.id}/deliveries?per_page=100`)).data as Array<{ status: string }>;
    expect(deliveries.filter((d) => d.status === 'cancelled')).toHaveLength(7);
    expect(deliveries.filter((d) => d.status === 'pending').length).toBeGreaterThan(0);

    // The audit entry: the counts, not the address.
    const session = await admin.inject({ method: 'GET', url: '/v1/audit-log?action=data.erased' });
    const entries = session.json().data;
    expect(entries).toHaveLength(1);
    expect(entries[0].target).toMatchObject({ type: 'viewer', id: null });
    expect(entries[0].changes).toEqual(counts);
    expect(JSON.stringify(entries)).not.toContain('ana@');

    // The other workspace's viewer of the same address is untouched.
    const otherViews = await allViews(demos[2]!, otherKey);
    expect(otherViews.map((v) => v.viewer.email)).toEqual([ERASED]);
    expect((await get(`/v1/demos/${demos[2]}/analytics`, otherKey)).data.total_views).toBe(1);

    // Again: nothing left, zeros, and a second entry.
    const again = await t.app.inject({ method: 'POST', url: '/v1/viewer-erasures', headers: bearer(key), payload: { email: ERASED } });
    expect(again.statusCode).toBe(200);
    expect(Object.values(again.json().data).every((n) => n === 0)).toBe(true);
    const unknown = await t.app.inject({ method: 'POST', url: '/v1/viewer-erasures', headers: bearer(key), payload: { email: 'nobody@nowhere.example' } });
    expect(unknown.statusCode).toBe(200);
    expect(Object.values(unknown.json().data).every((n) => n === 0)).toBe(true);

    // And once the other workspace erases the address too, the whole database is clean of it.
    const theirs = await t.app.inject({ method: 'POST', url: '/v1/viewer-erasures', headers: bearer(otherKey), payload: { email: ERASED } });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data.views).toBe(1);
    expect(await traces(ERASED)).toEqual(new Map());
    expect(await scan('Ana Elsewhere')).toEqual([]);
    // hana@globex.com, which contains the address, is still everywhere it was.
    expect((await scan('hana@globex.com')).length).toBeGreaterThan(3);
  });
});

/** The analytics fields fromViews computes (no series was asked for). */
/** The figures alone: without the series, the versions played and the step titles (not counted from views). */
function stripSeries(data: Record<string, unknown>) {
  const { series: _, versions_played: __, ...rest } = data;
  const steps = (rest.steps as Array<Record<string, unknown>> | undefined)?.map(({ title: ___, ...step }) => step);
  return steps ? { ...rest, steps } : rest;
}

describe('viewer-data erasure while other viewers are being ingested', () => {
  let t: TestApp;
  let key: string;
  afterAll(() => t?.close());

  it('answers every request, and leaves the figures equal to the remaining views', async () => {
    t = await createTestApp({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    key = await t.apiKey('all');
    const demoId = await demoWithSteps(t, key, 3);
    const link = await createShare(t, key, demoId);
    await playView(t, link.token, { email: ERASED, name: ERASED_NAME, reached: 3, complete: true });
    // The viewer's page stays open through the erasure.
    const ana = viewerClient(t, link.token, '203.0.113.5');
    expect((await ana.call('GET', '')).statusCode).toBe(200);
    expect((await ana.call('POST', '/identify', { name: ERASED_NAME, email: ERASED })).statusCode).toBe(200);
    expect((await ana.call('POST', '/events', { events: [{ id: randomUUID(), type: 'view_started' }] })).statusCode).toBe(202);
    expect((await ana.call('GET', '')).body).toContain(ERASED);
    // A view begun anonymously, the viewer identifying only afterwards and sending nothing more: the view has
    // no address, its session has, and the day's viewer set keys it by the visitor id.
    const before = viewerClient(t, link.token, '203.0.113.6');
    expect((await before.call('GET', '')).statusCode).toBe(200);
    expect((await before.call('POST', '/events', { events: [{ id: randomUUID(), type: 'view_started' }] })).statusCode).toBe(202);
    expect((await before.call('POST', '/identify', { name: ERASED_NAME, email: ERASED })).statusCode).toBe(200);
    // Thirty other viewers, their pages open and identified; then all their events arrive at once, with the
    // erasure in their midst (batched ingestion, two transactions at once on PostgreSQL). Their views start
    // on the same day, so the rebuilt roll-up rows are the ones their batches add to.
    const clients: Array<ReturnType<typeof viewerClient>> = [];
    for (let i = 0; i < 30; i++) {
      const v = viewerClient(t, link.token, `203.0.113.${i + 10}`);
      expect((await v.call('GET', '')).statusCode).toBe(200);
      expect((await v.call('POST', '/identify', { name: `Viewer ${i}`, email: `viewer${i}@initech.io` })).statusCode).toBe(200);
      clients.push(v);
    }
    const send = (v: ReturnType<typeof viewerClient>, i: number) => {
      const events: Array<Record<string, unknown>> = [{ id: randomUUID(), type: 'view_started' }];
      for (let s = 2; s <= 1 + (i % 3); s++) events.push({ id: randomUUID(), type: 'step_reached', step_number: s, seconds_on_previous: 3 });
      if (i % 3 === 2) events.push({ id: randomUUID(), type: 'completed', seconds_on_previous: 2 });
      return v.call('POST', '/events', { events });
    };
    const first = clients.slice(0, 15).map(send);
    const erased = t.app.inject({ method: 'POST', url: '/v1/viewer-erasures', headers: bearer(key), payload: { email: ERASED } });
    const rest = clients.slice(15).map((v, i) => send(v, i + 15));
    const [res, ...sent] = await Promise.all([erased, ...first, ...rest]);
    for (const r of sent) expect(r.statusCode, r.body).toBe(202);
    // The open page lost its session: its next events are refused as from no session (never a 5xx), and it
    // may start again as a new, anonymous visitor.
    const late = await ana.call('POST', '/events', { events: [{ id: randomUUID(), type: 'step_reached', step_number: 2, seconds_on_previous: 1 }] });
    expect(late.statusCode, late.body).toBe(401);
    const again = await ana.call('GET', '');
    expect(again.statusCode).toBe(200);
    expect(again.body).not.toContain(ERASED);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.views).toBe(3);

    const views = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views?per_page=100`, headers: bearer(key) })).json()
      .data as ApiView[];
    expect(views).toHaveLength(30);
    expect(views.some((v) => v.viewer.email === ERASED)).toBe(false);
    const analytics = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics`, headers: bearer(key) })).json().data;
    expect(stripSeries(analytics)).toEqual(fromViews(views, 3));
    const share = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/shares`, headers: bearer(key) })).json().data[0];
    expect(share.view_count).toBe(30);
  }, 120_000);
});
