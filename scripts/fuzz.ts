// The fuzzer of test/fuzz.test.ts with more runs and a random seed: `npm run fuzz [-- --runs N --seed S]`.
// Every operation of the OpenAPI document gets N generated requests (default 200); the seed is printed first
// and last, so that a failure can be replayed with --seed. On embedded PGlite unless TEST_DATABASE_URL names a
// PostgreSQL server (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run fuzz).
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { childEnv, readScriptSettings } from './settings';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('usage: npm run fuzz -- [--runs N] [--seed S]');
  process.exit(0);
}
const runs = Number(values.runs);
const seed = values.seed === undefined ? randomInt(2 ** 31 - 1) : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('--runs and --seed take whole numbers (runs at least 1)');
  process.exit(2);
}

const engine = readScriptSettings().testDatabaseUrl ? 'PostgreSQL' : 'embedded PGlite';
console.log(`fuzz: seed ${seed}, ${runs} runs per operation, on ${engine}`);
const started = Date.now();
const result = spawnSync('npx', ['vitest', 'run', 'test/fuzz.test.ts'], {
  stdio: 'inherit',
  env: childEnv({ FUZZ_SEED: String(seed), FUZZ_RUNS: String(runs) }),
});
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const status = result.status ?? 1;
console.log(`fuzz: ${status === 0 ? 'passed' : 'FAILED'} in ${minutes} min; replay with: npm run fuzz -- --runs ${runs} --seed ${seed}`);
process.exit(status);
