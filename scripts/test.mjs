#!/usr/bin/env node
// The whole test suite: the import-boundary checks and the generated architecture doc, lint, the OpenAPI lint, typecheck, then vitest on embedded PGlite and again (without
// the API's clients: browser, SDK, MCP stdio) on a real PostgreSQL server, ending with one line "N passed, N failed" for the totals of both runs.
// PostgreSQL: TEST_DATABASE_URL, or the local server at 127.0.0.1:5432 when one answers. Without one the
// PostgreSQL run is skipped with a loud notice, except under CI=true, where a skip is a failure.
import { spawnSync } from 'node:child_process';
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

banner('Import boundaries of src/ (cycles, repositories, tables) and the generated sections of docs/architecture.md');
if (run('node', ['scripts/check-imports.mjs']) !== 0) totals.failed += 1;
if (run('node', ['scripts/architecture-doc.mjs', '--check']) !== 0) totals.failed += 1;
banner('Lint (Biome)');
if (run('npx', ['biome', 'check', '.']) !== 0) totals.failed += 1;
banner('OpenAPI document (Redocly lint of what GET /v1/openapi.json serves)');
{
  const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-openapi-'));
  const file = path.join(dir, 'openapi.json');
  if (run('node', ['bin/run-ts.js', 'scripts/openapi-dump.ts', file]) !== 0) totals.failed += 1;
  else if (run('npx', ['redocly', 'lint', file, '--config', 'redocly.yaml']) !== 0) totals.failed += 1;
  rmSync(dir, { recursive: true, force: true });
}
banner('Typecheck (tsc)');
if (run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']) !== 0) totals.failed += 1;
if (run('npx', ['tsc', '--noEmit', '-p', 'extension/tsconfig.json']) !== 0) totals.failed += 1;
banner('SDK build (packages/sdk: typechecked with its own tsconfig, ESM and .d.ts into packages/sdk/dist)');
if (run('npm', ['run', '--silent', 'build:sdk']) !== 0) totals.failed += 1;

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
