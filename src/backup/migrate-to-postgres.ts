// `demoshare migrate-to-postgres`: copies the embedded database into an empty PostgreSQL, row counts checked on both sides.
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { AssetStoreKind } from '../core/blob-store/blob-store';
import { type Database, openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/data-dir-lock';
import { JobQueue } from '../jobs/queue';
import { RECORDER_CLIENT_ID } from '../oauth/recorder-client';
import {
  copyQueues,
  copySequences,
  copyTable,
  countForeignTables,
  countRows,
  countRowsExcept,
  dataTables,
  deferForeignKeys,
  deleteRowsWhere,
  namedBlobKeys,
  type RunSql,
} from './catalog.repo';
import { dataDirBlobStore, listKeys } from './archive-blobs';
import { compareCounts } from './counts';
import { BackupError } from './embedded-backup';

/** Tables the target fills itself: migrations by migrating, pg-boss's by installing, queues by create_queue. */
const NOT_COPIED = new Set(['drizzle.__drizzle_migrations', 'pgboss.version', 'pgboss.queue']);
/** Rows a target may hold and still count as empty: what migrating it, or a server started on it once, leaves. */
const ALLOWED_IN_TARGET = new Set([...NOT_COPIED, 'pgboss.schedule']);
/**
 * Rows the migrations themselves insert (the built-in recorder OAuth client): a freshly migrated target has
 * them, and the source's own copies replace them.
 */
const SEEDED: Record<string, string> = { 'public.oauth_apps': `id = '${RECORDER_CLIENT_ID}'` };

export interface MigrateResult {
  comparison: string;
  rows: number;
  /** The blobs the copied asset rows name, and where the new instance finds them. */
  blobs: { count: number; store: 'filesystem' | 's3' };
}

/**
 * Copies the embedded database in DATA_DIR into an empty PostgreSQL database: the schema is made by the
 * migrations, then every row of every table (job queue included, so pending jobs carry over) is copied in
 * one transaction, sequences are set to the source's values, and the counts of both sides are compared
 * before it commits. A failure leaves the target as empty as it was, so the command can run again.
 */
export async function migrateToPostgres(options: {
  dataDir: string;
  url: string;
  /** ASSET_STORE; default `database` (blobs a row names are then looked for in DATA_DIR/blobs, where they were written). */
  assetStore?: AssetStoreKind;
  log: (line: string) => void;
}): Promise<MigrateResult> {
  if (!existsSync(path.join(options.dataDir, 'pgdata'))) {
    throw new BackupError(`There is no embedded database in ${path.resolve(options.dataDir)} (DATA_DIR): nothing to move.`);
  }
  const target = new pg.Client({ connectionString: options.url });
  try {
    await target.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to the target database: ${(error as Error).message}`);
  }
  try {
    const runTarget: RunSql = (text, values) => target.query(text, values as unknown[]);
    const nonEmpty: Array<[string, number]> = [];
    for (const table of await dataTables(runTarget)) {
      if (ALLOWED_IN_TARGET.has(table.name)) continue;
      const n = await countRowsExcept(runTarget, table, SEEDED[table.name]);
      if (n > 0) nonEmpty.push([table.name, n]);
    }
    if (nonEmpty.length > 0 || (await countForeignTables(runTarget)) > 0) {
      throw new BackupError(
        'The target database is not empty' +
          (nonEmpty.length > 0 ? ` (${nonEmpty.map(([name, n]) => `${name}: ${n} rows`).join(', ')})` : ' (it has tables of its own)') +
          '. migrate-to-postgres only writes into an empty database: create a new one (CREATE DATABASE demoshare) ' +
          'and pass its URL. Nothing was changed.',
      );
    }

    const source = await openSource(options.dataDir);
    try {
      const blobs = await checkBlobs(source, options.dataDir, options.assetStore ?? 'database');
      options.log('Preparing the target: migrations and the job queue schema...');
      const prepared = await openDatabase({ url: options.url, poolSize: 2 });
      try {
        await prepared.migrate();
        const queue = new JobQueue(prepared, { work: false });
        await queue.start(() => {});
        await queue.stop(1_000);
      } finally {
        await prepared.close();
      }
      return { ...(await copyAll(source, target, options.log)), blobs };
    } finally {
      await source.close();
    }
  } finally {
    await target.end().catch(() => {});
  }
}

/**
 * Rows copied keep their blob keys, not the bytes: the target instance reads the same store. For the
 * filesystem that is DATA_DIR/blobs on this machine, so every blob named must be there before anything moves.
 */
async function checkBlobs(source: Database, dataDir: string, assetStore: AssetStoreKind): Promise<MigrateResult['blobs']> {
  const keys = await namedBlobKeys((text, values) => source.executeSql(text, values));
  if (assetStore === 's3') return { count: keys.length, store: 's3' };
  const store = dataDirBlobStore(dataDir);
  const missing: string[] = [];
  for (const key of keys) if (!(await store.exists(key))) missing.push(key);
  if (missing.length > 0) {
    throw new BackupError(
      `The embedded database names ${keys.length} blobs in ${path.resolve(dataDir, 'blobs')} and ${missing.length} of them are missing ` +
        `(${listKeys(missing)}): the new instance could not serve those assets. Put them back from a copy of DATA_DIR/blobs ` +
        '(or, if they live in S3, set ASSET_STORE=s3) and run the command again. Nothing was changed.',
    );
  }
  return { count: keys.length, store: 'filesystem' };
}

async function openSource(dataDir: string): Promise<Database> {
  try {
    const database = await openDatabase({ dataDir });
    try {
      // Brought to this version's schema (and job queue schema) first, as `demoshare start` would: both
      // sides then have the same columns.
      await database.migrate();
      const queue = new JobQueue(database, { work: false });
      await queue.start(() => {});
      await queue.stop(1_000);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `Cannot read the embedded database while Demoshare is running on ${path.resolve(error.dataDir)} (pid ${error.pid}): ` +
          'stop the server first. Nothing was changed.',
      );
    }
    throw error;
  }
}

async function copyAll(source: Database, target: pg.Client, log: (line: string) => void): Promise<Omit<MigrateResult, 'blobs'>> {
  const runSource: RunSql = (text, values) => source.executeSql(text, values);
  const runTarget: RunSql = (text, values) => target.query(text, values as unknown[]);
  const tables = await dataTables(runSource);
  const sourceCounts = await countRows(runSource, tables);
  let rows = 0;

  await target.query('BEGIN');
  try {
    const checkForeignKeys = await deferForeignKeys(runTarget);
    await copyQueues(runSource, runTarget);
    // A server started on the target once left its schedules: the source's replace them, as they replace
    // the rows the migrations seeded.
    await deleteRowsWhere(runTarget, 'pgboss.schedule', 'true');
    for (const [name, condition] of Object.entries(SEEDED)) await deleteRowsWhere(runTarget, name, condition);
    for (const table of tables) {
      if (NOT_COPIED.has(table.name)) continue;
      const copied = await copyTable(runSource, runTarget, table);
      rows += copied;
      if (copied > 0) log(`  ${table.name}: ${copied} rows`);
    }
    await copySequences(runSource, runTarget);
    await checkForeignKeys();

    const targetCounts = await countRows(runTarget, await dataTables(runTarget));
    // The target's own bookkeeping (its migrations, pg-boss's version) is not data carried over.
    for (const name of ['drizzle.__drizzle_migrations', 'pgboss.version']) {
      delete sourceCounts[name];
      delete targetCounts[name];
    }
    const comparison = compareCounts(sourceCounts, targetCounts, ['embedded', 'postgres']);
    if (!comparison.ok) {
      throw new BackupError(`The counts differ, so nothing was committed:\n${comparison.text}`);
    }
    await target.query('COMMIT');
    return { comparison: comparison.text, rows };
  } catch (error) {
    await target.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
