// A demo file's zip (demo.json + assets/<sha256>.<ext>), packed and unpacked with limits: run in the document workers.
import { type UnzipFileInfo, unzipSync, type Zippable, zipSync } from 'fflate';
import { AppError } from '../core/errors';

export interface ArchiveLimits {
  /** The sum of the entries' sizes once unpacked (DEMO_ARCHIVE_MAX_EXPANDED_BYTES). */
  expandedBytes: number;
  /** demo.json's own size. */
  documentBytes: number;
  /** How many entries the archive may hold. */
  entries: number;
}

/** What an archive holds that a demo file uses: demo.json parsed, and the asset files by the digest in their name. */
export interface UnpackedArchive {
  document: unknown;
  assets: Record<string, Uint8Array>;
  /** The names of the asset files, by digest, for errors. */
  names: Record<string, string>;
}

export const DOCUMENT_NAME = 'demo.json';
const ASSET_NAME = /^assets\/([0-9a-f]{64})\.[a-z0-9]{1,8}$/;
/** A fixed time for every entry, so that the same demo gives the same bytes (zip stores local times). */
const ENTRY_TIME = new Date(Date.UTC(2000, 0, 1));

const tooLarge = (message: string) => new AppError('payload_too_large', message, { details: [{ field: 'archive', message }] });
const unreadable = (message: string) => new AppError('invalid_request', message, { details: [{ field: 'archive', message }] });

/** Entries nobody means as content: folders, macOS resource forks, dotfiles. */
const ignored = (name: string) => name.endsWith('/') || name.startsWith('__MACOSX/') || name.split('/').some((part) => part.startsWith('.'));

/**
 * Unpacks a demo file's zip. The sizes the archive declares are checked before anything is inflated (so a zip
 * bomb costs nothing), and each entry is inflated into a buffer of its declared size, so that an entry that
 * lies about its size cannot grow past it (it comes out short and is refused). One top folder around
 * everything (a zipped folder) is looked through.
 *
 * @example
 * ```ts
 * const { document, assets } = unpackDemoArchive(zipBytes, { expandedBytes: 250 << 20, documentBytes: 16 << 20, entries: 5000 });
 * ```
 */
export function unpackDemoArchive(zip: Uint8Array, limits: ArchiveLimits): UnpackedArchive {
  let entries = 0;
  let expanded = 0;
  const declared = new Map<string, number>();
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter(file: UnzipFileInfo) {
        if (ignored(file.name)) return false;
        if (++entries > limits.entries) throw tooLarge(`The archive holds more than ${limits.entries} files`);
        expanded += file.originalSize;
        if (expanded > limits.expandedBytes) {
          throw tooLarge(`The archive unpacks to more than ${limits.expandedBytes} bytes (DEMO_ARCHIVE_MAX_EXPANDED_BYTES)`);
        }
        if (file.compression !== 0 && file.compression !== 8) throw unreadable(`${file.name} is compressed with a method other than deflate`);
        declared.set(file.name, file.originalSize);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable(`The body is not a readable zip archive (${error instanceof Error ? error.message : 'unknown error'})`);
  }
  for (const [name, bytes] of Object.entries(files)) {
    if (bytes.length !== declared.get(name)) throw unreadable(`${name} is damaged: it does not unpack to the size the archive declares`);
  }
  const names = Object.keys(files);
  let prefix = '';
  if (!(DOCUMENT_NAME in files)) {
    const top = names.find((n) => /^[^/]+\/demo\.json$/.test(n))?.split('/')[0];
    if (top && names.every((n) => n.startsWith(`${top}/`))) prefix = `${top}/`;
  }
  const doc = files[`${prefix}${DOCUMENT_NAME}`];
  if (!doc) throw unreadable(`The archive has no ${DOCUMENT_NAME} at its top`);
  if (doc.length > limits.documentBytes) throw tooLarge(`${DOCUMENT_NAME} is larger than ${limits.documentBytes} bytes`);
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(doc));
  } catch (error) {
    throw new AppError('invalid_request', `${DOCUMENT_NAME} is not JSON in UTF-8: ${error instanceof Error ? error.message : 'unreadable'}`, {
      details: [{ field: DOCUMENT_NAME, message: 'must be JSON in UTF-8' }],
    });
  }
  const assets: Record<string, Uint8Array> = {};
  const assetNames: Record<string, string> = {};
  for (const name of names) {
    const match = ASSET_NAME.exec(name.slice(prefix.length));
    if (!match || !name.startsWith(prefix)) continue;
    assets[match[1]!] = files[name]!;
    assetNames[match[1]!] = name.slice(prefix.length);
  }
  return { document, assets, names: assetNames };
}

/**
 * Packs demo.json and the assets into a zip: demo.json first, assets by name, fixed times, images stored as
 * they are (they are compressed already) and text deflated. The same files always give the same bytes.
 */
export function packDemoArchive(document: string, assets: Array<{ name: string; bytes: Uint8Array; compress: boolean }>): Uint8Array {
  const entries: Zippable = {
    [DOCUMENT_NAME]: [new TextEncoder().encode(document), { level: 6, mtime: ENTRY_TIME }],
  };
  for (const a of [...assets].sort((x, y) => (x.name < y.name ? -1 : 1))) {
    entries[a.name] = [a.bytes, { level: a.compress ? 6 : 0, mtime: ENTRY_TIME }];
  }
  return zipSync(entries);
}
