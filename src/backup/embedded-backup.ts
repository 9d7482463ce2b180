// `demoshare backup` / `restore` of the embedded database: refuses before touching anything when the archive or the secret does not match.
import { createHmac } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, openAsBlob, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Database, openDatabase } from '../db/client';
import { acquireDataDirLock, DataDirLockedError } from '../db/data-dir-lock';
import type { AssetStoreKind } from '../core/blob-store/blob-store';
import { digestOfBlobKey } from '../core/blob-store/blob-store';
import {
  ArchiveError,
  type ArchiveEntry,
  type BackupManifest,
  bufferEntry,
  digestOf,
  FORMAT,
  FORMAT_VERSION,
  FORMAT_VERSION_WITHOUT_BLOBS,
  readArchive,
  writeArchive,
} from './archive';
import { blobEntryName, blobKeyOfEntry, checkNamedBlobs, dataDirBlobStore, listKeys, matchesKey, putBlobs } from './archive-blobs';
import { countRows, dataTables, knownMigrations, migrationLevel, namedBlobKeys } from './catalog.repo';
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

/**
 * Archives DATA_DIR's database, unless SECRET_KEY is set its secret key file, and the blobs of DATA_DIR/blobs
 * that its asset rows name (each checked against its SHA-256; a missing or damaged one refuses the backup)
 * into `file`. With ASSET_STORE=s3 the bucket is not copied: the manifest lists the keys the rows name.
 */
export async function backupEmbedded(options: {
  dataDir: string;
  secretKey?: string;
  file: string;
  /** ASSET_STORE; default `filesystem`, the embedded default (with `database`, blobs a row names are looked for in DATA_DIR/blobs too, where they were written). */
  assetStore?: AssetStoreKind;
}): Promise<BackupResult> {
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
  let dump: Blob;
  let manifest: Omit<BackupManifest, 'files'>;
  let keys: string[];
  try {
    const run = database.executeSql.bind(database);
    keys = await namedBlobKeys(run);
    manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION_WITHOUT_BLOBS,
      app_version: APP_VERSION,
      created_at: new Date().toISOString(),
      migrations: await migrationLevel(run),
      tables: await countRows(run, await dataTables(run)),
      secret_key: {
        source: options.secretKey ? 'environment' : fileSecret ? 'file' : 'none',
        fingerprint: secret ? secretFingerprint(secret) : null,
      },
    };
    // PGlite hands its data directory over as one tar in memory; it is streamed from there, never copied.
    dump = await database.dump!();
  } finally {
    await database.close();
  }
  const streamOf = (blob: Blob) => Readable.fromWeb(blob.stream() as Parameters<typeof Readable.fromWeb>[0]);
  const entries: ArchiveEntry[] = [{ name: PGDATA, ...(await digestOf(streamOf(dump))), open: async () => streamOf(dump) }];
  if (fileSecret) entries.push(bufferEntry(SECRET, fileSecret));
  const store = options.assetStore ?? 'filesystem';
  if (store === 's3') {
    // The bucket is the provider's to back up (versioning, replication): the archive records what it relies on.
    manifest.blobs = { store, count: keys.length, bytes: null, in_archive: false, keys };
  } else {
    // ASSET_STORE=database with rows naming blobs: the instance ran with filesystem before, and they are there.
    const blobs = dataDirBlobStore(options.dataDir);
    const checked = await checkNamedBlobs(blobs, keys);
    if (checked.missing.length > 0 || checked.damaged.length > 0) {
      throw new BackupError(
        `The database names ${keys.length} blobs in ${path.resolve(options.dataDir, 'blobs')}, but ` +
          [
            checked.missing.length > 0 ? `${checked.missing.length} are missing (${listKeys(checked.missing)})` : '',
            checked.damaged.length > 0 ? `${checked.damaged.length} do not match their SHA-256 (${listKeys(checked.damaged)})` : '',
          ]
            .filter(Boolean)
            .join(' and ') +
          '. A backup without them could not be restored whole; nothing was written. Put the blobs back from a copy of ' +
          'DATA_DIR/blobs (or, if they live in S3, set ASSET_STORE=s3) and run backup again.',
      );
    }
    // Each blob is read again as it is written, one at a time: the archive never holds them all.
    for (const { key, bytes } of checked.present) {
      entries.push({
        name: blobEntryName(key),
        bytes,
        sha256: digestOfBlobKey(key)!,
        open: async () => {
          const data = await blobs.get(key);
          if (!data || !matchesKey(key, data)) throw new BackupError(`The blob ${key} changed while it was being backed up; nothing was written. Run backup again.`);
          return data;
        },
      });
    }
    const bytes = checked.present.reduce((sum, b) => sum + b.bytes, 0);
    manifest.blobs = { store: keys.length > 0 ? 'filesystem' : store, count: keys.length, bytes, in_archive: keys.length > 0 };
    if (keys.length > 0) manifest.format_version = FORMAT_VERSION;
  }
  // Written aside, read back whole and renamed: a crash or a bad write never leaves a half archive under the chosen name.
  const partial = `${target}.partial-${process.pid}`;
  try {
    const bytes = await writeArchive(partial, manifest, entries);
    const written = await readArchive(partial).catch((error: unknown) => {
      if (!(error instanceof ArchiveError)) throw error;
      throw new BackupError(`The archive written could not be read back whole (${error.message}): check the disk. Nothing was kept.`);
    });
    renameSync(partial, target);
    return { manifest: written, bytes };
  } finally {
    rmSync(partial, { force: true });
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The counts printed side by side: in the manifest, and in the restored database. */
  comparison: string;
  /** True when the archive carried no secret key file: SECRET_KEY must be set to the original one. */
  needsSecretKey: boolean;
  /** What the operator must still do or know about the blobs (an S3 bucket, a restored store to configure). */
  notes: string[];
}

/**
 * Restores an archive into DATA_DIR, reading it once. What the manifest alone tells (a newer Demoshare, a
 * wrong secret key, blobs not named by their content) is refused as soon as it is read. The rest of the
 * archive is extracted into a staging directory inside DATA_DIR, each file checked against its checksum as
 * it passes; DATA_DIR's own files are touched only once the whole archive has been read and found intact.
 * Then the database is loaded from staging, its row counts compared with the manifest and the blobs it names
 * looked for in the archive; then the blobs are put into DATA_DIR/blobs and read back, and only then is the
 * database moved into place.
 */
export async function restoreEmbedded(options: {
  dataDir: string;
  secretKey?: string;
  file: string;
  force: boolean;
}): Promise<RestoreResult> {
  const source = path.resolve(options.file);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist.`);
  const dataDir = path.resolve(options.dataDir);
  // The first folder this call creates, if any: a refused restore takes it away again, leaving no trace.
  const created = mkdirSync(dataDir, { recursive: true });
  let restoredOk = false;
  // Taking the lock first: a running server makes restore refuse before anything is looked at.
  let lock: ReturnType<typeof lockForRestore>;
  try {
    lock = lockForRestore(dataDir);
  } catch (error) {
    if (created) rmSync(created, { recursive: true, force: true });
    throw error;
  }
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
    // The database's tar and the blobs go to staging/archive as they are checked, in the one read of the
    // archive; the small secret key is kept in memory. The files are named by constants and digests, never by
    // the archive's own names, so no entry can write outside it.
    const extracted = path.join(staging, 'archive');
    mkdirSync(extracted, { recursive: true });
    const stagedDump = path.join(extracted, PGDATA);
    const stagedBlob = (key: string) => path.join(extracted, `blob-${digestOfBlobKey(key)}`);
    const secretChunks: Buffer[] = [];
    let blobKeys: string[] = [];
    let listedBlobs = new Set<string>();
    const manifest = await readArchive(
      source,
      (name) => {
        if (name === PGDATA) return createWriteStream(stagedDump);
        if (name === SECRET) return collectInto(secretChunks);
        const key = blobKeyOfEntry(name);
        return key !== undefined && listedBlobs.has(key) ? createWriteStream(stagedBlob(key)) : undefined;
      },
      (read) => {
        blobKeys = checkManifest(source, read, options.secretKey);
        listedBlobs = new Set(blobKeys);
      },
    ).catch((error: unknown) => {
      if (error instanceof ArchiveError) throw new BackupError(`${source} is refused: ${error.message}. Nothing was changed.`);
      if (error instanceof BackupError) throw error;
      // Not the archive's fault: the staging directory could not be written (a full disk, most often).
      throw new BackupError(
        `${source} could not be extracted into ${staging} (${(error as Error).message}): restore needs free space for the ` +
          'unpacked archive inside DATA_DIR. Nothing was changed.',
      );
    });
    const secretFile = manifest.files.some((f) => f.name === SECRET) ? Buffer.concat(secretChunks) : undefined;
    const needsSecretKey = !secretFile && manifest.secret_key.fingerprint !== null;
    let restored: Record<string, number>;
    let named: string[];
    try {
      const database = await openDatabase({ dataDir: staging, loadDataDir: await openAsBlob(stagedDump) });
      try {
        const run = database.executeSql.bind(database);
        restored = await countRows(run, await dataTables(run));
        named = await namedBlobKeys(run);
      } finally {
        await database.close();
      }
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`${source} could not be loaded as a database (${(error as Error).message}). Nothing was changed.`);
    }
    const { ok, text } = compareCounts(manifest.tables, restored, ['backup', 'restored']);
    if (!ok) throw new BackupError(`The restored database does not match the backup's counts:\n${text}\nNothing was changed.`);

    const notes: string[] = [];
    let comparison = text;
    const store = dataDirBlobStore(dataDir);
    if (manifest.blobs?.store === 's3') {
      notes.push(
        `The database names ${named.length} blobs in the S3 bucket, which a backup does not copy: start with the same ASSET_STORE=s3 ` +
          'and S3_* settings, and restore the bucket from its own versioning or replication if it was lost.',
      );
    } else if (blobKeys.length > 0 || named.length > 0) {
      const inArchive = listedBlobs;
      const lacking = named.filter((key) => !inArchive.has(key));
      if (manifest.blobs?.in_archive && lacking.length > 0) {
        throw new BackupError(
          `${source} is refused: its database names ${lacking.length} blobs the archive does not hold (${listKeys(lacking)}). Nothing was changed.`,
        );
      }
      // Blobs go in first, through the store's atomic put, and are read back: rows never name a blob that is not there.
      // A restore refused after this leaves only content-addressed files no row names.
      const { verified, failed } = await putBlobs(
        store,
        blobKeys.map((key) => ({ key, read: () => readFile(stagedBlob(key)) })),
      );
      if (failed.length > 0) {
        throw new BackupError(
          `${failed.length} blobs could not be written to ${path.join(dataDir, 'blobs')} intact (${listKeys(failed)}): check the disk. ` +
            'The database was not replaced.',
        );
      }
      const blobsLine = 'blobs (DATA_DIR/blobs)';
      comparison = compareCounts(
        { ...manifest.tables, [blobsLine]: manifest.blobs?.count ?? 0 },
        { ...restored, [blobsLine]: verified },
        ['backup', 'restored'],
      ).text;
      if (lacking.length > 0) {
        // An archive from before backups carried blobs: the operator copied DATA_DIR/blobs aside, as documented then.
        const absent: string[] = [];
        for (const key of lacking) if (!(await store.exists(key))) absent.push(key);
        if (absent.length > 0) {
          notes.push(
            `This backup predates blobs in backups: its database names ${absent.length} blobs that are not in ${path.join(dataDir, 'blobs')} ` +
              `(${listKeys(absent)}). Copy them there from the copy of DATA_DIR/blobs taken with it; until then those assets answer 503.`,
          );
        }
      }
      notes.push(`The assets' bytes are in ${path.join(dataDir, 'blobs')}: start the server with ASSET_STORE=filesystem, the embedded default (leave it unset; not database).`);
    }

    // Everything checked: swap the database in, then the key. The replaced files go only once both are in.
    const replaced = path.join(dataDir, `.replaced-${process.pid}`);
    mkdirSync(replaced);
    for (const name of ['pgdata', SECRET]) {
      if (existsSync(path.join(dataDir, name))) renameSync(path.join(dataDir, name), path.join(replaced, name));
    }
    renameSync(path.join(staging, 'pgdata'), path.join(dataDir, 'pgdata'));
    if (secretFile) writeFileSync(path.join(dataDir, SECRET), secretFile, { mode: 0o600 });
    rmSync(replaced, { recursive: true, force: true });
    restoredOk = true;
    return { manifest, comparison, needsSecretKey, notes };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock.release();
    // A DATA_DIR made for this restore holds nothing of anyone's if it failed: it goes, as if never made.
    if (!restoredOk && created) rmSync(created, { recursive: true, force: true });
  }
}

/**
 * The checks the manifest alone answers, made as soon as it is read (before the rest of the archive is
 * extracted): the migration level, the blobs' names against their checksums and count, the database's
 * presence, the secret key. Returns the blob keys the archive lists, in its order.
 */
function checkManifest(source: string, manifest: BackupManifest, secretKey: string | undefined): string[] {
  const known = knownMigrations();
  if (manifest.migrations.applied > known.length) {
    throw new BackupError(
      `${source} was made by a newer Demoshare (${manifest.app_version}, ${manifest.migrations.applied} migrations; ` +
        `this one knows ${known.length}): upgrade Demoshare first. Nothing was changed.`,
    );
  }
  const blobKeys: string[] = [];
  for (const { name, sha256 } of manifest.files) {
    const key = blobKeyOfEntry(name);
    if (key === undefined) continue;
    // Each blob's bytes are checked against the manifest's checksum as they pass; the name must be the
    // content's address too, or a rewritten manifest could slip other bytes in under a key.
    if (digestOfBlobKey(key) !== sha256) {
      throw new BackupError(`${source} is refused: "${name}" does not match the SHA-256 its name gives: the archive is damaged. Nothing was changed.`);
    }
    blobKeys.push(key);
  }
  if (manifest.blobs?.in_archive && blobKeys.length !== manifest.blobs.count) {
    throw new BackupError(
      `${source} is refused: its manifest counts ${manifest.blobs.count} blobs and it holds ${blobKeys.length}. Nothing was changed.`,
    );
  }
  if (!manifest.files.some((f) => f.name === PGDATA)) throw new BackupError(`${source} holds no database (${PGDATA}). Nothing was changed.`);
  const wanted = manifest.secret_key.fingerprint;
  const inArchive = manifest.files.some((f) => f.name === SECRET);
  if (!inArchive && wanted !== null && (!secretKey || secretFingerprint(secretKey) !== wanted)) {
    throw new BackupError(
      `${source} was made with SECRET_KEY set in the environment and does not contain it; ` +
        (secretKey ? 'the SECRET_KEY set now is a different one. ' : 'SECRET_KEY is not set now. ') +
        'Set SECRET_KEY to the original value and run restore again (without it, API keys, sessions and webhook ' +
        'secrets cannot be read). Nothing was changed.',
    );
  }
  return blobKeys;
}

/** A sink that keeps what it is given in `chunks` (a small entry read in passing). */
function collectInto(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
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
