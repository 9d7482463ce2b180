import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';

/**
 * A backup archive is a gzipped POSIX tar (readable with `tar -tzf`) holding `manifest.json` first, then the
 * files it lists, each with its SHA-256, so that a truncated or altered archive is refused before anything
 * is touched. Both ways stream: an entry is read from its source while it is written, and a reader hashes
 * each entry as it passes, so neither holds the archive, only the entry it is at.
 */
export const MANIFEST = 'manifest.json';
/**
 * The largest manifest a reader takes into memory: about 400,000 listed files (a line is ~150 bytes). The
 * manifest is the one entry read whole, so a hand-made archive announcing gigabytes there is refused from
 * its header instead of exhausting the CLI's memory.
 */
export const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;
export const FORMAT = 'demoshare-backup';
/**
 * The newest format this version reads. 2 adds the blobs of DATA_DIR/blobs (`blobs/sha256/<hex>` entries); an
 * archive without them is still written as 1, so that older versions restore it, while an archive with them
 * is refused by a version that would leave its blobs behind.
 */
export const FORMAT_VERSION = 2;
export const FORMAT_VERSION_WITHOUT_BLOBS = 1;

export interface BackupManifest {
  format: typeof FORMAT;
  format_version: number;
  app_version: string;
  created_at: string;
  /** Migrations applied to the database when it was backed up (count, and the newest one's tag). */
  migrations: { applied: number; latest: string | null };
  /** Rows per table (schema-qualified), counted in the database that was dumped. */
  tables: Record<string, number>;
  /**
   * Where the server secret was: `file` (secret.key, inside the archive) or `environment` (SECRET_KEY, not
   * inside: the operator keeps it). The fingerprint lets restore tell a wrong SECRET_KEY from the right one.
   */
  secret_key: { source: 'file' | 'environment' | 'none'; fingerprint: string | null };
  /**
   * The blobs the backed-up asset rows name (absent in archives made before blob stores). `in_archive`: they
   * are entries `blobs/sha256/<hex>` of the archive (ASSET_STORE=filesystem); otherwise (s3) the bucket keeps
   * them and `keys` lists the ones the database depends on.
   */
  blobs?: { store: 'database' | 'filesystem' | 's3'; count: number; bytes: number | null; in_archive: boolean; keys?: string[] };
  files: Array<{ name: string; bytes: number; sha256: string }>;
}

export class ArchiveError extends Error {}

/**
 * One file of an archive: its size and SHA-256, known before it is written (the manifest comes first), and
 * its bytes, opened when its turn comes. `open` may be called again: the bytes must be the same each time.
 */
export interface ArchiveEntry {
  name: string;
  bytes: number;
  sha256: string;
  open: () => Promise<Buffer | AsyncIterable<Uint8Array>>;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** An entry whose bytes are already in memory (the manifest, the secret key, a test's tampered file). */
export const bufferEntry = (name: string, data: Buffer): ArchiveEntry => ({
  name,
  bytes: data.length,
  sha256: sha256(data),
  open: async () => data,
});

/** The size and SHA-256 of a stream of bytes, read once and not kept. */
export async function digestOf(body: AsyncIterable<Uint8Array>): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of body) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * Writes the archive to `file`: the manifest (completed with each entry's size and digest), then the entries,
 * one at a time. Resolves with the archive's size in bytes. An entry whose bytes are not the size it
 * announced fails the write (tar's header already holds the size).
 */
export async function writeArchive(file: string, manifest: Omit<BackupManifest, 'files'>, entries: ArchiveEntry[]): Promise<number> {
  const full: BackupManifest = { ...manifest, files: entries.map(({ name, bytes, sha256 }) => ({ name, bytes, sha256 })) };
  const pack = tar.pack();
  const output = createWriteStream(file, { mode: 0o600 });
  const written = pipeline(pack, createGzip(), output);
  const mtime = new Date();
  try {
    for (const entry of [bufferEntry(MANIFEST, Buffer.from(`${JSON.stringify(full, null, 2)}\n`)), ...entries]) {
      await addEntry(pack, entry, mtime);
    }
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => undefined);
    throw error;
  }
  await written;
  return output.bytesWritten;
}

/** Streams one entry into the tar, honouring its back-pressure; a source that fails fails the write. */
async function addEntry(pack: tar.Pack, entry: ArchiveEntry, mtime: Date) {
  const body = await entry.open();
  await new Promise<void>((resolve, reject) => {
    const sink = pack.entry({ name: entry.name, size: entry.bytes, mode: 0o600, mtime }, (error) => (error ? reject(error) : resolve()));
    // A size that is not the announced one, or a destroyed source, is an error event: without a listener, an uncaught exception.
    sink.on('error', reject);
    (async () => {
      for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
        if (!sink.write(chunk)) await once(sink, 'drain');
      }
      sink.end(undefined);
    })().catch((error: Error) => {
      sink.destroy(error);
      reject(error);
    });
  });
}

/**
 * Where a reader sends an entry's bytes as they pass (a file being extracted), or undefined to only check
 * them. Called once per listed entry, in archive order.
 */
export type EntrySink = (name: string) => Writable | undefined;

/**
 * Called with the manifest as soon as it is read, before any other entry: what it throws stops the read and
 * rejects as it is (not as an ArchiveError), so a caller refuses what the manifest alone tells (a newer
 * format of its own, a wrong secret key) without reading or extracting the rest.
 */
export type ManifestCheck = (manifest: BackupManifest) => void;

/**
 * Reads an archive from `file` and checks it whole: a damaged gzip or tar, a missing manifest, a file the
 * manifest lists that is absent, cut short, or not its checksum throws ArchiveError. Each listed entry's
 * bytes also go to `sink` as they pass, so extracting takes one read; what a sink received is only good once
 * this has resolved. Entries the manifest does not list are skipped.
 */
export async function readArchive(file: string, sink: EntrySink = () => undefined, onManifest?: ManifestCheck): Promise<BackupManifest> {
  const extract = tar.extract();
  const gunzip = createGunzip();
  const input = createReadStream(file);
  const fail = (message: string) => (error: Error) => extract.destroy(new ArchiveError(`${message}: ${error.message}`));
  input.on('error', fail('cannot be read'));
  gunzip.on('error', fail('not a complete Demoshare backup (gzip)'));
  input.pipe(gunzip).pipe(extract as unknown as Writable);

  let manifest: BackupManifest | undefined;
  // By name: an archive may hold tens of thousands of blobs, and each entry looks itself up.
  let listed = new Map<string, BackupManifest['files'][number]>();
  const seen = new Set<string>();
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (!manifest) {
        if (name !== MANIFEST) throw new ArchiveError(`no ${MANIFEST} first: not a Demoshare backup`);
        if ((entry.header.size ?? 0) > MANIFEST_MAX_BYTES) {
          throw new ArchiveError(`${MANIFEST} is larger than ${MANIFEST_MAX_BYTES / 1024 / 1024} MB: not a Demoshare backup`);
        }
        manifest = parseManifest(await collect(entry as AsyncIterable<Uint8Array>));
        listed = new Map(manifest.files.map((f) => [f.name, f]));
        try {
          onManifest?.(manifest);
        } catch (error) {
          throw new PassedOn(error);
        }
        continue;
      }
      const file = listed.get(name);
      if (!file || seen.has(name)) {
        entry.resume();
        continue;
      }
      seen.add(name);
      const { bytes, sha256: digest } = await passThrough(entry as AsyncIterable<Uint8Array>, sink(name));
      if (bytes !== file.bytes || digest !== file.sha256) {
        throw new ArchiveError(`"${name}" does not match its checksum: the archive is damaged`);
      }
    }
  } catch (error) {
    input.destroy();
    if (error instanceof PassedOn) throw error.error;
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`damaged tar (${(error as Error).message})`);
  }
  if (!manifest) throw new ArchiveError(`no ${MANIFEST}: not a Demoshare backup`);
  const missing = manifest.files.find((f) => !seen.has(f.name));
  if (missing) throw new ArchiveError(`"${missing.name}" is listed in the manifest but missing`);
  return manifest;
}

/**
 * An error that is not the archive's: what a ManifestCheck threw, or a sink's failure (a full disk while
 * extracting), carried past the reader's wrapping so that it is not reported as a damaged archive.
 */
class PassedOn extends Error {
  constructor(readonly error: unknown) {
    super('not the archive\'s error');
  }
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Hashes an entry's bytes on their way to `target` (or nowhere). A failure of `target` is passed on as its own. */
async function passThrough(entry: AsyncIterable<Uint8Array>, target: Writable | undefined) {
  if (!target) return digestOf(entry);
  // pipeline destroys the target with the source's error too: the source's own failures are told apart here.
  let sourceFailed = false;
  const source = async function* () {
    try {
      yield* entry;
    } catch (error) {
      sourceFailed = true;
      throw error;
    }
  };
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.from(source()), counter, target);
  } catch (error) {
    throw sourceFailed ? error : new PassedOn(error);
  }
  return { bytes, sha256: hash.digest('hex') };
}

function parseManifest(raw: Buffer): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(raw.toString('utf8')) as BackupManifest;
  } catch {
    throw new ArchiveError(`${MANIFEST} is not valid JSON`);
  }
  if (manifest?.format !== FORMAT || !Array.isArray(manifest.files) || typeof manifest.tables !== 'object') {
    throw new ArchiveError('not a Demoshare backup');
  }
  if (manifest.format_version > FORMAT_VERSION) {
    throw new ArchiveError(`backup format ${manifest.format_version} is newer than this version of Demoshare reads (${FORMAT_VERSION}): upgrade first`);
  }
  return manifest;
}
