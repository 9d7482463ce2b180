// The environment variables the scripts and benchmarks read, validated in one place as src/config.ts does
// for the service: a typo'd URL or a duration that is not a number stops the run with the variable's name,
// instead of a bench measuring the wrong database. scripts/test.mjs (CI's plain-node entry) stays outside.
import { z } from 'zod';

/** An empty value counts as unset: the benches pass `''` to a child to turn a database off. */
const optionalUrl = z
  .string()
  .optional()
  .transform((value) => value || undefined)
  .pipe(z.url().optional());

const schema = z.object({
  BENCH_DATABASE_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  TEST_DATABASE_URL: optionalUrl,
  BENCH_SECONDS: z.coerce.number().positive('must be a number of seconds above 0').default(5),
  BENCH_DATA_DIR: z
    .string()
    .optional()
    .transform((value) => value || undefined),
  BENCH_ASSET_STORE: z
    .enum(['database', 'filesystem', ''])
    .optional()
    .transform((value) => value || undefined),
});

/** What a script or bench may be told through its environment. */
export interface ScriptSettings {
  /** BENCH_DATABASE_URL: the PostgreSQL a bench runs on; unset means the embedded PGlite. */
  benchDatabaseUrl: string | undefined;
  /** DATABASE_URL: the service's own database, which a bench falls back to. */
  databaseUrl: string | undefined;
  /** TEST_DATABASE_URL: the PostgreSQL the tests run on (test/helpers/database.ts). */
  testDatabaseUrl: string | undefined;
  /** BENCH_SECONDS: how long a timed bench runs, 5 when unset. */
  benchSeconds: number;
  /** BENCH_DATA_DIR: where bench/server.ts keeps its PGlite data; a temporary folder when unset. */
  benchDataDir: string | undefined;
  /** BENCH_ASSET_STORE: where bench/server.ts keeps assets' bytes (database or filesystem); unset, the engine's default (filesystem on PGlite, database on PostgreSQL). */
  benchAssetStore: 'database' | 'filesystem' | undefined;
}

/** The PostgreSQL a bench falls back to when none is named: the test database of CI and of docs/testing. */
export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Reads and validates the scripts' and benches' settings; throws one error naming every bad variable.
 *
 * @example
 * import { readScriptSettings } from './settings';
 *
 * const settings = readScriptSettings({ BENCH_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/bench', BENCH_SECONDS: '2' });
 * settings.benchSeconds; // 2
 * const postgresUrl = settings.benchDatabaseUrl ?? settings.databaseUrl; // undefined: PGlite
 */
export function readScriptSettings(env: NodeJS.ProcessEnv = process.env): ScriptSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment for this script:\n  ${problems.join('\n  ')}`);
  }
  const s = parsed.data;
  return {
    benchDatabaseUrl: s.BENCH_DATABASE_URL,
    databaseUrl: s.DATABASE_URL,
    testDatabaseUrl: s.TEST_DATABASE_URL,
    benchSeconds: s.BENCH_SECONDS,
    benchDataDir: s.BENCH_DATA_DIR,
    benchAssetStore: s.BENCH_ASSET_STORE,
  };
}

/**
 * The environment for a child process (a service, a bench, vitest): this process's own, as it is, with
 * `overrides` on top. The one place the scripts hand their environment on.
 *
 * @example
 * import { spawn } from 'node:child_process';
 * import { childEnv } from './settings';
 *
 * spawn(process.execPath, ['bin/demoshare.js', 'start'], { env: childEnv({ LOG_LEVEL: 'error', PORT: '0' }) });
 */
export function childEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}
