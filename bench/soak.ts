/**
 * `npm run soak -- [--minutes 5] [--rate 10] [--database-url postgres://…]`
 *
 * The service as real child processes under a steady, mixed load for `minutes`: one `demoshare start` on
 * embedded PGlite (a temporary DATA_DIR), or with --database-url one `demoshare serve` and one `demoshare
 * worker` on a PostgreSQL database created for the run (and dropped after). `rate` requests/s, open loop (a
 * request is sent when it is due, whether or not earlier ones have answered), of API reads and writes
 * (list, get, create, patch, delete demos; create and list shares), viewer payloads, view-event ingestion
 * and, from every write, webhook deliveries to a receiver in this process.
 *
 * Every 10 s: the VmRSS of each process (/proc/PID/status) and the latency of the requests that finished in
 * those 10 s. Verdict (exit code 1 when any fails):
 * - memory flat: for each process, the least-squares slope of RSS over the samples after the warm-up
 *   (the first minute, or a fifth of a shorter run), extrapolated to an hour, is not above RSS_BOUND_PER_HOUR
 *   of its mean RSS over those samples with 95 % confidence: it fails when the slope minus its 95 % margin
 *   (Student's t times the standard error of the fit) exceeds the bound. Garbage collection moves RSS by
 *   tens of MB, so a five-minute run resolves only fast growth; the verdict prints the margin, and says
 *   when it is wider than the bound (run longer);
 * - latency: p99 of every request that finished in the last minute <= 2 x p99 of every request that finished
 *   in the first minute after the warm-up (windows of a quarter of the run below five minutes), the first
 *   taken as at least P99_FLOOR_MS: under that, a doubling is timer and scheduler noise on a shared machine;
 * - no 5xx or failed request (any non-2xx answer fails the run: the load sends only valid requests);
 * - nothing lost: every acknowledged view event is stored (counted in the database after a graceful stop),
 *   and every acknowledged write's webhook event was delivered (by kind, after a drain of up to 60 s).
 * Results: a table on stdout and bench/results/soak-<engine>-<time>.json/.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { childEnv } from '../scripts/settings';
import { makePng } from '../test/helpers/images';
import { createUserAndKey, demoshare, freePort, type Proc, stop } from './child-service';
import { rssMb } from './process-memory';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    rate: { type: 'string', default: '10' },
    'database-url': { type: 'string' },
  },
});
const MINUTES = Number(args.minutes);
const RATE = Number(args.rate);
if (!(MINUTES > 0) || !(RATE > 0)) throw new Error('--minutes and --rate must be positive numbers');
const DURATION_S = MINUTES * 60;
const SAMPLE_S = 10;
const WARMUP_S = Math.min(60, DURATION_S / 5);
/** The windows whose p99 are compared: the first one after the warm-up and the last one of the run. */
const COMPARE_S = Math.min(60, (DURATION_S - WARMUP_S) / 4);
/** Memory may grow by at most this fraction of its mean per hour (the slope after warm-up, extrapolated). */
const RSS_BOUND_PER_HOUR = 0.1;
const P99_FLOOR_MS = 5;
/** Requests allowed in flight; beyond it a due request is skipped (and counted), not queued without end. */
const MAX_IN_FLIGHT = 256;
const EVENTS_PER_REQUEST = 5;
const SECRET = 'soak-secret-key-that-is-long-enough-0123456789';

const baseUrl = args['database-url'];
const engine = baseUrl ? 'postgres' : 'pglite';
const startedAt = new Date();
const loadAtStart = loadavg().map((l) => Number(l.toFixed(2)));

// --- the webhook receiver ------------------------------------------------------------------------------

/** webhook-id → event kind, and how many requests arrived in all (a retry or a duplicate repeats an id). */
const delivered = new Map<string, string>();
let deliveryRequests = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    deliveryRequests++;
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { event: string };
    delivered.set(String(req.headers['webhook-id']), body.event);
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// --- start the service ---------------------------------------------------------------------------------

const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-soak-'));
const port = await freePort();
const app = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = childEnv({
  SECRET_KEY: SECRET,
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: String(port),
  APP_URL: app,
  DATA_DIR: dataDir,
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000000',
  VIEWER_RATE_LIMIT_PER_MINUTE: '1000000000',
  ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
  // An attempt that times out on an overloaded machine is retried within the drain, not an hour later:
  // the soak checks that every event arrives, not the production back-off.
  WEBHOOK_RETRY_DELAYS: '5s,10s,20s',
});
delete env.DATABASE_URL;
delete env.REDIS_URL;

let databaseUrl: string | undefined;
let admin: pg.Client | undefined;
if (baseUrl) {
  const name = `ds_soak_${randomBytes(4).toString('hex')}`;
  admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  env.DATABASE_URL = databaseUrl;
}

const procs: Proc[] = [];
let cleaned: Promise<void> | undefined;
/** Stops the processes, drops the database and removes the data directory, once (also on Ctrl-C). */
const cleanUp = () => {
  cleaned ??= (async () => {
    await Promise.all(procs.map(stop));
    receiver.close();
    if (admin && databaseUrl) {
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  })();
  return cleaned;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the service and cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}
let exitCode = 1;
try {
  const key = await createUserAndKey(env, 'soak@example.com', 'soak');
  if (baseUrl) {
    procs.push(await demoshare('serve', ['serve'], env, /listening on/));
    procs.push(await demoshare('worker', ['worker'], env, /worker running/));
  } else {
    procs.push(await demoshare('start', ['start'], env, /listening on/));
  }
  exitCode = await soak(key);
} catch (error) {
  console.error((error as Error).stack ?? error);
  for (const p of procs) console.error(`--- ${p.name} output ---\n${p.output.slice(-4000)}`);
} finally {
  await cleanUp();
}
process.exit(exitCode);

// --- the load ------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: string;
}

interface Done {
  op: string;
  /** Seconds since the load started, when the answer came. */
  at: number;
  ms: number;
  status: number;
}

async function soak(key: string): Promise<number> {
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = auth) => {
    const res = await fetch(`${app}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`setup: ${method} ${url} answered ${res.status}: ${text}`);
    return { res, json: text ? (JSON.parse(text) as { data: Record<string, unknown> }) : undefined };
  };

  // Setup: the webhook, a published demo of 3 steps with a link, 20 viewer sessions, 50 demos to work on.
  const kinds = ['demo.created', 'demo.updated', 'demo.deleted', 'share.created'];
  await call('POST', '/v1/webhooks', { url: receiverUrl, events: kinds });
  const viewed = (await call('POST', '/v1/demos', { title: 'Soak viewer demo', source_url: 'https://example.com' })).json!.data.id as string;
  for (let i = 0; i < 3; i++) {
    const step = await fetch(`${app}/v1/demos/${viewed}/steps`, {
      method: 'POST',
      headers: { authorization: auth.authorization, 'content-type': 'image/png' },
      body: new Uint8Array(makePng(64, 40)),
    });
    if (step.status !== 201) throw new Error(`setup: step upload answered ${step.status}`);
  }
  await call('PATCH', `/v1/demos/${viewed}`, { status: 'published' });
  const token = ((await call('POST', `/v1/demos/${viewed}/shares`, {})).json!.data.url as string).split('/s/')[1]!;
  const sessions: string[] = [];
  const newSession = async (): Promise<Answer> => {
    const res = await fetch(`${app}/v1/viewer/${token}`);
    const body = await res.text();
    const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
    if (cookie) sessions.push(cookie);
    return { status: res.status, body };
  };
  for (let i = 0; i < 20; i++) await newSession();
  const live: string[] = [];
  for (let i = 0; i < 50; i++) live.push((await call('POST', '/v1/demos', { title: `Soak demo ${i}`, source_url: 'https://example.com' })).json!.data.id as string);
  // What the setup itself emitted: 51 demos created; 3 step uploads and the publish (demo.updated); one link.
  const expected: Record<string, number> = { 'demo.created': 51, 'demo.updated': 4, 'demo.deleted': 0, 'share.created': 1 };
  let accepted = 0;
  const busy = new Map<string, number>();
  const pick = () => live[Math.floor(Math.random() * live.length)]!;
  /** A request about one demo: a delete never picks a demo with a request in flight, so none answers 404. */
  const onDemo = async (id: string, send: () => Promise<Answer>) => {
    busy.set(id, (busy.get(id) ?? 0) + 1);
    try {
      return await send();
    } finally {
      busy.set(id, busy.get(id)! - 1);
      if (busy.get(id) === 0) busy.delete(id);
    }
  };
  const send = async (method: string, url: string, body?: unknown, headers: Record<string, string> = auth): Promise<Answer> => {
    const res = await fetch(`${app}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.text() };
  };

  /** The mix, by weight (percent of requests): what each op sends, and what it expects to be delivered. */
  const ops: Array<[number, string, () => Promise<Answer>, ((res: Answer, body: string) => void)?]> = [
    [20, 'GET /v1/demos', () => send('GET', '/v1/demos?per_page=20')],
    [10, 'GET /v1/demos/:id', () => { const id = pick(); return onDemo(id, () => send('GET', `/v1/demos/${id}`)); }],
    [6, 'POST /v1/demos', () => send('POST', '/v1/demos', { title: 'Soak demo', source_url: 'https://example.com/new' }), (res, body) => {
      if (res.status === 201) { live.push(JSON.parse(body).data.id); expected['demo.created']!++; }
    }],
    [6, 'PATCH /v1/demos/:id', () => { const id = pick(); return onDemo(id, () => send('PATCH', `/v1/demos/${id}`, { title: `Soak demo ${randomUUID().slice(0, 8)}` })); }, (res) => {
      if (res.status === 200) expected['demo.updated']!++;
    }],
    [5, 'DELETE /v1/demos/:id', () => {
      // Keep at least 40 demos; take one nobody is using, out of the pool before the request goes.
      const free = live.findIndex((id) => !busy.has(id));
      if (live.length <= 40 || free < 0) return send('GET', '/v1/demos?per_page=20');
      const [id] = live.splice(free, 1);
      return send('DELETE', `/v1/demos/${id}`, undefined, { authorization: auth.authorization });
    }, (res) => {
      if (res.status === 204) expected['demo.deleted']!++;
    }],
    [3, 'POST /v1/demos/:id/shares', () => { const id = pick(); return onDemo(id, () => send('POST', `/v1/demos/${id}/shares`, {})); }, (res) => {
      if (res.status === 201) expected['share.created']!++;
    }],
    [3, 'GET /v1/demos/:id/shares', () => { const id = pick(); return onDemo(id, () => send('GET', `/v1/demos/${id}/shares`)); }],
    [25, 'GET /v1/viewer/:token/demo', () => send('GET', `/v1/viewer/${token}/demo`, undefined, { cookie: sessions[Math.floor(Math.random() * sessions.length)]! })],
    [20, 'POST /v1/viewer/:token/events', () => send('POST', `/v1/viewer/${token}/events`, {
      events: Array.from({ length: EVENTS_PER_REQUEST }, (_, i) => ({ id: randomUUID(), type: 'step_reached', step_number: (i % 3) + 1, seconds_on_previous: 1.5 })),
    }, { cookie: sessions[Math.floor(Math.random() * sessions.length)]!, 'content-type': 'application/json' }), (res, body) => {
      if (res.status === 202) accepted += (JSON.parse(body) as { data: { accepted: number } }).data.accepted;
    }],
    [2, 'GET /v1/viewer/:token (new session)', () => newSession()],
  ];
  const totalWeight = ops.reduce((n, [w]) => n + w, 0);
  const choose = () => {
    let r = Math.random() * totalWeight;
    for (const op of ops) {
      r -= op[0];
      if (r < 0) return op;
    }
    return ops[0]!;
  };

  const done: Done[] = [];
  const errors: string[] = [];
  let inFlight = 0;
  let issued = 0;
  let skipped = 0;
  const t0 = performance.now();
  const now = () => (performance.now() - t0) / 1000;
  const fire = () => {
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped++;
      return;
    }
    const [, name, run, after] = choose();
    const started = performance.now();
    inFlight++;
    run()
      .then((res) => {
        const { body } = res;
        after?.(res, body);
        done.push({ op: name, at: now(), ms: performance.now() - started, status: res.status });
        if (res.status >= 300 && errors.length < 20) errors.push(`${name}: ${res.status} ${body.slice(0, 200)}`);
      })
      .catch((error: Error) => {
        done.push({ op: name, at: now(), ms: performance.now() - started, status: 0 });
        if (errors.length < 20) errors.push(`${name}: ${error.message}`);
      })
      .finally(() => inFlight--);
  };

  interface Sample {
    t: number;
    rss: Record<string, number | undefined>;
    /** The API process's V8 heap in use and external memory (MB, from its /metrics): what of the RSS is JavaScript's. */
    heapMb?: number;
    externalMb?: number;
    requests: number;
    p50: number;
    p99: number;
    non2xx: number;
    inFlight: number;
  }
  const samples: Sample[] = [];
  const pct = (values: number[], q: number) => {
    if (values.length === 0) return 0;
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };
  const names = procs.map((p) => p.name);
  console.log(
    `Soak on ${engine} (${names.join(' + ')}), ${MINUTES} min at ${RATE} requests/s, samples every ${SAMPLE_S} s, ` +
      `load average at start ${loadAtStart.join(', ')} (${cpus().length} cores)\n`,
  );
  const head = ['t s', ...names.map((n) => `${n} RSS MB`), `${names[0]} heap MB`, `${names[0]} external MB`, 'requests', 'p50 ms', 'p99 ms', 'non-2xx', 'in flight'];
  console.log(head.join('\t'));
  const metric = (text: string, name: string) => {
    const value = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1];
    return value === undefined ? undefined : Number(value) / 1024 / 1024;
  };
  /**
   * Everything but the heap is taken at the sample's time; /metrics is asked with a 2 s limit (an overloaded
   * server answers it late), so a slow answer leaves the heap blank rather than the samples out of order.
   */
  const sample = async () => {
    const t = Math.round(now());
    const window = done.filter((d) => d.at > t - SAMPLE_S && d.at <= t);
    const s: Sample = {
      t,
      rss: Object.fromEntries(procs.map((p) => [p.name, rssMb(p.child.pid!)])),
      requests: window.length,
      p50: pct(window.map((d) => d.ms), 0.5),
      p99: pct(window.map((d) => d.ms), 0.99),
      non2xx: window.filter((d) => d.status < 200 || d.status >= 300).length,
      inFlight,
    };
    samples.push(s);
    const metrics = await fetch(`${app}/metrics`, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.text())
      .catch(() => '');
    s.heapMb = metric(metrics, 'nodejs_heap_size_used_bytes');
    s.externalMb = metric(metrics, 'nodejs_external_memory_bytes');
    console.log([s.t, ...names.map((n) => s.rss[n]?.toFixed(1) ?? '-'), s.heapMb?.toFixed(1) ?? '-', s.externalMb?.toFixed(1) ?? '-', s.requests, s.p50.toFixed(1), s.p99.toFixed(1), s.non2xx, s.inFlight].join('\t'));
  };

  // Open loop: every 10 ms, send what is due at RATE since the start.
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const elapsed = now();
      if (elapsed >= DURATION_S) {
        clearInterval(tick);
        clearInterval(sampler);
        void sample().then(resolve);
        return;
      }
      const due = Math.floor(elapsed * RATE);
      while (issued < due) {
        issued++;
        fire();
      }
    }, 10);
    const sampler = setInterval(() => {
      if (now() < DURATION_S - 1) void sample();
    }, SAMPLE_S * 1000);
  });
  const drainStart = performance.now();
  while (inFlight > 0 && performance.now() - drainStart < 60_000) await new Promise((r) => setTimeout(r, 50));

  // Webhooks: every acknowledged write's event, by kind, within 60 s.
  const deliveredByKind = () => {
    const by: Record<string, number> = Object.fromEntries(kinds.map((k) => [k, 0]));
    for (const kind of delivered.values()) by[kind] = (by[kind] ?? 0) + 1;
    return by;
  };
  const webhookDeadline = performance.now() + 60_000;
  while (kinds.some((k) => deliveredByKind()[k]! < expected[k]!) && performance.now() < webhookDeadline) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const deliveredKinds = deliveredByKind();

  // Stored events: after a graceful stop (the batcher finishes what it acknowledged), in the database.
  await Promise.all(procs.map(stop));
  const stored = await countStoredEvents();

  // --- verdict -----------------------------------------------------------------------------------------
  const afterWarmup = samples.filter((s) => s.t > WARMUP_S);
  const memory = names.map((n) => {
    const pts = afterWarmup.flatMap((s) => (s.rss[n] === undefined ? [] : [[s.t, s.rss[n]!] as const]));
    const mean = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
    const meanT = pts.reduce((a, [x]) => a + x, 0) / pts.length;
    const sxx = pts.reduce((a, [x]) => a + (x - meanT) ** 2, 0);
    const slope = pts.reduce((a, [x, y]) => a + (x - meanT) * (y - mean), 0) / sxx;
    const intercept = mean - slope * meanT;
    // The slope's standard error from the residuals: garbage collection moves RSS by tens of MB between
    // samples, so a short run's slope is uncertain, and the verdict says how uncertain.
    const residuals = pts.reduce((a, [x, y]) => a + (y - intercept - slope * x) ** 2, 0);
    const se = pts.length > 2 ? Math.sqrt(residuals / (pts.length - 2) / sxx) : Number.POSITIVE_INFINITY;
    const perHour = slope * 3600;
    const margin = tQuantile(pts.length - 2) * se * 3600;
    const bound = RSS_BOUND_PER_HOUR * mean;
    const first = pts[0]?.[1] ?? 0;
    const last = pts.at(-1)?.[1] ?? 0;
    return {
      process: n,
      samples: pts.length,
      meanMb: mean,
      firstMb: first,
      lastMb: last,
      slopeMbPerHour: perHour,
      marginMbPerHour: margin,
      boundMbPerHour: bound,
      pass: pts.length >= 3 && perHour - margin <= bound,
    };
  });
  const firstWindow = done.filter((d) => d.at > WARMUP_S && d.at <= WARMUP_S + COMPARE_S).map((d) => d.ms);
  const lastWindow = done.filter((d) => d.at > DURATION_S - COMPARE_S && d.at <= DURATION_S).map((d) => d.ms);
  const p99First = pct(firstWindow, 0.99);
  const p99Last = pct(lastWindow, 0.99);
  const latencyPass = p99Last <= 2 * Math.max(p99First, P99_FLOOR_MS);
  const statuses: Record<string, number> = {};
  for (const d of done) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
  const failedRequests = done.filter((d) => d.status < 200 || d.status >= 300).length;
  const webhooksPass = kinds.every((k) => deliveredKinds[k]! >= expected[k]!);
  const eventsPass = stored >= accepted;
  const byOp: Record<string, { n: number; p50: number; p99: number }> = {};
  for (const [, name] of ops) {
    const ms = done.filter((d) => d.op === name).map((d) => d.ms);
    byOp[name] = { n: ms.length, p50: pct(ms, 0.5), p99: pct(ms, 0.99) };
  }
  const checks = [
    ...memory.map(
      (m) =>
        `${m.pass ? 'PASS' : 'FAIL'} memory of ${m.process}: ${m.firstMb.toFixed(1)} → ${m.lastMb.toFixed(1)} MB after warm-up, slope ` +
        `${m.slopeMbPerHour >= 0 ? '+' : ''}${m.slopeMbPerHour.toFixed(1)} ± ${m.marginMbPerHour.toFixed(1)} MB/h (95%; ${m.samples} samples); ` +
        `bound ${m.boundMbPerHour.toFixed(1)} MB/h = ${RSS_BOUND_PER_HOUR * 100}% of its mean ${m.meanMb.toFixed(1)} MB per hour` +
        (m.marginMbPerHour > m.boundMbPerHour ? ' (too short to resolve the bound: run longer)' : ''),
    ),
    `${latencyPass ? 'PASS' : 'FAIL'} latency: p99 ${p99Last.toFixed(1)} ms in the last ${COMPARE_S} s (${lastWindow.length} requests) against ` +
      `${p99First.toFixed(1)} ms in ${WARMUP_S}–${WARMUP_S + COMPARE_S} s (${firstWindow.length} requests); bound 2 x max(that, ${P99_FLOOR_MS} ms)`,
    `${failedRequests === 0 ? 'PASS' : 'FAIL'} requests: ${done.length} answered (${JSON.stringify(statuses)}), ${failedRequests} not 2xx, ` +
      `${skipped} skipped at ${MAX_IN_FLIGHT} in flight, ${inFlight} unanswered after the drain`,
    `${eventsPass ? 'PASS' : 'FAIL'} view events: ${accepted} acknowledged, ${stored} stored`,
    `${webhooksPass ? 'PASS' : 'FAIL'} webhooks: ${kinds.map((k) => `${k} ${deliveredKinds[k]}/${expected[k]}`).join(', ')} delivered/acknowledged; ` +
      `${deliveryRequests} delivery requests for ${delivered.size} events`,
  ];
  const pass = memory.every((m) => m.pass) && latencyPass && failedRequests === 0 && skipped === 0 && inFlight === 0 && eventsPass && webhooksPass;
  console.log(`\n${checks.join('\n')}\n${errors.length > 0 ? `First errors:\n  ${errors.join('\n  ')}\n` : ''}\nVerdict: ${pass ? 'PASS' : 'FAIL'}`);

  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `soak-${engine}-${stamp}`);
  const result = {
    startedAt: startedAt.toISOString(),
    engine,
    processes: names,
    minutes: MINUTES,
    rate: RATE,
    loadAverageAtStart: loadAtStart,
    cores: cpus().length,
    node: process.version,
    warmupSeconds: WARMUP_S,
    compareSeconds: COMPARE_S,
    rssBoundPerHour: RSS_BOUND_PER_HOUR,
    samples,
    memory,
    latency: { p99First, p99Last, firstRequests: firstWindow.length, lastRequests: lastWindow.length, floorMs: P99_FLOOR_MS, pass: latencyPass },
    byOp,
    statuses,
    skipped,
    viewEvents: { accepted, stored },
    webhooks: { expected, delivered: deliveredKinds, requests: deliveryRequests },
    errors,
    checks,
    pass,
  };
  writeFileSync(`${file}.json`, `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    `# npm run soak, ${engine}, ${startedAt.toISOString()}`,
    '',
    `${names.join(' + ')}; ${MINUTES} min at ${RATE} requests/s (open loop); load average at start ${loadAtStart.join(', ')} (${cpus().length} cores), Node ${process.version}.`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '--:').join('|')}|`,
    ...samples.map((s) => `| ${[s.t, ...names.map((n) => s.rss[n]?.toFixed(1) ?? '-'), s.heapMb?.toFixed(1) ?? '-', s.externalMb?.toFixed(1) ?? '-', s.requests, s.p50.toFixed(1), s.p99.toFixed(1), s.non2xx, s.inFlight].join(' | ')} |`),
    '',
    '| operation | requests | p50 ms | p99 ms |',
    '|---|--:|--:|--:|',
    ...Object.entries(byOp).map(([name, o]) => `| ${name} | ${o.n} | ${o.p50.toFixed(1)} | ${o.p99.toFixed(1)} |`),
    '',
    ...checks.map((c) => `- ${c}`),
    '',
    `**Verdict: ${pass ? 'PASS' : 'FAIL'}**`,
    '',
  ].join('\n');
  writeFileSync(`${file}.md`, md);
  console.log(`Results: ${path.relative(process.cwd(), file)}.json and .md`);
  return pass ? 0 : 1;
}

/** Student's t at 97.5 % for `df` degrees of freedom (two-sided 95 %), from a table: enough for a verdict. */
function tQuantile(df: number): number {
  const table: Array<[number, number]> = [[1, 12.71], [2, 4.3], [3, 3.18], [4, 2.78], [5, 2.57], [6, 2.45], [8, 2.31], [10, 2.23], [15, 2.13], [20, 2.09], [30, 2.04], [60, 2.0]];
  if (df < 1) return Number.POSITIVE_INFINITY;
  return [...table].reverse().find(([d]) => df >= d)?.[1] ?? 1.96;
}

/** View events stored, counted once the service has stopped (PGlite: the data directory is free again). */
async function countStoredEvents(): Promise<number> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return Number((await client.query('select count(*)::int as n from ingested_events')).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const { openDatabase } = await import('../src/db/client');
  const database = await openDatabase({ dataDir });
  try {
    return Number((await database.executeSql('select count(*)::int as n from ingested_events')).rows[0]!.n);
  } finally {
    await database.close();
  }
}
