/**
 * `node bin/run-ts.js bench/analytics.ts [sizes=10000,100000,1000000]` (part of `npm run bench`)
 *
 * Analytics latency as a demo grows: the demo endpoint (90 days, by day), the workspace overview (20 demos:
 * the growing one and 19 of 500 views each), and beside each the same figures aggregated by SQL over the
 * raw views. Views are written by seed:views (the real ingestion), whose rate is reported too. PGlite in a
 * temporary directory, and PostgreSQL when BENCH_DATABASE_URL, DATABASE_URL or TEST_DATABASE_URL is set (a
 * fresh database, dropped after). Medians of 15 requests in-process (app.inject), after 3 warm-ups.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../src/db/client';
import { seedViews } from '../src/viewing/seed-views';
import { medianMs, startInProcessApp } from './in-process';
import { readScriptSettings } from '../scripts/settings';
import { caller, seedDemo } from './seed-demo';

const sizes = (process.argv[2] ?? '10000,100000,1000000').split(',').map(Number);
const settings = readScriptSettings();
const postgresUrl = settings.benchDatabaseUrl ?? settings.databaseUrl ?? settings.testDatabaseUrl;
const OTHER_DEMOS = 19;
const OTHER_VIEWS = 500;
const DAYS = 90;

/** The demo endpoint's figures straight from the views: totals, distinct viewers, per day, per step. */
const rawDemo = (demoId: string, from: string, to: string) => sql`
  select
    (select json_build_object('views', count(*), 'viewers', count(distinct coalesce(viewer_email, anonymous_id)),
       'completions', count(*) filter (where completed), 'avg', avg(duration_seconds))
     from views where demo_id = ${demoId} and not internal and started_at >= ${from}::date and started_at < ${to}::date + 1) as totals,
    (select json_agg(d) from (select date_trunc('day', started_at) as day, count(*), count(distinct coalesce(viewer_email, anonymous_id)),
       count(*) filter (where completed) from views
     where demo_id = ${demoId} and not internal and started_at >= ${from}::date and started_at < ${to}::date + 1 group by 1) d) as series,
    (select json_agg(s) from (select s.step_number, count(*), avg(s.seconds) from view_steps s join views v on v.id = s.view_id
     where v.demo_id = ${demoId} and not v.internal and v.started_at >= ${from}::date and v.started_at < ${to}::date + 1 group by 1) s) as steps`;

const rawOverview = (workspaceId: string, from: string, to: string) => sql`
  select
    (select json_build_object('views', count(*), 'viewers', count(distinct coalesce(viewer_email, anonymous_id)),
       'completions', count(*) filter (where completed))
     from views where workspace_id = ${workspaceId} and not internal and started_at >= ${from}::date and started_at < ${to}::date + 1) as totals,
    (select json_agg(d) from (select date_trunc('day', started_at), count(*), count(distinct coalesce(viewer_email, anonymous_id)),
       count(*) filter (where completed) from views
     where workspace_id = ${workspaceId} and not internal and started_at >= ${from}::date and started_at < ${to}::date + 1 group by 1) d) as series,
    (select json_agg(t) from (select demo_id, count(*) from views
     where workspace_id = ${workspaceId} and not internal and started_at >= ${from}::date and started_at < ${to}::date + 1
     group by 1 order by 2 desc limit 10) t) as top`;

async function runEngine(engine: string, database: Database) {
  const { app, close } = await startInProcessApp(database);
  const { auth, demo } = await seedDemo(app, ['demos:read', 'demos:write', 'analytics:read']);
  const call = caller(app);
  await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' }, auth);
  const [{ workspace_id: workspaceId }] = ((await database.db.execute(sql`select workspace_id from demos where id = ${demo.id}`)) as unknown as {
    rows: Array<{ workspace_id: string }>;
  }).rows as [{ workspace_id: string }];
  for (let i = 0; i < OTHER_DEMOS; i++) {
    const other = (await call('POST', '/v1/demos', { title: `Other ${i}`, source_url: 'https://example.com' }, auth)).json().data as { id: string };
    await app.inject({ method: 'POST', url: `/v1/demos/${other.id}/steps`, headers: { ...auth, 'content-type': 'image/png' }, payload: (await import('../test/helpers/images')).makePng(8, 8) });
    await call('PATCH', `/v1/demos/${other.id}`, { status: 'published' }, auth);
    await seedViews(database, { demoId: other.id, views: OTHER_VIEWS, days: DAYS, seed: 100 + i });
  }
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const q = `start_date=${from}&end_date=${today}&granularity=day`;
  const rows: string[][] = [];
  let seeded = 0;
  for (const size of sizes) {
    const t0 = performance.now();
    await seedViews(database, { demoId: demo.id, views: size - seeded, days: DAYS, seed: size });
    const rate = (size - seeded) / ((performance.now() - t0) / 1000);
    seeded = size;
    const get = (url: string) => async () => {
      const res = await app.inject({ method: 'GET', url, headers: auth });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    };
    const endpoint = await medianMs(get(`/v1/demos/${demo.id}/analytics?${q}`));
    const raw = await medianMs(() => database.db.execute(rawDemo(demo.id, from, today)), 5);
    const overview = await medianMs(get(`/v1/analytics?${q}`));
    const rawAll = await medianMs(() => database.db.execute(rawOverview(workspaceId, from, today)), 5);
    const line = [engine, String(size), `${Math.round(rate)}`, endpoint.toFixed(1), raw.toFixed(1), (raw / endpoint).toFixed(1), overview.toFixed(1), rawAll.toFixed(1), (rawAll / overview).toFixed(1)];
    console.log(line.join('\t'));
    rows.push(line);
  }
  await close();
  return rows;
}

console.log(['engine', 'views', 'seeded/s', 'demo ms', 'raw ms', 'x', 'overview ms', 'raw ms', 'x'].join('\t'));
const results: string[][] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-bench-analytics-'));
try {
  const database = await openDatabase({ dataDir: dir });
  try {
    results.push(...(await runEngine('pglite', database)));
  } finally {
    await database.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (postgresUrl) {
  const name = `ds_bench_analytics_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  try {
    const database = await openDatabase({ url: url.toString(), poolSize: 10 });
    try {
      results.push(...(await runEngine('postgres', database)));
    } finally {
      await database.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} else {
  console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL, DATABASE_URL or TEST_DATABASE_URL)');
}

// Targets: at the largest size, within 2x of the smallest's time and at least 20x faster than raw SQL.
for (const engine of ['pglite', 'postgres']) {
  const mine = results.filter((r) => r[0] === engine);
  if (mine.length < 2) continue;
  const first = mine[0]!;
  const last = mine.at(-1)!;
  for (const [label, ms, x] of [
    ['demo', 3, 5],
    ['overview', 6, 8],
  ] as const) {
    const growth = Number(last[ms]) / Number(first[ms]);
    const faster = Number(last[x]);
    console.log(
      `${engine} ${label}: ${last[1]} views take ${growth.toFixed(2)}x the time of ${first[1]} (target <= 2: ${growth <= 2 ? 'ok' : 'MISS'}), ${faster}x faster than raw SQL (target >= 20: ${faster >= 20 ? 'ok' : 'MISS'})`,
    );
  }
}
