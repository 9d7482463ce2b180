/**
 * Webhook deliveries to a local receiver: throughput with one and with two `demoshare worker` processes,
 * and the time from an event's commit to its first delivery attempt (median, p99). Needs PostgreSQL
 * (several processes, one database): BENCH_DATABASE_URL or TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test (a fresh database is created and dropped).
 *
 *   node bin/run-ts.js bench/webhooks.ts [events=2000] [latency-samples=200]
 *
 * Bounded: every phase has a deadline; the workers are stopped and the database dropped at the end.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { deriveKey, seal } from '../src/core/crypto';
import { newId } from '../src/core/ids';
import { emitEvent } from '../src/events/outbox';
import { webhooks } from '../src/webhooks/webhooks.tables';
import { workspaces } from '../src/workspaces/workspaces.tables';
import { LOCAL_POSTGRES, readScriptSettings } from '../scripts/settings';

const settings = readScriptSettings();
// Before the helpers load: they read the database URL when imported.
process.env.TEST_DATABASE_URL = settings.testDatabaseUrl ?? settings.benchDatabaseUrl ?? LOCAL_POSTGRES;
const { createTestDatabase } = await import('../test/helpers/database');
const { TEST_SECRET } = await import('../test/helpers/test-app');
const { ServiceProcess } = await import('../test/helpers/service-process');

const EVENTS = Number(process.argv[2] ?? 2000);
const SAMPLES = Number(process.argv[3] ?? 200);
const clock = { now: () => new Date() };

// The receiver: answers 204 at once and notes when each webhook-id first arrived (ms, performance clock).
const arrivals = new Map<string, number>();
let requests = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    requests++;
    const id = String(req.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, performance.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const db = await createTestDatabase();
const { database } = db;
const workspaceId = newId('workspace');
await database.db.insert(workspaces).values({ id: workspaceId, name: 'bench' });
await database.db.insert(webhooks).values({
  id: newId('webhook'),
  workspaceId,
  url: receiverUrl,
  events: ['demo.viewed'],
  secretSealed: seal(deriveKey(TEST_SECRET, 'sealing'), 'bench-secret-0123456789'),
  secretHint: '…6789',
  createdAt: new Date(Date.now() - 60_000),
});

const env = {
  ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
  WEBHOOK_CONCURRENCY: '16',
  WEBHOOK_POLL_INTERVAL: '1s',
  DATABASE_POOL_SIZE: '10',
};

async function waitUntil(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Commits `count` events in one transaction, then times until every one has reached the receiver. */
async function throughput(count: number) {
  arrivals.clear();
  const ids: string[] = [];
  await database.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      ids.push(await emitEvent(tx, clock, { workspaceId, kind: 'demo.viewed', data: { demo_id: 'demo_bench', n: i } }));
    }
  });
  const committed = performance.now();
  await waitUntil(() => ids.every((id) => arrivals.has(id)), 300_000, `${count} deliveries`);
  const last = Math.max(...ids.map((id) => arrivals.get(id)!));
  return count / ((last - committed) / 1000);
}

/** One event per transaction, one at a time, spaced out: commit-to-first-attempt latency. */
async function latency(samples: number) {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const id = await database.db.transaction((tx) =>
      emitEvent(tx, clock, { workspaceId, kind: 'demo.viewed', data: { demo_id: 'demo_bench', sample: i } }),
    );
    const committed = performance.now();
    await waitUntil(() => arrivals.has(id), 30_000, 'a latency sample');
    out.push(arrivals.get(id)! - committed);
    await new Promise((r) => setTimeout(r, 10));
  }
  out.sort((a, b) => a - b);
  const at = (q: number) => out[Math.min(out.length - 1, Math.floor(q * out.length))]!;
  return { median: at(0.5), p99: at(0.99) };
}

const results: string[] = [];
const workers: InstanceType<typeof ServiceProcess>[] = [];
try {
  for (const count of [1, 2]) {
    while (workers.length < count) workers.push(await ServiceProcess.worker({ DATABASE_URL: db.url!, ...env }).start());
    // Warm-up: connections, JIT, the first NOTIFY.
    await throughput(50);
    const rate = await throughput(EVENTS);
    const lat = await latency(SAMPLES);
    results.push(
      `${count} worker${count > 1 ? 's' : ' '}: ${rate.toFixed(0).padStart(5)} deliveries/s (${EVENTS} events)   ` +
        `commit → first attempt: median ${lat.median.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms (${SAMPLES} samples)`,
    );
    console.error(results.at(-1));
  }
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  server.close();
  await db.drop();
}
console.log(`\nWebhook deliveries to a local receiver (PostgreSQL, ${requests} requests in all)`);
for (const line of results) console.log(`  ${line}`);
process.exit(0);
