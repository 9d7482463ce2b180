
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { childEnv } from '../scripts/settings';
import { createUserAndKey, demoshare, freePort, scratchDatabase, stop } from './child-service';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    factor: { type: 'string', default: '2' },
    settings: { type: 'string' },
    rate: { type: 'string' },
    'database-url': { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const FACTOR = Number(args.factor);
/** Each run's settings, as environment variables for the server: `NAME=value NAME=value`, runs split by `;`. */
const BASE_URL = args['database-url'];
const SETTINGS = args.settings ?? (BASE_URL ? 'MAX_EVENT_LOOP_DELAY=0s;MAX_EVENT_LOOP_DELAY=100ms' : 'MAX_EVENT_LOOP_DELAY=0s');
const RUNS = SETTINGS.split(';').map((run) => Object.fromEntries(run.trim().split(/\s+/).map((pair) => pair.split('=') as [string, string])));
const PATH = '/v1/demos?per_page=20';
// Enough sockets that the client never queues: the queue under test is the server's.
const agent = new Agent({ connections: 10_000, pipelining: 1 });

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

interface Answer {
  at: number;
  ms: number;
  status: number;
}

async function get(base: string, key: string): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await request(`${base}${PATH}`, { dispatcher: agent, headers: { authorization: `Bearer ${key}` } });
    await res.body.dump();
    return { at: t0, ms: performance.now() - t0, status: res.statusCode };
  } catch {
    return { at: t0, ms: performance.now() - t0, status: 0 };
  }
}

async function capacity(base: string, key: string): Promise<number> {
  const until = performance.now() + 5_000;
  let served = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < until) if ((await get(base, key)).status === 200) served++;
    }),
  );
  return served / 5;
}

async function run(settings: Record<string, string>, rate: number | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-overload-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = childEnv({
    SECRET_KEY: 'overload-secret-key-that-is-long-enough-0123456789',
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: base,
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '1000000000',
    EMBEDDED_MAINTENANCE_INTERVAL: '0s',
    ...settings,
  });
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  // With --database-url: `demoshare serve` on a database created for the run (no worker: nothing is queued).
  let dropDatabase = async () => {};
  if (BASE_URL) {
    const scratch = await scratchDatabase(BASE_URL, 'ds_overload');
    env.DATABASE_URL = scratch.url;
    dropDatabase = scratch.drop;
  }
  const key = await createUserAndKey(env, 'overload@example.com', 'overload');
  const server = BASE_URL
    ? await demoshare('serve', ['serve'], env, /listening on/)
    : await demoshare('start', ['start'], env, /listening on/);
  try {
    for (let i = 0; i < 100; i++) {
      const res = await request(`${base}/v1/demos`, {
        dispatcher: agent,
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Overload demo ${i}` }),
      });
      await res.body.dump();
      // With shedding on (PostgreSQL) a 503 says to come back: wait and send again.
      if (res.statusCode === 503) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        i--;
        continue;
      }
      if (res.statusCode !== 201) throw new Error(`seeding answered ${res.statusCode}`);
    }
    const measured = await capacity(base, key);
    const arrivals = rate ?? Math.round(measured * FACTOR);
    // Open loop: every 10 ms, send what is due by now.
    const pending: Promise<Answer>[] = [];
    // The event loop's median delay as the server's guard sees it (prom-client's, reset at each scrape), once a second.
    const lagMs: number[] = [];
    const sampling = setInterval(() => {
      void request(`${base}/metrics`, { dispatcher: agent })
        .then((res) => res.body.text())
        .then((text) => {
          // prom-client's figure includes the 10 ms resolution of its timer; the guard subtracts it.
          const p50 = /^nodejs_eventloop_lag_p50_seconds (\S+)$/m.exec(text)?.[1];
          if (p50) lagMs.push(Number(p50) * 1000 - 10);
        })
        .catch(() => {});
    }, 1000);
    const start = performance.now();
    const end = start + SECONDS * 1000;
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - start) / 1000) * arrivals);
      while (pending.length < due) pending.push(get(base, key));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    clearInterval(sampling);
    const stopped = performance.now();
    const probe = await get(base, key);
    const answers = await Promise.all(pending);
    const lastAnswer = Math.max(...answers.map((a) => a.at + a.ms)) - stopped;
    // The server's own view (from onRequest to the answer): what of the wait happened inside Fastify.
    const metrics = await (await request(`${base}/metrics`, { dispatcher: agent })).body.text();
    const series = (name: string) =>
      Number(new RegExp(`^${name}\\{method="GET",route="/v1/demos"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);
    const serverMeanMs = (series('demoshare_http_request_duration_seconds_sum') / series('demoshare_http_request_duration_seconds_count')) * 1000;
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    const other = answers.length - served.length - refused.length;
    const lastSecond = served.filter((a) => a.at >= end - 1000);
    return {
      settings: Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' '),
      capacity_rps: Number(measured.toFixed(1)),
      arrival_rps: arrivals,
      sent: answers.length,
      served: served.length,
      refused_503: refused.length,
      other,
      served_rps: Number((served.length / ((Math.max(...served.map((a) => a.at + a.ms)) - start) / 1000)).toFixed(1)),
      served_p50_ms: Math.round(quantile(served.map((a) => a.ms), 0.5)),
      served_p99_ms: Math.round(quantile(served.map((a) => a.ms), 0.99)),
      served_max_ms: Math.round(Math.max(...served.map((a) => a.ms))),
      served_last_second_p50_ms: Math.round(quantile(lastSecond.map((a) => a.ms), 0.5)),
      refused_max_ms: refused.length ? Math.round(Math.max(...refused.map((a) => a.ms))) : null,
      server_mean_ms: Math.round(serverMeanMs),
      loop_delay_median_ms: Math.round(quantile(lagMs, 0.5)),
      loop_delay_max_ms: Math.round(Math.max(...lagMs)),
      client_mean_ms: Math.round(answers.reduce((n, a) => n + a.ms, 0) / answers.length),
      probe_ms: Math.round(probe.ms),
      probe_status: probe.status,
      drained_after_ms: Math.round(lastAnswer),
      server_log_lines: server.output.split('\n').filter(Boolean).length,
    };
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  }
}

const startedAt = new Date();
const load = loadavg().map((l) => Number(l.toFixed(2)));
const results: Awaited<ReturnType<typeof run>>[] = [];
let rate = args.rate ? Number(args.rate) : undefined;
for (const settings of RUNS) {
  const result = await run(settings, rate);
  rate ??= result.arrival_rps;
  results.push(result);
  console.log(JSON.stringify(result));
}
await agent.close();

const columns: Array<[string, keyof (typeof results)[number]]> = [
  ['settings', 'settings'],
  ['arrivals/s', 'arrival_rps'],
  ['sent', 'sent'],
  ['200', 'served'],
  ['503', 'refused_503'],
  ['other', 'other'],
  ['served/s', 'served_rps'],
  ['200 p50 ms', 'served_p50_ms'],
  ['200 p99 ms', 'served_p99_ms'],
  ['200 max ms', 'served_max_ms'],
  ['503 max ms', 'refused_max_ms'],
  ['mean ms, client', 'client_mean_ms'],
  ['mean ms, in the server', 'server_mean_ms'],
  ['loop delay p50, median of samples, ms', 'loop_delay_median_ms'],
  ['loop delay p50, highest sample, ms', 'loop_delay_max_ms'],
  ['probe ms', 'probe_ms'],
  ['drained after ms', 'drained_after_ms'],
];
const table = [
  `| ${columns.map(([h]) => h).join(' | ')} |`,
  `|${columns.map(() => '--:').join('|')}|`,
  ...results.map((r) => `| ${columns.map(([, k]) => String(r[k] ?? '–')).join(' | ')} |`),
].join('\n');
const md = [
  `# Overload of ${BASE_URL ? '`demoshare serve` on PostgreSQL' : 'an embedded server'}, ${startedAt.toISOString()}`,
  '',
  `${cpus().length} CPUs, load ${load.join(' ')} at the start; GET ${PATH}, open loop for ${SECONDS} s at ${args.rate ? `${args.rate} req/s as given` : `${FACTOR}x the capacity measured on the first run`} (capacity ${results.map((r) => r.capacity_rps).join(', ')} req/s by run).`,
  '',
  table,
  '',
].join('\n');
console.log(`\n${md}`);
const dir = path.join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
const engine = BASE_URL ? 'postgres' : 'pglite';
writeFileSync(path.join(dir, `overload-${engine}-${stamp}.json`), `${JSON.stringify({ startedAt, load, engine, seconds: SECONDS, factor: FACTOR, results }, null, 2)}\n`);
writeFileSync(path.join(dir, `overload-${engine}-${stamp}.md`), md);
