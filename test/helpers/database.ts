import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client';
import { JobQueue } from '../../src/jobs/queue';
import { RUN_DIR_VARIABLE, templateDatabaseName } from './global-setup';

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

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A migrated PostgreSQL database with the job queue's schema, as the PGlite template has. */
async function migratedPostgres(url: string): Promise<Database> {
  const database = await openDatabase({ url, poolSize: 5 });
  await database.migrate();
  // Services send jobs (account e-mail) in their transactions even where no worker runs.
  const queue = new JobQueue(database, { work: false });
  await queue.start(() => {});
  await queue.stop(1_000);
  return database;
}

let postgresTemplateName: Promise<string | undefined> | undefined;

/**
 * The run's migrated template database on the PostgreSQL server (global-setup.ts names it and drops it at
 * the end), built by the first process that asks while the others wait on an advisory lock. A database
 * copied from it with CREATE DATABASE … TEMPLATE is ready in a fraction of migrating one (about 0.2 s against
 * 1.6-2.3 s, measured on the test server). Undefined outside a vitest run: each database is migrated.
 */
function postgresTemplate(serverUrl: string): Promise<string | undefined> {
  postgresTemplateName ??= (async () => {
    const dir = process.env[RUN_DIR_VARIABLE];
    if (!dir) return undefined;
    const name = templateDatabaseName(dir);
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      // A session lock: released with the connection, even if this process dies while building.
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        // Built under another name and renamed when complete: the template's name never names half of one.
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        const database = await migratedPostgres(withDatabaseName(serverUrl, building));
        await database.close();
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplateName;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const database = await openDatabase({ loadDataDir: await pgliteTemplate() });
    // Migrations newer than the template (none, normally) still apply: it is a no-op otherwise.
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const name = `ds_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = await postgresTemplate(TEST_DATABASE_URL);
  await adminQuery(TEST_DATABASE_URL, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = withDatabaseName(TEST_DATABASE_URL, name);
  const database = template ? await openDatabase({ url, poolSize: 5 }) : await migratedPostgres(url);
  // Migrations newer than the template (none, normally) still apply: it is a no-op otherwise.
  if (template) await database.migrate();
  return {
    database,
    url,
    async drop() {
      await database.close().catch(() => {});
      await adminQuery(TEST_DATABASE_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
