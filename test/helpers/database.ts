import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client';
import { JobQueue } from '../../src/jobs/queue';
import { RUN_DIR_VARIABLE } from './global-setup';

/**
 * The suite runs on embedded PGlite by default, and on a real PostgreSQL server when TEST_DATABASE_URL
 * names one (CI does both). Each call gets a database of its own: a fresh in-memory PGlite, or a freshly
 * created PostgreSQL database that `drop` removes again.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const engine = TEST_DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDatabase {
  database: Database;
  /** Connection string of the fresh database (PostgreSQL only), for child processes. */
  url?: string;
  drop(): Promise<void>;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

let template: Promise<Blob> | undefined;

async function buildPgliteTemplate(): Promise<Blob> {
  const database = await openDatabase({});
  try {
    await database.migrate();
    const queue = new JobQueue(database, { work: false });
    await queue.start(() => {});
    await queue.stop(1_000);
    return await database.dump!();
  } finally {
    await database.close();
  }
}

/**
 * A migrated PGlite cluster with the job queue's schema installed: cloning it costs a fraction of initdb +
 * migrations + pg-boss installation (about 6 s of CPU), which every test app would pay. Made once per run
 * and kept in the run's directory (global-setup.ts), since vitest starts a process per test file; outside
 * vitest, once per process. Processes that start together may each build it; the file is replaced whole,
 * so a reader never sees half of one.
 */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const dir = process.env[RUN_DIR_VARIABLE];
    const file = dir ? path.join(dir, 'pglite-template.tar') : undefined;
    if (file && existsSync(file)) return new Blob([await readFile(file)]);
    const dump = await buildPgliteTemplate();
    if (file) {
      const partial = `${file}.${process.pid}`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file);
    }
    return dump;
  })();
  return template;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const database = await openDatabase({ loadDataDir: await pgliteTemplate() });
    // Migrations newer than the template (none, normally) still apply: it is a no-op otherwise.
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const name = `ds_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabaseName(TEST_DATABASE_URL, name);
  const database = await openDatabase({ url, poolSize: 5 });
  await database.migrate();
  // The job queue's schema too, as in the PGlite template: services send jobs (account e-mail) in their
  // transactions even where no worker runs.
  const queue = new JobQueue(database, { work: false });
  await queue.start(() => {});
  await queue.stop(1_000);
  return {
    database,
    url,
    async drop() {
      await database.close().catch(() => {});
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
