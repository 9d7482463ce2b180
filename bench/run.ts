/**
 * `npm run bench [-- --seconds 5 --connections 10 --postgres]`
 *
 * Requests/s and latency of the scenarios in bench/scenarios.ts against a server in a child process, on
 * embedded PGlite and, when BENCH_DATABASE_URL or DATABASE_URL is set (or --postgres with TEST_DATABASE_URL),
 * on PostgreSQL in a bench database created for the run and dropped after it. Bounded: `seconds` per
 * scenario plus a one-second warm-up, against 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { SCENARIOS } from './scenarios';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    'pglite-only': { type: 'boolean', default: false },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const postgresUrl =
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || (args.postgres ? process.env.TEST_DATABASE_URL : '');

interface Ready {
  app: string;
  bare: string;
  key: string;
  ids: Record<string, string>;
  engine: string;
}

interface Figures {
  engine: string;
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  ratio?: number;
  target?: number;
}

function startServer(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['bin/run-ts.js', 'bench/server.ts'], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<Ready>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Ready);
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

async function measure(engine: string, ready: Ready): Promise<Figures[]> {
  const results: Figures[] = [];
  for (const scenario of SCENARIOS) {
    const url = `${scenario.server === 'app' ? ready.app : ready.bare}${scenario.path(ready.ids)}`;
    const headers: Record<string, string> = scenario.auth ? { authorization: `Bearer ${ready.key}` } : {};
    await autocannon({ url, connections, duration: 1, headers }); // warm-up: caches, JIT, pool
    const r = await autocannon({ url, connections, duration: seconds, headers });
    const base = results.find((f) => f.name === scenario.baseline);
    results.push({
      engine,
      name: scenario.name,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      failed: r.non2xx + r.errors,
      ratio: base ? r.requests.average / base.rps : undefined,
      target: scenario.target,
    });
  }
  return results;
}

async function runEngine(engine: 'pglite' | 'postgres'): Promise<Figures[]> {
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-bench-'));
    const server = startServer({ BENCH_DATA_DIR: dataDir, BENCH_DATABASE_URL: '' });
    try {
      return await measure('pglite', await server.ready);
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
    return await measure('postgres', await server.ready);
  } finally {
    await server.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const engines: Array<'pglite' | 'postgres'> = ['pglite'];
if (postgresUrl && !args['pglite-only']) engines.push('postgres');
else console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL, or pass --postgres with TEST_DATABASE_URL)');

console.log(`${connections} connections, ${seconds} s per scenario (after a 1 s warm-up), server in a child process\n`);
const all: Figures[] = [];
for (const engine of engines) all.push(...(await runEngine(engine)));

const rows = [
  ['engine', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'ratio', 'target'],
  ...all.map((f) => [
    f.engine,
    f.name,
    f.rps.toFixed(0),
    String(f.p50),
    String(f.p99),
    String(f.failed),
    f.ratio === undefined ? '' : f.ratio.toFixed(2),
    f.target === undefined ? '' : `>= ${f.target} ${f.ratio !== undefined && f.ratio >= f.target ? 'ok' : 'MISS'}`,
  ]),
];
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const [i, row] of rows.entries()) {
  console.log(row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
const failed = all.filter((f) => f.failed > 0);
if (failed.length > 0) {
  console.error(`\n${failed.length} scenario(s) had failed requests: the figures are not meaningful.`);
  process.exitCode = 1;
}
