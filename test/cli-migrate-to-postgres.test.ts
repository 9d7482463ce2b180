import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToPostgres } from '../src/backup/migrate-to-postgres';
import { cleanEnv, type RunningServer, runCli, startCli } from './helpers/cli';
import { TEST_DATABASE_URL } from './helpers/database';
import { expectSeededInstance, type Seeded, seedDataDir } from './helpers/seeded-instance';

// Needs a PostgreSQL server to move to: runs in the suite's PostgreSQL pass (TEST_DATABASE_URL).
const SLOW = { timeout: 600_000 };

async function connected<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

describe.skipIf(!TEST_DATABASE_URL)('demoshare migrate-to-postgres', SLOW, () => {
  let root: string;
  let dataDir: string;
  let seeded: Seeded;
  let server: RunningServer | undefined;
  const names: string[] = [];
  const freshDatabase = async () => {
    const name = `ds_test_migrate_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await connected(TEST_DATABASE_URL!, (c) => c.query(`CREATE DATABASE ${name}`));
    names.push(name);
    return databaseUrl(name);
  };
  const env = (extra: Record<string, string> = {}) => cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra });

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'demoshare-migrate-'));
    dataDir = path.join(root, 'data');
    // Every asset's bytes in its row: an instance from before the files default, or one run with ASSET_STORE=database.
    seeded = await seedDataDir(dataDir, { assetStore: 'database' });
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    for (const name of names) await connected(TEST_DATABASE_URL!, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    rmSync(root, { recursive: true, force: true });
  });

  it('copies everything into an empty database, counts both sides, and the app runs on it', async () => {
    const url = await freshDatabase();
    const res = await runCli(['migrate-to-postgres', '--database-url', url], env());
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/public\.steps\s+3\s+3/);
    expect(res.stderr).toMatch(/pgboss\.job\s+(\d+)\s+\1/);
    expect(res.stderr).not.toContain('MISMATCH');
    expect(res.stderr).toContain('every table');

    // Sequences carry on from the source's values, so new rows do not collide with copied ones.
    const accessLog = await connected(url, async (client) => {
      const rows = await client.query(
        `select (select count(*) from share_access_log)::int as n,
                (select last_value from share_access_log_id_seq)::int as seq,
                (select count(*) from pg_constraint where contype = 'f' and condeferrable
                   and connamespace = 'public'::regnamespace)::int as deferrable`,
      );
      return rows.rows[0] as { n: number; seq: number; deferrable: number };
    });
    expect(accessLog.n).toBeGreaterThan(0);
    expect(accessLog.seq).toBeGreaterThanOrEqual(accessLog.n);
    expect(accessLog.deferrable).toBe(0);

    // The app on PostgreSQL, the secret key still read from DATA_DIR (as the command's last line says).
    server = await startCli('start', env({ DATABASE_URL: url }));
    await expectSeededInstance(server.url, seeded);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;

    // Run again into the same, now filled, database: refused, nothing changed.
    const again = await runCli(['migrate-to-postgres', '--database-url', url], env());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The target database is not empty');
    expect(again.stderr).toContain('Nothing was changed');
  });

  it('with the embedded default (files in DATA_DIR/blobs), checks every blob named is there, and the app on PostgreSQL serves them from there', async () => {
    const blobsDir = path.join(root, 'blobs-data');
    const blobSeeded = await seedDataDir(blobsDir);
    // ASSET_STORE unset, as the embedded instance ran: its default is the files.
    const blobEnv = (extra: Record<string, string> = {}) => cleanEnv({ DATA_DIR: blobsDir, LOG_LEVEL: 'warn', ...extra });
    const files = readdirSync(path.join(blobsDir, 'blobs'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThanOrEqual(3);

    // One blob gone: refused before anything is written, the missing key named.
    const gone = files[0]!;
    const goneFile = path.join(gone.parentPath, gone.name);
    const kept = readFileSync(goneFile);
    unlinkSync(goneFile);
    const url = await freshDatabase();
    const refused = await runCli(['migrate-to-postgres', '--database-url', url], blobEnv());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`1 of them are missing (sha256/${gone.name})`);
    expect(refused.stderr).toContain('Nothing was changed');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const tables = await connected(url, async (c) => (await c.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0].n);
    expect(tables).toBe(0);

    writeFileSync(goneFile, kept);
    const res = await runCli(['migrate-to-postgres', '--database-url', url], blobEnv());
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(new RegExp(`names ${files.length} blobs, all present in .*blobs-data/blobs`));
    expect(res.stderr).toContain('ASSET_STORE=filesystem and the same DATA_DIR');
    const named = await connected(url, async (c) => (await c.query('select count(distinct blob_key)::int as n from assets')).rows[0].n);
    expect(named).toBe(files.length);

    // Started without ASSET_STORE (the variable forgotten): refused with the store to name, not 503 for every asset.
    const forgot = await runCli(['start'], blobEnv({ DATABASE_URL: url }), 120_000);
    expect(forgot.code, forgot.stderr).toBe(1);
    expect(forgot.stderr).toMatch(/\d+ assets have their bytes in a blob store, but ASSET_STORE is database/);
    expect(forgot.stderr).toContain('ASSET_STORE naming that store: filesystem');
    expect(forgot.stderr).not.toMatch(/\n\s+at /);

    server = await startCli('start', blobEnv({ DATABASE_URL: url, ASSET_STORE: 'filesystem' }));
    await expectSeededInstance(server.url, blobSeeded);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  });

  it('refuses a target holding rows of its own, and a running embedded server', async () => {
    const url = await freshDatabase();
    await connected(url, (client) => client.query('create table inventory (id int primary key); insert into inventory values (1)'));
    const refused = await runCli(['migrate-to-postgres', '--database-url', url], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('public.inventory: 1 rows');

    await expect(migrateToPostgres({ dataDir: path.join(root, 'nothing-here'), url, log: () => {} })).rejects.toThrow(
      /There is no embedded database in .*nothing-here/,
    );

    server = await startCli('start', env());
    const running = await runCli(['migrate-to-postgres', '--database-url', await freshDatabase()], env());
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(/while Demoshare is running .* \(pid \d+\)/);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  });
});
