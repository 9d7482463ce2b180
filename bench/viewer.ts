/**
 * The viewer's hot paths, each next to its baseline in one run, on the database the environment names
 * (BENCH_DATABASE_URL or TEST_DATABASE_URL: PostgreSQL; else PGlite):
 *
 * - GET /v1/viewer/:token/demo (10 steps, 20 hotspots, from the in-process cache) next to a bare constant
 *   route: the target is a ratio of at least 0.5.
 * - POST /v1/viewer/:token/events (10 events per request over 200 viewer sessions, each request answered
 *   only after its transaction committed) in events/s, next to the one-SELECT baseline (GET /readyz) in
 *   requests/s: the target is a ratio of at least 1.0. Afterwards the stored events are counted: every
 *   acknowledged event must be there.
 *
 *   node bin/run-ts.js bench/viewer.ts [seconds=5] [connections=10]
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { count } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { JobQueue } from '../src/jobs/queue';
import { ingestedEvents } from '../src/views/views.tables';
import { seedDemo } from './seed-demo';

process.env.TEST_DATABASE_URL ||= process.env.BENCH_DATABASE_URL ?? '';
const { createTestDatabase, engine } = await import('../test/helpers/database');

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 10);
const EVENTS_PER_REQUEST = 10;
const SESSIONS = 200;

const db = await createTestDatabase();
const queue = new JobQueue(db.database, { work: false });
const { app } = await buildApp({
  config: testConfig({
    RATE_LIMIT_PER_MINUTE: 10_000_000,
    RATE_LIMIT_PUBLIC_PER_MINUTE: 10_000_000,
    VIEWER_RATE_LIMIT_PER_MINUTE: 10_000_000,
  }),
  database: db.database,
  secretKey: 'bench-secret-key-that-is-long-enough-0123456789',
  queue,
});
// The ceiling of this process: a route that does nothing but answer.
app.get('/bench/constant', async () => ({ data: { ok: true } }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });

const { call, auth, demo } = await seedDemo(app, ['demos:read', 'demos:write', 'shares:write']);
await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' }, auth);
const share = (await call('POST', `/v1/demos/${demo.id}/shares`, {}, auth)).json().data;
const token = share.url.split('/s/')[1] as string;

// Viewer sessions, each its own view.
const sessions: string[] = [];
for (let i = 0; i < SESSIONS; i++) {
  const res = await call('GET', `/v1/viewer/${token}`);
  const c = (res.cookies as Array<{ name: string; value: string }>)[0]!;
  sessions.push(`${c.name}=${c.value}`);
}

async function run(title: string, options: Parameters<typeof autocannon>[0]) {
  const result = await autocannon({ connections, duration: seconds, ...options });
  const failed = result.non2xx + result.errors;
  console.log(
    `${title.padEnd(52)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms${failed ? `   (${failed} failed)` : ''}`,
  );
  return { rps: result.requests.average, ok: result.requests.average * seconds, failed };
}

console.log(`engine: ${engine}, ${connections} connections, ${seconds} s per scenario`);
const constant = await run('GET /bench/constant (bare route)', { url: `${address}/bench/constant` });
const payload = await run('GET /v1/viewer/:token/demo (cached payload)', {
  url: `${address}/v1/viewer/${token}/demo`,
  headers: { cookie: sessions[0]! },
});
const baseline = await run('GET /readyz (one SELECT, baseline)', { url: `${address}/readyz` });

let next = 0;
const before = (await db.database.db.select({ n: count() }).from(ingestedEvents))[0]!.n;
const ingest = await autocannon({
  url: `${address}/v1/viewer/${token}/events`,
  connections,
  duration: seconds,
  requests: [
    {
      method: 'POST',
      setupRequest: (request) => {
        const session = sessions[next++ % SESSIONS]!;
        const events = Array.from({ length: EVENTS_PER_REQUEST }, (_, i) => ({
          id: randomUUID(),
          type: 'step_reached',
          step_number: (i % 10) + 1,
          seconds_on_previous: 1.5,
        }));
        request.headers = { ...request.headers, cookie: session, 'content-type': 'application/json' };
        request.body = JSON.stringify({ events });
        return request;
      },
    },
  ],
});
const acknowledged = ingest['2xx'] * EVENTS_PER_REQUEST;
const after = (await db.database.db.select({ n: count() }).from(ingestedEvents))[0]!.n;
const stored = after - before;
const failed = ingest.non2xx + ingest.errors;
const eventsPerSecond = (ingest.requests.average * EVENTS_PER_REQUEST).toFixed(0);
console.log(
  `${'POST /v1/viewer/:token/events (10 events/request)'.padEnd(52)} ${ingest.requests.average.toFixed(0).padStart(7)} req/s   p50 ${ingest.latency.p50} ms   p99 ${ingest.latency.p99} ms   = ${eventsPerSecond} events/s${failed ? `   (${failed} failed)` : ''}`,
);
console.log(
  `ratio payload/constant: ${(payload.rps / constant.rps).toFixed(2)} (target >= 0.5)   ` +
    `ingestion events/s / baseline req/s: ${((ingest.requests.average * EVENTS_PER_REQUEST) / baseline.rps).toFixed(2)} (target >= 1.0)`,
);
console.log(
  `events acknowledged (202): ${acknowledged}, stored: ${stored}` +
    (stored >= acknowledged ? ' (nothing acknowledged is missing)' : '   LOST EVENTS: fewer stored than acknowledged'),
);

await app.close();
await db.drop();
process.exit(0);
