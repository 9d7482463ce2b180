/**
 * `npm run bench [-- --seconds 3 --rounds 3 --connections 10 --postgres --pglite-only --only demos,events
 *   --analytics-sizes 10000,100000,1000000]`
 *
 * Requests/s (or units/s, such as events/s) and latency of the scenarios in bench/scenarios.ts against a server in a child process, on
 * embedded PGlite and, when BENCH_DATABASE_URL or DATABASE_URL is set (or --postgres with TEST_DATABASE_URL),
 * on PostgreSQL in a bench database created for the run and dropped after it. Bounded: `seconds` per
 * scenario plus a one-second warm-up, against 127.0.0.1 only. Then analytics at size (bench/analytics.ts),
 * unless --only leaves it out or --analytics-sizes is `off`: the longest part. By default 10k and 100k views,
 * to keep a whole run near ten minutes; a million views take a quarter of an hour to seed on PGlite, so that
 * size is asked for (`--analytics-sizes 10000,100000,1000000`). The recording upload (bench/recording-upload.ts) runs once per engine after the
 * scenarios (`--only recording` alone). The server's resident memory (VmRSS of its pid) is sampled through each
 * scenario's timed run. The table goes to stdout and, as JSON and Markdown, to bench/results/ (latest.json,
 * latest.md and a copy named by the run's start time).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchRecordingUpload, type RecordingUploadTimings } from './recording-upload';
import { benchDemoFile, describeDemoFile } from './demo-file';
import { benchGuideExport, guideExportLine } from './guide-export';
import { benchOfflineBundle, offlineBundleLine } from './offline-bundle';
import { benchTranslation, translationLine } from './translation';
import { childEnv, readScriptSettings } from '../scripts/settings';
import { defaultAssetStore } from '../src/config';
import { SCENARIOS, type Scenario } from './scenarios';
import { rssMb } from './process-memory';
import { benchStaleCheck, describeStaleCheck } from './stale-check';
import { benchFirstPaint, firstPaintLine } from './first-paint';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    'pglite-only': { type: 'boolean', default: false },
    /** Comma-separated parts of scenario names: run those (and the baselines they name) only. */
    only: { type: 'string' },
    /** Views the analytics bench seeds its demo to, in order, or `off`. */
    'analytics-sizes': { type: 'string', default: '10000,100000' },
  },
});
const seconds = Number(args.seconds);
const rounds = Math.max(1, Number(args.rounds));
const connections = Number(args.connections);
const settings = readScriptSettings();
const postgresUrl = settings.benchDatabaseUrl ?? settings.databaseUrl ?? (args.postgres ? settings.testDatabaseUrl : undefined) ?? '';

interface Ready {
  app: string;
  bare: string;
  key: string;
  ids: Record<string, string>;
  engine: string;
  /** The server process (bench/server.ts runs in it, not in a grandchild), for its RSS. */
  pid: number;
}

interface Figures {
  engine: string;
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  ratio?: number;
  /** Units/s against the `compare` baseline's units/s (median of the rounds). */
  compareRatio?: number;
  /** The server process's resident memory in MB during the timed run: the highest sample, and the median. */
  rssPeak?: number;
  rssSteady?: number;
  target?: number;
  note?: string;
  /** Lowest and highest ratio over the rounds. */
  spread?: string;
}

/** Samples a process's RSS every 200 ms until stopped: the peak and the median of the samples. */
function sampleRss(pid: number) {
  const samples: number[] = [];
  const take = () => {
    const mb = rssMb(pid);
    if (mb !== undefined) samples.push(mb);
  };
  take();
  const timer = setInterval(take, 200);
  return () => {
    clearInterval(timer);
    take();
    return samples.length > 0 ? { peak: Math.max(...samples), steady: median(samples) } : undefined;
  };
}

function startServer(env: NodeJS.ProcessEnv) {
  // BENCH_CPU_PROFILE=<dir>: the server writes a V8 CPU profile there when it exits (open it in Chrome's
  // DevTools or speedscope), to see where a scenario's time goes.
  const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, 'bin/run-ts.js', 'bench/server.ts'], {
    env: childEnv({ LOG_LEVEL: 'silent', ...env }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<Ready>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ ...(JSON.parse(line) as Ready), pid: child.pid! });
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  return { ready, stop };
}

function selected() {
  if (!args.only) return SCENARIOS;
  const parts = args.only.split(',').map((p) => p.trim().toLowerCase());
  const chosen = new Set(SCENARIOS.filter((s) => parts.some((p) => s.name.toLowerCase().includes(p))));
  // Baselines first, however deep: a ratio needs its baseline measured in the same run.
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of [...chosen]) {
      for (const name of [s.baseline, s.compare]) {
        const base = SCENARIOS.find((b) => b.name === name);
        if (base && !chosen.has(base)) {
          chosen.add(base);
          grew = true;
        }
      }
    }
  }
  return SCENARIOS.filter((s) => chosen.has(s));
}

/** One timed run of one scenario (after its warm-up), with what it stored when it stores. */
async function runOnce(scenario: Scenario, ready: Ready, engine: string): Promise<Figures> {
  if (scenario.inProcess) return runInProcess(scenario, ready, engine);
  const url = `${scenario.server === 'app' ? ready.app : ready.bare}${scenario.path(ready.ids)}`;
  const headers = scenario.headers?.(ready.ids, ready.key) ?? {};
  const next = scenario.post?.(ready.ids);
  const requests = next
    ? [
        {
          method: 'POST',
          setupRequest: (request: { headers: Record<string, string>; body?: string }) => {
            const { body, headers: extra } = next();
            request.headers = { ...request.headers, ...extra };
            request.body = body;
            return request;
          },
        },
      ]
    : undefined;
  await autocannon({ url, connections, duration: 1, headers, requests }); // warm-up: caches, JIT, pool
  const storedBefore = scenario.stored ? await count(ready.bare, scenario.stored) : 0;
  const stopSampling = sampleRss(ready.pid);
  const r = await autocannon({ url, connections, duration: seconds, headers, requests });
  const rss = stopSampling();
  const units = scenario.units ?? 1;
  const figures: Figures = {
    engine,
    name: scenario.name,
    rps: r.requests.average * units,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors,
    target: scenario.target,
    rssPeak: rss?.peak,
    rssSteady: rss?.steady,
  };
  if (scenario.stored) {
    const acknowledged = r['2xx'] * units;
    const stored = (await count(ready.bare, scenario.stored)) - storedBefore;
    figures.note = `${acknowledged} acknowledged, ${stored} stored${stored < acknowledged ? ' (LOST)' : ''}`;
    if (stored < acknowledged) figures.failed += acknowledged - stored;
  }
  return figures;
}

/** A scenario the server runs itself (`inProcess`): a one-second warm-up, then `seconds` of it. */
async function runInProcess(scenario: Scenario, ready: Ready, engine: string): Promise<Figures> {
  const url = `${scenario.server === 'app' ? ready.app : ready.bare}${scenario.path(ready.ids)}`;
  const run = async (s: number) => {
    const res = await fetch(`${url}?seconds=${s}&loops=${connections}`, { method: 'POST' });
    if (!res.ok) throw new Error(`${scenario.name}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { units: number; seconds: number; p50: number; p99: number };
  };
  await run(1);
  const stopSampling = sampleRss(ready.pid);
  const r = await run(seconds);
  const rss = stopSampling();
  return {
    engine,
    name: scenario.name,
    rps: r.units / r.seconds,
    p50: r.p50,
    p99: r.p99,
    failed: 0,
    rssPeak: rss?.peak,
    rssSteady: rss?.steady,
  };
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Every selected scenario, `rounds` times over. A ratio is taken within each round (scenario against its
 * baseline measured minutes, not a whole run, apart) and the median round is reported: on a shared machine
 * the throughput of one run drifts by a third, and interleaving keeps that drift out of the ratios.
 */
async function measure(engine: string, ready: Ready): Promise<Figures[]> {
  const scenarios = selected();
  const runs = new Map<string, Figures[]>(scenarios.map((s) => [s.name, []]));
  const ratios = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const compared = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    const thisRound = new Map<string, Figures>();
    for (const scenario of scenarios) {
      const figures = await runOnce(scenario, ready, engine);
      thisRound.set(scenario.name, figures);
      runs.get(scenario.name)!.push(figures);
      const base = scenario.baseline ? thisRound.get(scenario.baseline) : undefined;
      if (base) ratios.get(scenario.name)!.push(figures.rps / base.rps);
      const other = scenario.compare ? thisRound.get(scenario.compare) : undefined;
      if (other) compared.get(scenario.name)!.push(figures.rps / other.rps);
    }
  }
  return scenarios.map((scenario) => {
    const all = runs.get(scenario.name)!;
    const r = ratios.get(scenario.name)!;
    const c = compared.get(scenario.name)!;
    const peaks = all.flatMap((f) => (f.rssPeak === undefined ? [] : [f.rssPeak]));
    const steadies = all.flatMap((f) => (f.rssSteady === undefined ? [] : [f.rssSteady]));
    return {
      engine,
      name: scenario.name,
      rps: median(all.map((f) => f.rps)),
      p50: median(all.map((f) => f.p50)),
      p99: median(all.map((f) => f.p99)),
      failed: all.reduce((n, f) => n + f.failed, 0),
      ratio: r.length > 0 ? median(r) : undefined,
      spread: r.length > 1 ? `${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}` : undefined,
      compareRatio: c.length > 0 ? median(c) : undefined,
      rssPeak: peaks.length > 0 ? Math.max(...peaks) : undefined,
      rssSteady: steadies.length > 0 ? median(steadies) : undefined,
      target: scenario.target,
      note: all.map((f) => f.note).filter(Boolean).join('; ') || undefined,
    };
  });
}

/** A count the bare server reports (`{"n": N}`), read between scenarios. */
async function count(bare: string, path: string): Promise<number> {
  const res = await fetch(`${bare}${path}`);
  return ((await res.json()) as { n: number }).n;
}

/** The recording upload (bench/recording-upload.ts) runs with the scenarios, or alone with `--only recording`. */
const recordingWanted = !args.only || args.only.split(',').some((p) => 'recording upload'.includes(p.trim().toLowerCase()));
const recordingRuns: Array<RecordingUploadTimings & { engine: string }> = [];
const demoFileLines: string[] = [];
/** The written guide of 20 steps (bench/guide-export.ts), Markdown and PDF: with the scenarios, or alone with `--only guide`. */
const guideWanted = !args.only || args.only.split(',').some((p) => p.trim().toLowerCase() === 'guide');
const guideLines: string[] = [];
/** The offline file of the demo each recording upload made (bench/offline-bundle.ts). */
const offlineLines: string[] = [];
/** First paint of a share link against a static page, and the sign-in page (bench/first-paint.ts): with the scenarios, or `--only paint`. */
const paintWanted = !args.only || args.only.split(',').some((p) => p.trim().toLowerCase() === 'paint');
const paintLines: string[] = [];

/** The scenarios, then one recording upload of 20 steps, against one server. */
async function measureAll(engine: string, ready: Ready): Promise<Figures[]> {
  const figures = await measure(engine, ready);
  if (recordingWanted) recordingRuns.push({ engine, ...(await benchRecordingUpload(ready.app, ready.key, 20)) });
  // Demo files (bench/demo-file.ts): export, import and push of the 20-step demo that upload made.
  if (recordingWanted) demoFileLines.push(describeDemoFile(engine, await benchDemoFile(ready.app, ready.key, recordingRuns.at(-1)!.demoId)));
  if (guideWanted) guideLines.push(guideExportLine(engine, await benchGuideExport(ready.app, ready.key, 20)));
  if (recordingWanted) offlineLines.push(offlineBundleLine(engine, await benchOfflineBundle(ready.app, ready.key, recordingRuns.at(-1)!.demoId)));
  if (recordingWanted) console.log(translationLine(engine, await benchTranslation(ready.app, ready.key, recordingRuns.at(-1)!.demoId)));
  if (paintWanted) paintLines.push(firstPaintLine(engine, await benchFirstPaint(ready.app, ready.key)));
  return figures;
}

async function runEngine(engine: 'pglite' | 'postgres'): Promise<Figures[]> {
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-bench-'));
    const server = startServer({ BENCH_DATA_DIR: dataDir, BENCH_DATABASE_URL: '' });
    try {
      return await measureAll('pglite', await server.ready);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const name = `ds_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  const server = startServer({ BENCH_DATABASE_URL: url.toString() });
  try {
    return await measureAll('postgres', await server.ready);
  } finally {
    await server.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const engines: Array<'pglite' | 'postgres'> = ['pglite'];
if (postgresUrl && !args['pglite-only']) engines.push('postgres');
else console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL, or pass --postgres with TEST_DATABASE_URL)');

// On a shared machine the figures move with what else runs: the load average at the start goes with them.
const startedAt = new Date();
const loadAtStart = loadavg().map((l) => Number(l.toFixed(2)));
const setup = `${connections} connections, ${seconds} s per scenario (after a 1 s warm-up), ${rounds} rounds (medians), server in a child process`;
console.log(`${setup}; load average at start ${loadAtStart.join(', ')} (${cpus().length} cores)\n`);
const all: Figures[] = [];
if (selected().length > 0 || recordingWanted || guideWanted || paintWanted) for (const engine of engines) all.push(...(await runEngine(engine)));

const mb = (v: number | undefined) => (v === undefined ? '' : v.toFixed(0));
const header = ['engine', 'scenario', 'per s', 'p50 ms', 'p99 ms', 'failed', 'ratio', 'rounds', 'target', 'like for like', 'RSS peak MB', 'RSS steady MB'];
const rows = [
  header,
  ...all.map((f) => [
    f.engine,
    f.name,
    f.rps.toFixed(0),
    String(f.p50),
    String(f.p99),
    String(f.failed),
    f.ratio === undefined ? '' : f.ratio.toFixed(2),
    f.spread ?? '',
    f.target === undefined ? '' : `>= ${f.target} ${f.ratio !== undefined && f.ratio >= f.target ? 'ok' : 'MISS'}`,
    f.compareRatio === undefined ? '' : f.compareRatio.toFixed(2),
    mb(f.rssPeak),
    mb(f.rssSteady),
  ]),
];
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const [i, row] of rows.entries()) {
  console.log(row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
const notes = all.filter((x) => x.note).map((f) => `${f.engine} ${f.name}: ${f.note}`);
for (const note of notes) console.log(note);
const recordingLines = recordingRuns.map(
  (r) =>
    `${r.engine} recording upload (assets in ${settings.benchAssetStore ?? defaultAssetStore(r.engine as 'pglite' | 'postgres')}), ${r.steps} steps of ${(r.bytesPerStep / 1024).toFixed(0)} KB, one request at a time: ` +
    `create ${r.createMs.toFixed(0)} ms, step p50 ${r.stepP50Ms.toFixed(0)} ms, p95 ${r.stepP95Ms.toFixed(0)} ms, ` +
    `complete ${r.completeMs.toFixed(0)} ms, total ${r.totalMs.toFixed(0)} ms`,
).concat(demoFileLines, guideLines, offlineLines, paintLines);
for (const line of recordingLines) console.log(line);
if (!args.only || args.only.includes('stale')) console.log(`\n${describeStaleCheck(await benchStaleCheck(20))}`);
const failed = all.filter((f) => f.failed > 0);
if (failed.length > 0) {
  console.error(`\n${failed.length} scenario(s) had failed requests: the figures are not meaningful.`);
  process.exitCode = 1;
}

let analyticsOutput = '';
const analyticsWanted = !args.only || args.only.split(',').some((p) => p.trim().toLowerCase() === 'analytics');
if (analyticsWanted && args['analytics-sizes'] !== 'off') {
  console.log(`\nAnalytics at size (${args['analytics-sizes']} views)`);
  const child = spawn(process.execPath, ['bin/run-ts.js', 'bench/analytics.ts', args['analytics-sizes']!], {
    // The analytics bench reads the same variables; an empty one means PGlite only.
    env: childEnv({ BENCH_DATABASE_URL: engines.includes('postgres') ? postgresUrl : '', DATABASE_URL: '', TEST_DATABASE_URL: '' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (chunk: Buffer) => {
    analyticsOutput += chunk;
    process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) process.exitCode = 1;
}

writeResults();

/**
 * bench/results/latest.json and latest.md, and the same under the run's start time (bench-<time>.json/.md):
 * the JSON for tools and comparisons, the Markdown to paste into docs.
 */
function writeResults() {
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const result = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    loadAverageAtStart: loadAtStart,
    cores: cpus().length,
    node: process.version,
    options: { seconds, rounds, connections, only: args.only ?? null, analyticsSizes: args['analytics-sizes'] },
    engines,
    scenarios: all,
    recordingUploads: recordingRuns,
    analytics: analyticsOutput || null,
    failed: failed.length,
  };
  const cell = (v: string) => v.replace(/\|/g, '\\|');
  const md = [
    `# npm run bench, ${startedAt.toISOString()}`,
    '',
    `${setup}. Load average at start: ${loadAtStart.join(', ')} (${cpus().length} cores), Node ${process.version}.`,
    'Ratio: per s against the baseline of the same round (docs/benchmarks.md); like for like: ingestion events/s against the bare',
    'INSERT of the same rows in the server process, the cached demo detail against the bare server sending its bytes, and a list',
    'page against its own statement replayed through the same driver with its bytes; RSS: the server process, sampled every 200 ms',
    'during the timed runs.',
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i < 2 ? '---' : '--:')).join('|')}|`,
    ...rows.slice(1).map((r) => `| ${r.map(cell).join(' | ')} |`),
    '',
    ...notes.map((n) => `- ${n}`),
    ...recordingLines.map((l) => `- ${l}`),
    ...(analyticsOutput ? ['', '## Analytics at size', '', '```', analyticsOutput.trimEnd(), '```'] : []),
    '',
  ].join('\n');
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  for (const name of ['latest', `bench-${stamp}`]) {
    writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(path.join(dir, `${name}.md`), md);
  }
  console.log(`\nResults: bench/results/latest.json, latest.md (and bench-${stamp}.*)`);
}
