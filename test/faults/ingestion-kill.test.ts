import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/database';
import { ServiceProcess } from '../helpers/service-process';
import { createShare, demoWithSteps } from '../helpers/shares';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { runViewerLoad } from './viewer-load';

const onPostgres = engine === 'postgres';
if (!onPostgres) {
  console.warn('\n*** SKIPPED: the ingestion kill -9 test needs PostgreSQL (two API processes, one database). Set TEST_DATABASE_URL. ***\n');
}

const STEPS = 4;
// Every viewer request comes from 127.0.0.1: the per-IP budgets must not be what the test measures.
const SERVE_ENV = { VIEWER_RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000' };

describe.skipIf(!onPostgres)('kill -9 of an API process during viewer-event ingestion', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;
  let token: string;
  const processes: ServiceProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, STEPS);
    token = (await createShare(t, key, demoId)).token;
    for (let i = 0; i < 2; i++) processes.push(await ServiceProcess.serve({ DATABASE_URL: t.db.url!, ...SERVE_ENV }).start());
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await t?.close();
  });

  it('stores every acknowledged event exactly once, and the roll-ups agree with the raw rows', async () => {
    const [victim, survivor] = processes as [ServiceProcess, ServiceProcess];
    let stop = false;
    const load = runViewerLoad({ token, processes, viewers: 24, steps: STEPS, keepGoing: () => !stop, retryDelayMs: 100 });

    // Mid-load: enough acknowledged on the victim that some of its batches are in flight when it dies.
    const ackedOnVictim = async () => {
      const res = await fetch(`${victim.url}/metrics`);
      const text = await res.text();
      return text
        .split('\n')
        .filter((l) => l.startsWith('demoshare_http_requests_total') && l.includes('/events') && l.includes('status="202"'))
        .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
    };
    const deadline = Date.now() + 60_000;
    while ((await ackedOnVictim()) < 300) {
      if (Date.now() > deadline) throw new Error(`the victim acknowledged too little:\n${victim.tail()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const killedAt = Date.now();
    await victim.kill();
    // Load goes on against the survivor alone for a while, then every session started is finished.
    await new Promise((r) => setTimeout(r, 4_000));
    stop = true;
    const result = await load;
    const drainedMs = Date.now() - killedAt;

    const sentIds = [...result.sent];
    expect(result.acked.size).toBe(sentIds.length);
    // The kill cost some requests their answer (or their connection): they were sent again, and only the
    // survivor answers now.
    expect(result.failures.get('network') ?? 0).toBeGreaterThan(0);
    expect([...result.failures.keys()].filter((k) => k !== 'network')).toEqual([]);
    expect(survivor.running).toBe(true);

    const db = t.ctx.database;
    const stored = (await db.executeSql('select event_id::text as id from ingested_events')).rows.map((r) => r.id as string);
    const storedSet = new Set(stored);
    // Every acknowledged event is stored, and nothing that was never sent.
    expect(sentIds.filter((id) => !storedSet.has(id))).toEqual([]);
    expect(stored.filter((id) => !result.sent.has(id))).toEqual([]);
    expect(stored.length).toBe(storedSet.size);

    // None twice: one view per session, each having reached every step once and completed once.
    const viewRows = (
      await db.executeSql(
        `select v.id, v.completed, v.steps_viewed, (select count(*)::int from view_steps s where s.view_id = v.id) as step_rows
         from views v where v.demo_id = $1`,
        [demoId],
      )
    ).rows as Array<{ id: string; completed: boolean; steps_viewed: number[]; step_rows: number }>;
    expect(viewRows).toHaveLength(result.sessions);
    expect(viewRows.filter((v) => !v.completed || v.step_rows !== STEPS || v.steps_viewed.length !== STEPS)).toEqual([]);

    // The roll-ups, the link's counter and the analytics API agree with the raw rows.
    const [daily] = (
      await db.executeSql('select sum(views)::int as views, sum(completions)::int as completions from demo_daily_stats where demo_id = $1', [
        demoId,
      ])
    ).rows as Array<{ views: number; completions: number }>;
    expect(daily).toEqual({ views: viewRows.length, completions: viewRows.length });
    const perStep = (
      await db.executeSql(
        'select step_number, sum(views)::int as views from demo_step_daily_stats where demo_id = $1 group by step_number order by step_number',
        [demoId],
      )
    ).rows;
    expect(perStep).toEqual(Array.from({ length: STEPS }, (_, i) => ({ step_number: i + 1, views: viewRows.length })));
    const [link] = (await db.executeSql('select view_count from shares where demo_id = $1', [demoId])).rows;
    expect(link).toEqual({ view_count: viewRows.length });
    const analytics = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics`, headers: bearer(key) })).json().data;
    expect(analytics).toMatchObject({ total_views: viewRows.length, completion_rate: 1 });
    expect(analytics.steps.map((s: { views: number }) => s.views)).toEqual(Array(STEPS).fill(viewRows.length));
    const outbox = (await db.executeSql(`select kind, count(*)::int as n from events where kind in ('demo.viewed', 'demo.completed') group by kind order by kind`)).rows;
    expect(outbox).toEqual([
      { kind: 'demo.completed', n: viewRows.length },
      { kind: 'demo.viewed', n: viewRows.length },
    ]);

    console.info(
      `ingestion kill -9: ${result.sessions} views, ${sentIds.length} events acknowledged ` +
        `(${[...result.acked.values()].filter((a) => a === 'duplicate').length} as duplicates of a write the victim made ` +
        `but could not acknowledge), ${result.retried} requests re-sent, ${result.failures.get('network')} network failures; ` +
        `load drained ${drainedMs} ms after the kill`,
    );
  });
});
