#!/usr/bin/env node
// The whole test suite: the import-boundary checks and the generated architecture doc, lint, the OpenAPI lint, typecheck, then vitest on embedded PGlite and again (without
// the API's clients: browser, SDK, MCP stdio) on a real PostgreSQL server, ending with one line "N passed, N failed" for the totals of both runs.
// PostgreSQL: TEST_DATABASE_URL, or the local server at 127.0.0.1:5432 when one answers. Without one the
// PostgreSQL run is skipped with a loud notice, except under CI=true, where a skip is a failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const extra = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(cmd, args, env = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

function banner(text) {
  console.log(`\n${'='.repeat(78)}\n${text}\n${'='.repeat(78)}`);
}

function vitest(label, env, args = []) {
  mkdirSync('test-results', { recursive: true });
  const out = `test-results/vitest-${label}.json`;
  rmSync(out, { force: true });
  banner(label === 'faults' ? 'Fault tests (npm run test:faults) on PostgreSQL and Redis' : `Test suite on ${label}`);
  const code = run(
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra],
    env,
  );
  if (!existsSync(out)) {
    console.error(`vitest (${label}) produced no report (exit ${code})`);
    totals.failed += 1;
    return;
  }
  const report = JSON.parse(readFileSync(out, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  // A file that fails to load, or whose setup hook fails, fails no test of its own (its tests are
  // skipped) but is a failure all the same.
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  );
  totals.failed += brokenFiles.length;
  if (code !== 0 && report.numFailedTests === 0 && brokenFiles.length === 0) totals.failed += 1;
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Runs a command without blocking, its stdout and stderr collected together; resolves with its exit code. */
function runCollected(cmd, args, sink) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => sink.push(chunk));
    child.stderr.on('data', (chunk) => sink.push(chunk));
    child.on('error', (error) => {
      sink.push(Buffer.from(`${cmd}: ${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** The OpenAPI document as the app serves it, dumped to a file and linted. */
async function openapiLint(sink) {
  const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-openapi-'));
  const file = path.join(dir, 'openapi.json');
  try {
    if ((await runCollected('node', ['bin/run-ts.js', 'scripts/openapi-dump.ts', file], sink)) !== 0) return 1;
    return await runCollected('npx', ['redocly', 'lint', file, '--config', 'redocly.yaml'], sink);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each check's steps in turn (a step fails the check and stops it), `parallel` checks at a time. */
async function runChecks(list, parallel) {
  const results = new Array(list.length);
  let next = 0;
  async function lane() {
    while (next < list.length) {
      const index = next++;
      const [title, steps] = list[index];
      const sink = [];
      let ok = true;
      for (const step of steps) {
        const code = typeof step === 'function' ? await step(sink) : await runCollected(step[0], step[1], sink);
        if (code !== 0) {
          ok = false;
          break;
        }
      }
      results[index] = { title, output: Buffer.concat(sink).toString('utf8'), ok };
    }
  }
  await Promise.all(Array.from({ length: parallel }, lane));
  return results;
}


// The checks before the suite are independent: two at a time (this machine has two cores), the longest first,
// each one's output printed whole once all have ended, in the order they are listed.
const checks = [
  ['Typecheck (tsc)', [['npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']]]],
  ['The generated sections of docs/architecture.md', [['node', ['scripts/architecture-doc.mjs', '--check']]]],
  ['Lint (Biome)', [['npx', ['biome', 'check', '.']]]],
  ['OpenAPI document (Redocly lint of what GET /v1/openapi.json serves)', [openapiLint]],
  ['Import boundaries of src/ (cycles, repositories, tables)', [['node', ['scripts/check-imports.mjs']]]],
  ['Typecheck of the recorder extension (tsc)', [['npx', ['tsc', '--noEmit', '-p', 'extension/tsconfig.json']]]],
  ['SDK build (packages/sdk: typechecked with its own tsconfig, ESM and .d.ts into packages/sdk/dist)', [['npm', ['run', '--silent', 'build:sdk']]]],
];
const outcomes = await runChecks(checks, 2);
for (const { title, output, ok } of outcomes) {
  banner(title);
  process.stdout.write(output);
  if (!ok) totals.failed += 1;
}

// Redis-backed tests run when TEST_REDIS_URL is set, or when a local Redis answers.
if (!process.env.TEST_REDIS_URL && (await reachable('127.0.0.1', 6379))) {
  process.env.TEST_REDIS_URL = 'redis://127.0.0.1:6379';
}

vitest('pglite', { TEST_DATABASE_URL: '' });

let pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl && (await reachable('127.0.0.1', 5432))) pgUrl = 'postgres://postgres@127.0.0.1:5432/test';
if (pgUrl) {
  // The clients of the API run once, on PGlite above, the database a new instance runs on: the browser tests
  // (test/browser: the web app and the player in Chromium), the SDK's (test/sdk) and the MCP server over
  // stdio. What they check is the client, and every request they make is covered on both engines by the
  // API tests; they are among the slowest files of the suite, and the run must stay short.
  // TEST_CLIENTS_ON_POSTGRES=1 runs them here too.
  const clientsHere = process.env.TEST_CLIENTS_ON_POSTGRES === '1';
  const clients = ['test/browser/**', 'test/sdk/**', 'test/mcp-stdio.test.ts'];
  vitest('postgres', { TEST_DATABASE_URL: pgUrl }, clientsHere ? [] : clients.flatMap((glob) => ['--exclude', glob]));
} else {
  const notice = 'SKIPPED: the PostgreSQL run (no TEST_DATABASE_URL and nothing answers on 127.0.0.1:5432).';
  banner(`!!! ${notice}`);
  if (ci) {
    console.error('CI requires PostgreSQL: failing.');
    totals.failed += 1;
  }
}

// The fault tests (test/faults: several real processes on PostgreSQL and Redis, killed and cut off) need
// a PostgreSQL server; they run once, after both suites.
if (pgUrl) {
  vitest('faults', { TEST_DATABASE_URL: pgUrl }, ['--config', 'vitest.faults.config.ts']);
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
