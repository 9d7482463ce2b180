/**
 * The benchmark's server process (started by bench/run.ts, one per engine): the real app on one port and,
 * on another, two bare Fastify routes on the same database handle as baselines. PGlite belongs to one
 * process, so the baselines must live in the process that owns it.
 *
 * Environment: BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (PGlite files); BENCH_ASSET_STORE=filesystem
 * or database for where assets' bytes go (unset: the engine's default, files in the PGlite data folder's blobs/
 * or a temporary one, the rows on PostgreSQL). Prints one JSON line
 * `{app, bare, key, ids}` on stdout when ready; exits on SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { count, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { members } from '../src/accounts/accounts.tables';
import { buildApp, registerJobs } from '../src/app';
import { defaultAssetStore, testConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { runEmbeddedMaintenance } from '../src/db/embedded-maintenance';
import { JobQueue } from '../src/jobs/queue';
import { ingestedEvents, viewerSessions } from '../src/viewing/viewing.tables';
import { readScriptSettings } from '../scripts/settings';
import { EVENTS_PER_REQUEST, SEEDS } from './scenarios';

const settings = readScriptSettings();
const url = settings.benchDatabaseUrl;
const database = await openDatabase(url ? { url, poolSize: 10 } : { dataDir: settings.benchDataDir });
// Assets' bytes where the engine keeps them when ASSET_STORE is unset (files beside the embedded database, the
// rows on PostgreSQL), or as BENCH_ASSET_STORE says; files go beside the data (a folder of their own without it).
const assetStore = settings.benchAssetStore ?? defaultAssetStore(database.kind);
const blobDir = assetStore === 'filesystem' ? (settings.benchDataDir ?? mkdtempSync(path.join(tmpdir(), 'demoshare-bench-blobs-'))) : undefined;
await database.migrate();
// No workers, but the queue's schema and queues exist: sign-up queues its verification e-mail in its transaction.
const queue = new JobQueue(database, { work: false });
await queue.start((error) => process.stderr.write(`job queue error: ${error.message}\n`));
const { app, ctx } = await buildApp({
  // Every request comes from this one address, far past any budget: the limits would be all that is measured.
  config: testConfig({
    RATE_LIMIT_PER_MINUTE: 1_000_000_000,
    RATE_LIMIT_PUBLIC_PER_MINUTE: 1_000_000_000,
    VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000_000,
    ASSET_STORE: assetStore,
    ...(blobDir ? { DATA_DIR: blobDir } : {}),
  }),
  database,
  secretKey: 'bench-secret-key-that-is-long-enough-0123456789',
  queue,
});
await app.ready();
await registerJobs(ctx);

// Seed: one account (workspace, admin member) and an API key with every scope.
const signup = await app.inject({
  method: 'POST',
  url: '/v1/auth/signup',
  payload: { email: `bench.${Date.now()}@example.com`, password: 'correct horse battery staple' },
});
if (signup.statusCode !== 201) throw new Error(`sign-up failed: ${signup.body}`);
const cookies = signup.cookies as Array<{ name: string; value: string }>;
const session = {
  cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
  'x-csrf-token': cookies.find((c) => c.name === 'ds_csrf')!.value,
};
const { SCOPES } = await import('../src/auth/permissions');
const created = await app.inject({
  method: 'POST',
  url: '/v1/api-keys',
  headers: session,
  payload: { name: 'bench', scopes: [...SCOPES] },
});
if (created.statusCode !== 201) throw new Error(`key creation failed: ${created.body}`);
const key = created.json().data.key as string;
const memberId = signup.json().data.member_id as string;
const ids: Record<string, string> = { memberId, workspaceId: signup.json().data.workspace.id };
// Further seeds (scenarios of other modules) get the app, the key and the ids so far.
for (const seed of SEEDS) Object.assign(ids, await seed({ app, key, ids, database }));
// The statistics the tables have a minute into a real instance, not those of tables seeded a moment ago: on
// PostgreSQL autovacuum analyzes a table within a minute of a 10% change (its partitions; the partitioned
// parents are the view-partitions job's), on PGlite the embedded upkeep does the same every minute
// (src/db/embedded-maintenance.ts). Without it the planner read the views list's 2,000 seeded rows as 7 and
// sorted them all for a page of 20: 3.3 ms a statement on PostgreSQL instead of 1.6.
if (database.kind === 'postgres') await database.executeSql('analyze');
else await runEmbeddedMaintenance(database);

const bare = Fastify({ logger: false });
// A constant: the cost of Fastify and HTTP alone.
bare.get('/const', async () => ({ ok: true }));
// The bytes the cached demo detail answers with, sent as a constant: what the same response costs Fastify
// and HTTP alone (a 10 KB body costs the loopback and the load generator more than `{ok:true}` does).
const detail = await app.inject({ method: 'GET', url: `/v1/demos/${ids.demoId}`, headers: { authorization: `Bearer ${ids.demoKey}` } });
if (detail.statusCode !== 200) throw new Error(`demo detail failed: ${detail.body}`);
const detailBody = detail.body;
bare.get('/detail-bytes', async (_request, reply) => reply.type('application/json; charset=utf-8').send(detailBody));
/**
 * The like-for-like floor of a list page: the statement the app sent for it, replayed through the same
 * driver call (same text, parameters and row mode), and the bytes the app answered with sent as they are.
 * What the app adds on top (the key, Drizzle's building and mapping, the response check, the hooks) is the
 * difference. The statement is caught at the driver during one request, as test/helpers/query-count.ts does.
 */
async function replayOf(url: string, headers: Record<string, string>): Promise<{ replay: () => Promise<unknown>; body: string }> {
  const client = (database.db as unknown as { $client: Record<string, (...args: unknown[]) => Promise<unknown>> }).$client;
  const original = client.query!;
  /** One request to `url`, and the driver calls it made. */
  const watched = async () => {
    const calls: unknown[][] = [];
    client.query = function (this: unknown, ...args: unknown[]) {
      calls.push(args);
      return original.apply(this, args);
    };
    const response = await app.inject({ method: 'GET', url, headers }).finally(() => {
      client.query = original;
    });
    if (response.statusCode !== 200) throw new Error(`${url} failed: ${response.body}`);
    return { response, calls };
  };
  // The first request fills the key's and the demo's caches: the second sends the list's own statement alone.
  const cold = await watched();
  const warm = await watched();
  if (warm.calls.length !== 1) throw new Error(`${url} sent ${warm.calls.length} statements once warm (${cold.calls.length} cold): expected one`);
  const args = warm.calls[0]!;
  return { replay: () => original.apply(client, args), body: warm.response.body };
}
for (const [route, url, headers] of [
  ['/demos-list-floor', '/v1/demos?per_page=20', { authorization: `Bearer ${ids.listKey}` }],
  ['/views-list-floor', `/v1/demos/${ids.viewsDemoId}/views?per_page=20`, { authorization: `Bearer ${ids.viewsKey}` }],
] as const) {
  const { replay, body } = await replayOf(url, headers);
  bare.get(route, async (_request, reply) => {
    await replay();
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
// One primary-key SELECT through the same driver (Drizzle on the same pool or PGlite instance).
bare.get('/select', async () => {
  const [row] = await database.db.select().from(members).where(eq(members.id, memberId)).limit(1);
  return { id: row?.id, email: row?.email, role: row?.role };
});

// What the ingestion scenario stored, to check it against what was acknowledged.
bare.get('/ingested-events', async () => ({ n: (await database.db.select({ n: count() }).from(ingestedEvents))[0]!.n }));

// The ingestion baseline (bench/scenarios.ts): `loops` concurrent loops, each inserting EVENTS_PER_REQUEST
// ingested_events rows per statement for the seeded viewer sessions until `seconds` are up. Run here, not
// over HTTP, so that it is the database's floor for the same rows.
const sessionIds = (await database.db.select({ id: viewerSessions.id }).from(viewerSessions)).map((r) => r.id);
bare.post<{ Querystring: { seconds: string; loops: string } }>('/insert-baseline', async (request) => {
  const end = performance.now() + Number(request.query.seconds) * 1000;
  const latencies: number[] = [];
  let next = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const at = new Date();
      const rows = Array.from({ length: EVENTS_PER_REQUEST }, () => ({
        sessionId: sessionIds[next++ % sessionIds.length]!,
        eventId: randomUUID(),
        at,
      }));
      const t0 = performance.now();
      await database.db.insert(ingestedEvents).values(rows);
      latencies.push(performance.now() - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Number(request.query.loops) }, loop));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { units: latencies.length * EVENTS_PER_REQUEST, seconds: elapsed, p50: at(0.5), p99: at(0.99) };
});

const appAddress = await app.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = await bare.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ app: appAddress, bare: bareAddress, key, ids, engine: database.kind })}\n`);

process.once('SIGTERM', async () => {
  await bare.close();
  await app.close();
  await queue.stop();
  await database.close();
  if (blobDir && !settings.benchDataDir) rmSync(blobDir, { recursive: true, force: true });
  process.exit(0);
});
