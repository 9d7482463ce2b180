// The recorder as this instance hands it out: the build in dist/extension plus the instance's address.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';

/** The packed extension, ready to send. */
export interface InstancePackage {
  zip: Buffer;
  /** Strong validator of the bytes, quoted as an ETag. */
  etag: string;
  /** The manifest's version, for the download's file name. */
  version: string;
  /** The extension id the manifest's public key gives (the id an unpacked install of this zip gets). */
  extensionId: string;
}

/** One file of an archive: its path inside it (forward slashes) and its bytes. */
export interface ZipEntry {
  path: string;
  data: Uint8Array;
}

/** Every entry dated 1 January 2000: the same files always give the same bytes (the ETag, HTTP caching). */
const FIXED_MTIME = new Date(Date.UTC(2000, 0, 1));

/**
 * `entries` as a ZIP archive (deflated, fixed timestamps, sorted by path): the same files always give the
 * same bytes. Used for the zip this instance serves and the store package the build writes.
 *
 * @example
 * ```ts
 * const zip = zipFiles([{ path: 'manifest.json', data: Buffer.from('{}') }]);
 * ```
 */
export function zipFiles(entries: readonly ZipEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => a.path.localeCompare(b.path));
  return Buffer.from(zipSync(Object.fromEntries(sorted.map((file) => [file.path, [file.data, { level: 9, mtime: FIXED_MTIME }]]))));
}

function filesUnder(dir: string): ZipEntry[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path).map((f) => ({ ...f, path: `${name}/${f.path}` }));
    return [{ path: relative(dir, path).split(sep).join('/'), data: readFileSync(path) }];
  });
}

/**
 * Chromium's id for a public key: the first 128 bits of its SHA-256, each hex digit written as a letter
 * from a to p.
 *
 * @example
 * ```ts
 * extensionIdOf(Buffer.from(manifest.key, 'base64')); // 'hndijdjkhibnckcfpfhekjgiokmoppli'
 * ```
 */
export function extensionIdOf(publicKeyDer: Uint8Array): string {
  const hex = createHash('sha256').update(publicKeyDer).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

/**
 * Packs the built extension in `dir` with `instance.json` naming `instanceUrl`, which the popup puts in
 * its address field; null when the extension has not been built (`npm run build:extension`).
 */
export function packForInstance(dir: string, instanceUrl: string): InstancePackage | null {
  if (!existsSync(join(dir, 'manifest.json'))) return null;
  const files = filesUnder(dir).filter((file) => file.path !== 'instance.json');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { version: string; key?: string };
  files.push({ path: 'instance.json', data: Buffer.from(`${JSON.stringify({ instanceUrl })}\n`) });
  const zip = zipFiles(files);
  return {
    zip,
    etag: `"${createHash('sha256').update(zip).digest('base64url').slice(0, 27)}"`,
    version: manifest.version,
    extensionId: manifest.key ? extensionIdOf(Buffer.from(manifest.key, 'base64')) : '',
  };
}
