/**
 * GET /v1/demos/:id (a demo with 10 steps and 20 hotspots) against the one-SELECT baseline (GET /readyz),
 * on the database the environment names: BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL), else PGlite.
 *
 *   node bin/run-ts.js bench/demos.ts [seconds=5] [connections=10]
 *
 * Bounded: each scenario runs for the given seconds against 127.0.0.1 only, then the process exits.
 */
import autocannon from 'autocannon';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { JobQueue } from '../src/jobs/queue';
import { seedDemo } from './seed-demo';

process.env.TEST_DATABASE_URL ||= process.env.BENCH_DATABASE_URL ?? '';
const { createTestDatabase, engine } = await import('../test/helpers/database');

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 10);

const db = await createTestDatabase();
const queue = new JobQueue(db.database, { work: false });
const { app } = await buildApp({
  config: testConfig({ RATE_LIMIT_PER_MINUTE: 10_000_000, RATE_LIMIT_PUBLIC_PER_MINUTE: 10_000_000 }),
  database: db.database,
  secretKey: 'bench-secret-key-that-is-long-enough-0123456789',
  queue,
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });

const { call, auth, demo } = await seedDemo(app, ['demos:read', 'demos:write', 'team:read']);
const check = (await call('GET', `/v1/demos/${demo.id}`, undefined, auth)).json().data;
if (check.steps.length !== 10 || check.hotspots.length !== 20) throw new Error('seeding failed');

async function run(title: string, path: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url: `${address}${path}`, connections, duration: seconds, headers });
  const non2xx = result.non2xx + result.errors;
  console.log(
    `${title.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms${non2xx ? `   (${non2xx} failed)` : ''}`,
  );
  return result.requests.average;
}

console.log(`engine: ${engine}, ${connections} connections, ${seconds} s per scenario`);
const baseline = await run('GET /readyz (one SELECT, baseline)', '/readyz');
const members = await run('GET /v1/team/members (authenticated, 2 SELECTs)', '/v1/team/members', auth);
const detail = await run('GET /v1/demos/:id (10 steps, 20 hotspots)', `/v1/demos/${demo.id}`, auth);
const list = await run('GET /v1/demos (list, 1 demo)', '/v1/demos', auth);
console.log(
  `ratio demo/baseline: ${(detail / baseline).toFixed(2)}   list/baseline: ${(list / baseline).toFixed(2)}   ` +
    `demo/team-members: ${(detail / members).toFixed(2)}`,
);

await app.close();
await db.drop();
process.exit(0);
