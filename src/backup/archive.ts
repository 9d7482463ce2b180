import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A backup archive is a gzipped POSIX tar (readable with `tar -tzf`) holding `manifest.json` first, then the
 * files it lists, each with its SHA-256, so that a truncated or altered archive is refused before anything
 * is touched.
 */
export const MANIFEST = 'manifest.json';
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

const BLOCK = 512;

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const field = (value: string, offset: number, length: number) => h.write(value, offset, length, 'ascii');
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0');
  field(name, 0, 100);
  field(octal(0o600, 8), 100, 8);
  field(octal(0, 8), 108, 8);
  field(octal(0, 8), 116, 8);
  field(octal(size, 12), 124, 12);
  field(octal(Math.floor(mtime / 1000), 12), 136, 12);
  field('        ', 148, 8);
  field('0', 156, 1);
  field('ustar\u000000', 257, 8);
  let sum = 0;
  for (const byte of h) sum += byte;
  field(`${octal(sum, 7)}\u0000`, 148, 8);
  return h;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The archive's bytes: the manifest (completed with each file's size and digest) and the files. */
export function writeArchive(manifest: Omit<BackupManifest, 'files'>, files: Array<{ name: string; data: Buffer }>): Buffer {
  const full: BackupManifest = {
    ...manifest,
    files: files.map((f) => ({ name: f.name, bytes: f.data.length, sha256: sha256(f.data) })),
  };
  const now = Date.now();
  const parts: Buffer[] = [];
  for (const { name, data } of [{ name: MANIFEST, data: Buffer.from(`${JSON.stringify(full, null, 2)}\n`) }, ...files]) {
    parts.push(header(name, data.length, now), data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}

export interface ReadArchive {
  manifest: BackupManifest;
  files: Map<string, Buffer>;
}

/** Reads and checks a whole archive: any damage (truncation, a changed byte, a missing file) throws ArchiveError. */
export function readArchive(bytes: Buffer): ReadArchive {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes);
  } catch (error) {
    throw new ArchiveError(`not a complete Demoshare backup (gzip: ${(error as Error).message})`);
  }
  const entries = new Map<string, Buffer>();
  let offset = 0;
  let ended = false;
  while (offset + BLOCK <= tar.length) {
    const h = tar.subarray(offset, offset + BLOCK);
    if (h.every((b) => b === 0)) {
      ended = true;
      break;
    }
    const text = (start: number, length: number) => h.toString('ascii', start, start + length).replace(/\0.*$/s, '').trim();
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (Number.parseInt(text(148, 8), 8) !== sum) throw new ArchiveError(`damaged tar header at byte ${offset}`);
    const name = text(0, 100);
    const size = Number.parseInt(text(124, 12), 8);
    const start = offset + BLOCK;
    if (!Number.isFinite(size) || start + size > tar.length) throw new ArchiveError(`"${name}" is cut short`);
    entries.set(name, tar.subarray(start, start + size));
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  if (!ended) throw new ArchiveError('the archive is cut short (no end-of-archive marker)');
  const raw = entries.get(MANIFEST);
  if (!raw) throw new ArchiveError(`no ${MANIFEST}: not a Demoshare backup`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(raw.toString('utf8')) as BackupManifest;
  } catch {
    throw new ArchiveError(`${MANIFEST} is not valid JSON`);
  }
  if (manifest.format !== FORMAT || !Array.isArray(manifest.files) || typeof manifest.tables !== 'object') {
    throw new ArchiveError('not a Demoshare backup');
  }
  if (manifest.format_version > FORMAT_VERSION) {
    throw new ArchiveError(`backup format ${manifest.format_version} is newer than this version of Demoshare reads (${FORMAT_VERSION}): upgrade first`);
  }
  const files = new Map<string, Buffer>();
  for (const file of manifest.files) {
    const data = entries.get(file.name);
    if (!data) throw new ArchiveError(`"${file.name}" is listed in the manifest but missing`);
    if (data.length !== file.bytes || sha256(data) !== file.sha256) {
      throw new ArchiveError(`"${file.name}" does not match its checksum: the archive is damaged`);
    }
    files.set(file.name, data);
  }
  return { manifest, files };
}
