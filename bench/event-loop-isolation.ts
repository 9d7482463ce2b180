/**
 * `npm run bench:isolation -- [--seconds 30] [--idle-seconds 5] [--database-url URL]`
 *
 * Whether heavy documents stall everyone else: a `demoshare start` (embedded database, or with
 * --database-url PostgreSQL in a database created for the run; the defaults, so load shedding is off and a
 * stall shows as latency rather than as 503s) serves three probes every
 * 50 ms: `/healthz`, a viewer payload (`GET /v1/viewer/{token}` of a published demo's link) and an API read
 * (`GET /v1/demos` with an API key). First for `idle-seconds` alone, then for `seconds` while two
 * uploaders send recorded steps one after the other, one a flat 2 MB snapshot, the other a snapshot
 * nested 100,000 elements deep (500 KB), built before the clock starts. Every snapshot differs from the
 * last of its step by a comment, so none is skipped as a repeat. Reported per phase and probe: p50, p99 and max latency and the statuses; per uploader,
 * the statuses and the median time of an upload. Target: every probe's p99 under 100 ms while uploading.
 * Results: a table on stdout and bench/results/isolation-<engine>-<time>.json/.md.
 */
import { createHash, } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { makePng } from '../test/helpers/images';
import { childEnv } from '../scripts/settings';
import { createUserAndKey, demoshare, freePort, scratchDatabase, stop } from './child-service';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    'idle-seconds': { type: 'string', default: '5' },
    'database-url': { type: 'string' },
  },
});
const BASE_URL = args['database-url'];
const SECONDS = Number(args.seconds);
const IDLE_SECONDS = Number(args['idle-seconds']);
const TARGET_P99_MS = 100;
const agent = new Agent({ connections: 64, pipelining: 1 });

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** A page of an app as a recorder inlines it, `bytes` long, with no element deeper than a table row. */
function flatSnapshot(bytes: number, n: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const row = `<tr class="r${i % 50}"><td><a href="/invoices/${i}">INV-${i}</a></td><td style="color:#333">Customer ${i}</td><td>${(i * 7.31).toFixed(2)} €</td></tr>`;
    rows.push(row);
    size += row.length;
  }
  return `<!doctype html><html><head><title>Invoices</title></head><body><!-- ${n} --><main><h1>Invoices</h1><table>${rows.join('')}</table></main></body></html>`;
}

/** `depth` nested divs, never closed: 5 bytes a level. */
const deepSnapshot = (depth: number, n: number) => `<!-- ${n} -->${'<div>'.repeat(depth)}`;

interface Sample {
  ms: number;
  status: number;
}

async function timed(url: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await request(url, { dispatcher: agent, method: method as 'GET', headers, body });
    await res.body.dump();
    return { ms: performance.now() - t0, status: res.statusCode };
  } catch {
    return { ms: performance.now() - t0, status: 0 };
  }
}

async function json(url: string, method: string, key: string, body?: unknown, contentType = 'application/json') {
  const res = await request(url, {
    dispatcher: agent,
    method: method as 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text).data;
}

const summary = (samples: Sample[]) => {
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const ms = samples.map((s) => s.ms);
  return {
    count: samples.length,
    p50_ms: Math.round(quantile(ms, 0.5)),
    p99_ms: Math.round(quantile(ms, 0.99)),
    max_ms: Math.round(Math.max(...ms)),
    statuses,
  };
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-isolation-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = childEnv({
  SECRET_KEY: 'isolation-secret-key-that-is-long-enough-0123456789',
  LOG_LEVEL: 'error',
  HOST: '127.0.0.1',
  PORT: String(port),
  APP_URL: base,
  DATA_DIR: dataDir,
  RATE_LIMIT_PER_MINUTE: '1000000000',
  VIEWER_RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000000',
  EMBEDDED_MAINTENANCE_INTERVAL: '0s',
});
delete env.DATABASE_URL;
delete env.REDIS_URL;
// With --database-url: the same process on a PostgreSQL database created for the run, whose queries do not
// run on the server's event loop as the embedded database's do.
let dropDatabase = async () => {};
if (BASE_URL) {
  const scratch = await scratchDatabase(BASE_URL, 'ds_isolation');
  env.DATABASE_URL = scratch.url;
  dropDatabase = scratch.drop;
}
const engine = BASE_URL ? 'postgres' : 'pglite';

const startedAt = new Date();
const load = loadavg().map((l) => Number(l.toFixed(2)));
const key = await createUserAndKey(env, 'isolation@example.com', 'isolation');
const server = await demoshare('start', ['start'], env, /listening on/);
try {
  const demo = await json(`${base}/v1/demos`, 'POST', key, { title: 'Isolation demo', source_url: 'https://example.com' });
  const step = await json(`${base}/v1/demos/${demo.id}/steps`, 'POST', key, makePng(64, 40), 'image/png');
  await json(`${base}/v1/demos/${demo.id}/steps/${step.id}/hotspots`, 'POST', key, { x: 0.1, y: 0.2, width: 0.3, height: 0.1, label: 'Next' });
  await json(`${base}/v1/demos/${demo.id}`, 'PATCH', key, { status: 'published' });
  const share = await json(`${base}/v1/demos/${demo.id}/shares`, 'POST', key, {});
  const token = (share.url as string).split('/s/')[1]!;
  const probes: Record<string, () => Promise<Sample>> = {
    healthz: () => timed(`${base}/healthz`),
    'viewer payload': () => timed(`${base}/v1/viewer/${token}`),
    'GET /v1/demos': () => timed(`${base}/v1/demos`, { authorization: `Bearer ${key}` }),
  };

  /** Every 50 ms, each probe once, not waiting for the last: a stalled server shows as waiting probes. */
  async function probe(seconds: number): Promise<Record<string, ReturnType<typeof summary>>> {
    const pending: Record<string, Promise<Sample>[]> = Object.fromEntries(Object.keys(probes).map((name) => [name, []]));
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      for (const [name, send] of Object.entries(probes)) pending[name]!.push(send());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Object.fromEntries(await Promise.all(Object.entries(pending).map(async ([name, list]) => [name, summary(await Promise.all(list))])));
  }

  // Warm the caches and the workers' code, then measure idle.
  await probe(1);
  const idle = await probe(IDLE_SECONDS);

  const recording = await json(`${base}/v1/recordings`, 'POST', key, { step_count: 200, title: 'Isolation' });
  let stopping = false;
  /**
   * The bodies are built and hashed before the clock starts: building 2 MB of HTML on this process's own
   * event loop while it times the probes would count as the server's delay. VARIANTS differ by a comment,
   * cycled so that no step number gets the same body twice in a row (which the server skips as a repeat).
   */
  const VARIANTS = 8;
  const bodies = (kind: 'flat' | 'deep') =>
    Array.from({ length: VARIANTS }, (_, n) => {
      const snapshot = kind === 'flat' ? flatSnapshot(2 * 1024 * 1024, n) : deepSnapshot(100_000, n);
      const body = JSON.stringify({
        action: 'click',
        title: `Step ${n}`,
        page_url: 'https://app.example.com/invoices',
        viewport: { width: 1280, height: 800 },
        target: null,
        screenshot: null,
        snapshot,
      });
      return { body, digest: `sha-256=:${createHash('sha256').update(body).digest('base64')}:` };
    });
  const prepared = { flat: bodies('flat'), deep: bodies('deep') };
  async function uploader(kind: 'flat' | 'deep', numbers: number[]) {
    const samples: Sample[] = [];
    for (let i = 0; !stopping; i++) {
      const { body, digest } = prepared[kind][i % VARIANTS]!;
      const number = numbers[i % numbers.length]!;
      samples.push(
        await timed(`${base}/v1/recordings/${recording.id}/steps/${number}`, { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-digest': digest }, 'PUT', body),
      );
    }
    return summary(samples);
  }
  const uploads = Promise.all([
    uploader('flat', Array.from({ length: 100 }, (_, i) => i + 1)),
    uploader('deep', Array.from({ length: 100 }, (_, i) => i + 101)),
  ]);
  const busy = await probe(SECONDS);
  stopping = true;
  const [flat, deep] = await uploads;

  const result = { startedAt, engine, load, cpus: cpus().length, node: process.version, seconds: SECONDS, idle, busy, uploads: { flat, deep } };
  const row = (phase: string, name: string, s: ReturnType<typeof summary>) =>
    `| ${phase} | ${name} | ${s.count} | ${s.p50_ms} | ${s.p99_ms} | ${s.max_ms} | ${Object.entries(s.statuses).map(([k, v]) => `${k}: ${v}`).join(', ')} |`;
  const md = [
    `# Event-loop isolation, ${startedAt.toISOString()}`,
    '',
    `${cpus().length} CPUs, load ${load.join(' ')} at the start, Node ${process.version}; \`demoshare start\` (${BASE_URL ? 'PostgreSQL' : 'PGlite'}), probes every 50 ms; ${SECONDS} s of uploads (2 MB flat and 100,000-deep snapshots, two uploaders). Target: p99 < ${TARGET_P99_MS} ms while uploading.`,
    '',
    '| phase | request | count | p50 ms | p99 ms | max ms | statuses |',
    '|---|---|--:|--:|--:|--:|---|',
    ...Object.entries(idle).map(([name, s]) => row('idle', name, s)),
    ...Object.entries(busy).map(([name, s]) => row('uploading', name, s)),
    row('uploads', 'PUT step, 2 MB flat', flat),
    row('uploads', 'PUT step, 100,000 deep', deep),
    '',
    `p99 while uploading: ${Object.entries(busy).map(([name, s]) => `${name} ${s.p99_ms} ms ${s.p99_ms < TARGET_P99_MS ? 'ok' : 'MISS'}`).join('; ')}`,
    '',
  ].join('\n');
  console.log(md);
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  writeFileSync(path.join(dir, `isolation-${engine}-${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(dir, `isolation-${engine}-${stamp}.md`), md);
} finally {
  await stop(server);
  await agent.close();
  rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase();
}
