/**
 * `npm run bench:partitions [-- --views 1000000 --engine postgres --url postgres://postgres@127.0.0.1:5432/postgres]`
 *
 * What migration 0045 (views and view_steps partitioned by month, docs/partitioning.md) costs on an existing
 * instance: a fresh database migrated up to 0044, `views` views spread over the last twelve months (half with
 * a live viewer session) and three step rows each, generated in SQL; then the real migrations run, timed,
 * and the counts compared. `--engine pglite` measures the embedded database (in memory).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { openDatabase } from '../src/db/client';

const { values: args } = parseArgs({
  options: {
    views: { type: 'string', default: '1000000' },
    engine: { type: 'string', default: 'postgres' },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const VIEWS = Number(args.views);

const folder = await mkdtemp(path.join(tmpdir(), 'ds-migrations-'));
await cp(path.resolve('drizzle'), folder, { recursive: true });
const journalFile = path.join(folder, 'meta', '_journal.json');
const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ idx: number }> };
journal.entries = journal.entries.filter((e) => e.idx < 45);
await writeFile(journalFile, JSON.stringify(journal));

const name = `ds_bench_partitions_${Date.now().toString(36)}`;
const admin = args.engine === 'postgres' ? new pg.Client({ connectionString: args.url }) : undefined;
let url: string | undefined;
if (admin) {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const parsed = new URL(args.url);
  parsed.pathname = `/${name}`;
  url = parsed.toString();
}
const database = await openDatabase(url ? { url, poolSize: 2 } : {});
try {
  // biome-ignore lint/suspicious/noExplicitAny: either engine's drizzle instance.
  const db = database.db as any;
  await (database.kind === 'pglite' ? migratePglite(db, { migrationsFolder: folder }) : migratePg(db, { migrationsFolder: folder }));
  const exec = (text: string) => database.executeSql(text);
  let t0 = performance.now();
  await exec(`insert into workspaces (id, name) values ('ws_1', 'W')`);
  await exec(`insert into demos (id, workspace_id, title, status) select 'demo_' || d, 'ws_1', 'D', 'published' from generate_series(1, 20) d`);
  await exec(`insert into shares (id, workspace_id, demo_id, token) select 'shr_' || d, 'ws_1', 'demo_' || d, 'tok' || d from generate_series(1, 20) d`);
  // The sessions of the last 30 days' views (VIEWER_SESSION_TTL): about a twelfth of them.
  await exec(`
    insert into views (id, workspace_id, demo_id, share_id, session_id, viewer_email, started_at, last_activity_at, steps_viewed,
      current_step, completed, duration_seconds)
    select 'view_' || n, 'ws_1', 'demo_' || (n % 20 + 1), 'shr_' || (n % 20 + 1), null,
      case when n % 3 = 0 then 'viewer' || (n % 5000) || '@example.com' end,
      now() - (n::double precision / ${VIEWS}) * interval '365 days', now(), '{1,2,3}', 3, n % 2 = 0, 42
    from generate_series(1, ${VIEWS}) n`);
  await exec(`
    insert into viewer_sessions (id, share_id, demo_id, workspace_id, expires_at)
    select 'vs_' || substr(id, 6), share_id, demo_id, workspace_id, started_at + interval '30 days' from views
    where started_at > now() - interval '30 days'`);
  await exec(`update views set session_id = 'vs_' || substr(id, 6) where started_at > now() - interval '30 days'`);
  await exec(`
    insert into view_steps (view_id, step_number, seconds, first_reached_at)
    select v.id, s, 14, v.started_at from views v, generate_series(1, 3) s`);
  if (database.kind === 'postgres') await exec('vacuum analyze views, view_steps, viewer_sessions');
  console.log(`seeded ${VIEWS} views, ${VIEWS * 3} step rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (${database.kind})`);

  t0 = performance.now();
  await database.migrate();
  const ms = performance.now() - t0;
  const [counts] = (
    await database.executeSql(`
      select (select count(*)::int from views) as views, (select count(*)::int from view_steps) as steps,
        (select count(*)::int from only views_default) as in_default,
        (select count(*)::int from pg_inherits where inhparent = 'views'::regclass) as partitions,
        (select count(*)::int from viewer_sessions where view_id is not null) as sessions`)
  ).rows as Array<Record<string, number>>;
  console.log(`\n| figure | value |\n|---|--:|`);
  console.log(`| migration 0045, s | ${(ms / 1000).toFixed(1)} |`);
  console.log(`| views / step rows after | ${counts!.views} / ${counts!.steps} |`);
  console.log(`| partitions of views (DEFAULT included) / rows in DEFAULT | ${counts!.partitions} / ${counts!.in_default} |`);
  console.log(`| sessions naming their view | ${counts!.sessions} |`);
  if (counts!.views !== VIEWS || counts!.steps !== VIEWS * 3) throw new Error('counts differ');
} finally {
  await database.close();
  await rm(folder, { recursive: true, force: true });
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
