/**
 * `node bin/run-ts.js bench/drivers.ts` — node-postgres (pg) against postgres.js on the same primary-key
 * SELECT, to back the choice of driver (issue 2). Needs PostgreSQL: BENCH_DATABASE_URL, DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test; a table is created in a fresh database and dropped after.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import postgres from 'postgres';
import { LOCAL_POSTGRES, readScriptSettings } from '../scripts/settings';

const settings = readScriptSettings();
const base = settings.benchDatabaseUrl ?? settings.databaseUrl ?? LOCAL_POSTGRES;
const SECONDS = settings.benchSeconds;
const CONCURRENCY = 32;
const POOL = 10;
const ROWS = 1000;

const name = `ds_bench_drivers_${randomBytes(4).toString('hex')}`;
const url = new URL(base);
url.pathname = `/${name}`;

async function measure(label: string, query: (id: number) => Promise<unknown>) {
  // Warm-up, then a fixed window with CONCURRENCY loops issuing queries back to back.
  const until = (ms: number) => Date.now() + ms;
  const run = async (end: number, latencies?: number[]) => {
    let n = 0;
    while (Date.now() < end) {
      const t0 = performance.now();
      await query(1 + Math.floor(Math.random() * ROWS));
      latencies?.push(performance.now() - t0);
      n++;
    }
    return n;
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, () => run(until(1000))));
  const latencies: number[] = [];
  const end = until(SECONDS * 1000);
  const counts = await Promise.all(Array.from({ length: CONCURRENCY }, () => run(end, latencies)));
  latencies.sort((a, b) => a - b);
  const total = counts.reduce((a, b) => a + b, 0);
  return {
    driver: label,
    'queries/s': Math.round(total / SECONDS),
    'p50 ms': latencies[Math.floor(latencies.length * 0.5)]?.toFixed(2),
    'p99 ms': latencies[Math.floor(latencies.length * 0.99)]?.toFixed(2),
  };
}

const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
try {
  const pool = new pg.Pool({ connectionString: url.toString(), max: POOL });
  pool.on('error', () => {});
  await pool.query('create table items (id int primary key, title text not null, created_at timestamptz not null default now())');
  await pool.query(`insert into items (id, title) select g, 'item ' || g from generate_series(1, ${ROWS}) g`);
  const sql = postgres(url.toString(), { max: POOL, prepare: true, onnotice: () => {} });
  const results = [];
  // Alternate the order so neither driver always runs on a warmer server.
  for (const round of [0, 1]) {
    const pgRun = () => measure('pg (node-postgres)', (id) => pool.query('select * from items where id = $1', [id]));
    const pgNamed = () =>
      measure('pg, named prepared', (id) =>
        pool.query({ name: 'item_by_id', text: 'select * from items where id = $1', values: [id] }),
      );
    const jsRun = () => measure('postgres.js', (id) => sql`select * from items where id = ${id}`);
    const order = round === 0 ? [pgRun, pgNamed, jsRun] : [jsRun, pgNamed, pgRun];
    for (const run of order) results.push({ round: round + 1, ...(await run()) });
  }
  console.table(results);
  await sql.end();
  await pool.end();
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
