// `demoshare backup` / `restore` of the embedded database: refuses before touching anything when the archive or the secret does not match.
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Database, openDatabase } from '../db/client';
import { acquireDataDirLock, DataDirLockedError } from '../db/data-dir-lock';
import { ArchiveError, type BackupManifest, FORMAT, FORMAT_VERSION, readArchive, writeArchive } from './archive';
import { countRows, dataTables, knownMigrations, migrationLevel } from './catalog.repo';
import { compareCounts } from './counts';

const APP_VERSION: string = createRequire(import.meta.url)('../../package.json').version;
const PGDATA = 'pgdata.tar';
const SECRET = 'secret.key';

/** A refusal or failure of backup/restore, worded for the operator; nothing was changed. */
export class BackupError extends Error {}

/** Identifies a server secret without revealing it: restore compares it with the SECRET_KEY it is given. */
export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update('demoshare backup fingerprint').digest('hex').slice(0, 16);
}

/** The embedded database belongs to one process: backup, restore and compact need the server stopped. */
export async function openStopped(dataDir: string, what: string, loadDataDir?: Blob): Promise<Database> {
  try {
    return await openDatabase({ dataDir, loadDataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `Cannot ${what} while Demoshare is running on ${path.resolve(error.dataDir)} (pid ${error.pid}): the embedded ` +
          'database belongs to one process. Stop the server (Ctrl-C, or SIGTERM to that pid), run this command again, ' +
          'then start the server. For backups without stopping, run on PostgreSQL and use pg_dump (docs/operations.md).',
      );
    }
    throw error;
  }
}

export interface BackupResult {
  manifest: BackupManifest;
  bytes: number;
}

/** Archives DATA_DIR's database and, unless SECRET_KEY is set, its secret key file into `file`. */
export async function backupEmbedded(options: { dataDir: string; secretKey?: string; file: string }): Promise<BackupResult> {
  const target = path.resolve(options.file);
  if (existsSync(target)) throw new BackupError(`${target} already exists: choose a new file name (a backup never overwrites).`);
  if (!existsSync(path.dirname(target))) throw new BackupError(`The directory ${path.dirname(target)} does not exist.`);
  if (!existsSync(path.join(options.dataDir, 'pgdata'))) {
    throw new BackupError(`There is no embedded database in ${path.resolve(options.dataDir)} (DATA_DIR): nothing to back up.`);
  }
  const secretFile = path.join(options.dataDir, SECRET);
  const fileSecret = !options.secretKey && existsSync(secretFile) ? readFileSync(secretFile) : undefined;
  const secret = options.secretKey ?? fileSecret?.toString('utf8').trim();

  const database = await openStopped(options.dataDir, 'back up');
  let dump: Buffer;
  let manifest: Omit<BackupManifest, 'files'>;
  try {
    const run = database.executeSql.bind(database);
    manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      app_version: APP_VERSION,
      created_at: new Date().toISOString(),
      migrations: await migrationLevel(run),
      tables: await countRows(run, await dataTables(run)),
      secret_key: {
        source: options.secretKey ? 'environment' : fileSecret ? 'file' : 'none',
        fingerprint: secret ? secretFingerprint(secret) : null,
      },
    };
    dump = Buffer.from(await (await database.dump!()).arrayBuffer());
  } finally {
    await database.close();
  }
  const files = [{ name: PGDATA, data: dump }];
  if (fileSecret) files.push({ name: SECRET, data: fileSecret });
  const archive = writeArchive(manifest, files);
  // Written aside and renamed: a crash mid-write never leaves a half archive under the chosen name.
  const partial = `${target}.partial-${process.pid}`;
  try {
    writeFileSync(partial, archive, { mode: 0o600 });
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return { manifest: readArchive(archive).manifest, bytes: archive.length };
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The counts printed side by side: in the manifest, and in the restored database. */
  comparison: string;
  /** True when the archive carried no secret key file: SECRET_KEY must be set to the original one. */
  needsSecretKey: boolean;
}

/**
 * Restores an archive into DATA_DIR. Everything is checked before DATA_DIR is touched: the archive's
 * checksums, its migration level, the secret key, then the database is loaded beside the current one and
 * its row counts compared with the manifest; only then is it moved into place.
 */
export async function restoreEmbedded(options: {
  dataDir: string;
  secretKey?: string;
  file: string;
  force: boolean;
}): Promise<RestoreResult> {
  const source = path.resolve(options.file);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist.`);
  let archive: ReturnType<typeof readArchive>;
  try {
    archive = readArchive(readFileSync(source));
  } catch (error) {
    if (error instanceof ArchiveError) throw new BackupError(`${source} is refused: ${error.message}. Nothing was changed.`);
    throw error;
  }
  const { manifest, files } = archive;
  const known = knownMigrations();
  if (manifest.migrations.applied > known.length) {
    throw new BackupError(
      `${source} was made by a newer Demoshare (${manifest.app_version}, ${manifest.migrations.applied} migrations; ` +
        `this one knows ${known.length}): upgrade Demoshare first. Nothing was changed.`,
    );
  }
  const dump = files.get(PGDATA);
  if (!dump) throw new BackupError(`${source} holds no database (${PGDATA}). Nothing was changed.`);
  const secretFile = files.get(SECRET);
  const wanted = manifest.secret_key.fingerprint;
  const needsSecretKey = !secretFile && wanted !== null;
  if (needsSecretKey && (!options.secretKey || secretFingerprint(options.secretKey) !== wanted)) {
    throw new BackupError(
      `${source} was made with SECRET_KEY set in the environment and does not contain it; ` +
        (options.secretKey ? 'the SECRET_KEY set now is a different one. ' : 'SECRET_KEY is not set now. ') +
        'Set SECRET_KEY to the original value and run restore again (without it, API keys, sessions and webhook ' +
        'secrets cannot be read). Nothing was changed.',
    );
  }

  const dataDir = path.resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  // Taking the lock first: a running server makes restore refuse before anything is looked at.
  const lock = lockForRestore(dataDir);
  const staging = path.join(dataDir, `.restore-${process.pid}`);
  try {
    const present = readdirSync(dataDir).filter((name) => name !== 'demoshare.lock' && name !== path.basename(staging));
    if (present.length > 0 && !options.force) {
      throw new BackupError(
        `${dataDir} (DATA_DIR) is not empty (${present.join(', ')}). Restore into an empty directory, or add --force ` +
          'to replace its database and secret key with the backup. Nothing was changed.',
      );
    }
    rmSync(staging, { recursive: true, force: true });
    let restored: Record<string, number>;
    try {
      const database = await openDatabase({ dataDir: staging, loadDataDir: new Blob([new Uint8Array(dump)]) });
      try {
        const run = database.executeSql.bind(database);
        restored = await countRows(run, await dataTables(run));
      } finally {
        await database.close();
      }
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`${source} could not be loaded as a database (${(error as Error).message}). Nothing was changed.`);
    }
    const { ok, text } = compareCounts(manifest.tables, restored, ['backup', 'restored']);
    if (!ok) throw new BackupError(`The restored database does not match the backup's counts:\n${text}\nNothing was changed.`);

    // Everything checked: swap the database in, then the key. The replaced files go only once both are in.
    const replaced = path.join(dataDir, `.replaced-${process.pid}`);
    mkdirSync(replaced);
    for (const name of ['pgdata', SECRET]) {
      if (existsSync(path.join(dataDir, name))) renameSync(path.join(dataDir, name), path.join(replaced, name));
    }
    renameSync(path.join(staging, 'pgdata'), path.join(dataDir, 'pgdata'));
    if (secretFile) writeFileSync(path.join(dataDir, SECRET), secretFile, { mode: 0o600 });
    rmSync(replaced, { recursive: true, force: true });
    return { manifest, comparison: text, needsSecretKey };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}

function lockForRestore(dataDir: string) {
  try {
    return acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `Cannot restore while Demoshare is running on ${dataDir} (pid ${error.pid}). Stop the server first, restore, ` +
          'then start it. Nothing was changed.',
      );
    }
    throw error;
  }
}
