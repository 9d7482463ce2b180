/**
 * `npm run bench:maintenance [-- --views 50000 --demos 500]`
 *
 * What the embedded database's upkeep (src/db/embedded-maintenance.ts) buys and costs. PGlite has no
 * autovacuum, so until this ran an embedded install was never vacuumed or analyzed. On PGlite in a temporary
 * data directory: a workspace of `demos` demos and one demo with `views` views (seed:views, the real
 * ingestion), then read latencies (medians of 15 in-process requests after 3 warm-ups) as every install had
 * them (never analyzed), the first pass (every table due), the same reads after it, then the steady cost: a
 * pass after 25 % more views (past autovacuum's thresholds of 10 and 20 %), and one with nothing due. Churn: the demos table's growth through the same create-and-delete cycles without
 * and with a pass after each. Last, `demoshare compact` on the stopped directory.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { type Database, openDatabase } from '../src/db/client';
import { compactEmbedded } from '../src/backup/embedded-compact';
import { runEmbeddedMaintenance, walSinceCheckpoint } from '../src/db/embedded-maintenance';
import { seedViews } from '../src/viewing/seed-views';
import { medianMs, startInProcessApp } from './in-process';
import { caller, seedDemo } from './seed-demo';

const { values: args } = parseArgs({
  options: { views: { type: 'string', default: '50000' }, demos: { type: 'string', default: '500' } },
});
const VIEWS = Number(args.views);
const DEMOS = Number(args.demos);
const CHURN = 300;

async function open(dir: string) {
  const database = await openDatabase({ dataDir: dir });
  const { app, close } = await startInProcessApp(database);
  return {
    database,
    app,
    close: async () => {
      await close();
      await database.close();
    },
  };
}

const megabytes = (dir: string) => Number(execSync(`du -sk ${JSON.stringify(dir)}`).toString().split('\t')[0]) / 1024;

async function reads(app: FastifyInstance, auth: Record<string, string>, demoId: string) {
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
  const q = `start_date=${from}&end_date=${today}&granularity=day`;
  const get = (url: string) => async () => {
    const res = await app.inject({ method: 'GET', url, headers: auth });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  };
  return {
    'GET /v1/demos?per_page=20': await medianMs(get('/v1/demos?per_page=20')),
    'GET /v1/demos/:id/views?per_page=50': await medianMs(get(`/v1/demos/${demoId}/views?per_page=50`)),
    'GET /v1/demos/:id/analytics (90 days)': await medianMs(get(`/v1/demos/${demoId}/analytics?${q}`)),
    'GET /v1/analytics (90 days)': await medianMs(get(`/v1/analytics?${q}`)),
  };
}

async function relationKb(database: Database, table: string) {
  const { rows } = await database.executeSql(`select pg_total_relation_size('${table}') / 1024 as kb`);
  return Number(rows[0]!.kb);
}

/** CHURN demos created and deleted through the API, three times, with or without a pass after each cycle: KB grown by each. */
async function churn(app: FastifyInstance, database: Database, auth: Record<string, string>, withPass: boolean) {
  const call = caller(app);
  const sizes: number[] = [await relationKb(database, 'demos')];
  for (let cycle = 0; cycle < 3; cycle++) {
    const ids: string[] = [];
    for (let i = 0; i < CHURN; i++) {
      ids.push(((await call('POST', '/v1/demos', { title: `Churn ${i} ${'x'.repeat(150)}` }, auth)).json().data as { id: string }).id);
    }
    await call('POST', '/v1/demos', { title: 'Kept' }, auth);
    for (const id of ids) await call('DELETE', `/v1/demos/${id}`, undefined, auth);
    if (withPass) await runEmbeddedMaintenance(database);
    sizes.push(await relationKb(database, 'demos'));
  }
  return sizes.slice(1).map((size, i) => size - sizes[i]!);
}

const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-bench-maintenance-'));
try {
  const { database, app, close } = await open(dir);
  try {
    const { auth, demo } = await seedDemo(app, ['demos:read', 'demos:write', 'analytics:read']);
    const call = caller(app);
    await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' }, auth);
    for (let i = 1; i < DEMOS; i++) await call('POST', '/v1/demos', { title: `Listed ${i}`, source_url: `https://example.com/${i}` }, auth);
    let t0 = performance.now();
    await seedViews(database, { demoId: demo.id, views: VIEWS, days: 90, seed: 1 });
    console.log(`seeded ${VIEWS} views in ${((performance.now() - t0) / 1000).toFixed(1)} s; data directory ${megabytes(dir).toFixed(0)} MB`);
    const wal = () => `${megabytes(path.join(dir, 'pgdata', 'pg_wal')).toFixed(0)} MB`;
    const walBefore = wal();
    const walSince = await walSinceCheckpoint(database);

    const before = await reads(app, auth, demo.id);
    t0 = performance.now();
    const first = await runEmbeddedMaintenance(database);
    const firstMs = performance.now() - t0;
    const slowest = [...first.tables].sort((a, b) => b.ms - a.ms).slice(0, 3);
    const walAfter = wal();
    const after = await reads(app, auth, demo.id);

    await seedViews(database, { demoId: demo.id, views: Math.round(VIEWS / 4), days: 1, seed: 2 });
    const steady = await runEmbeddedMaintenance(database);
    const idle = await runEmbeddedMaintenance(database);

    console.log(`\n| read (${VIEWS} views, ${DEMOS} demos) | never analyzed, ms | after a pass, ms | x |\n|---|--:|--:|--:|`);
    for (const name of Object.keys(before) as Array<keyof typeof before>) {
      console.log(`| ${name} | ${before[name].toFixed(1)} | ${after[name].toFixed(1)} | ${(before[name] / after[name]).toFixed(1)} |`);
    }
    console.log(
      `\nfirst pass: ${first.tables.length} tables in ${Math.round(firstMs)} ms (slowest: ${slowest.map((s) => `${s.table} ${s.ms} ms`).join(', ')})`,
    );
    console.log(
      `WAL: ${Math.round(walSince / 1_048_576)} MB written since the last checkpoint, pg_wal ${walBefore}; the first pass checkpointed in ${first.checkpoint?.ms ?? '(none)'} ms, pg_wal then ${walAfter}; data directory ${megabytes(dir).toFixed(0)} MB`,
    );
    console.log(`after ${Math.round(VIEWS / 4)} more views: ${steady.tables.length} tables due, ${steady.ms} ms (${steady.tables.map((s) => `${s.table} ${s.ms} ms`).join(', ')}${steady.checkpoint ? `; checkpoint of ${Math.round(steady.checkpoint.walBytes / 1_048_576)} MB in ${steady.checkpoint.ms} ms` : ''})`);
    console.log(`nothing changed: ${idle.tables.length} tables due, ${idle.ms} ms (the check alone)`);

    // The same cycles twice, each from a compacted table: without a pass, then with one after each cycle.
    const grown: number[][] = [];
    for (const withPass of [false, true]) {
      await database.executeSql('vacuum full demos');
      grown.push(await churn(app, database, auth, withPass));
    }
    console.log(
      `churn, ${CHURN} demos created then deleted, three times: the demos table (with its indexes) grew ${grown[0]!.join(' + ')} KB without a pass, ${grown[1]!.join(' + ')} KB with a pass after each`,
    );
  } finally {
    await close();
  }
  // `demoshare compact` on the stopped directory: VACUUM FULL of every table, then a checkpoint.
  const compacted = await compactEmbedded({ dataDir: dir });
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(0);
  console.log(
    `demoshare compact: ${(compacted.ms / 1000).toFixed(1)} s; tables and indexes ${mb(compacted.tables.before)} → ${mb(compacted.tables.after)} MB, data directory ${mb(compacted.total.before)} → ${mb(compacted.total.after)} MB`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
