// Blobs as files under DATA_DIR/blobs, sharded by digest, each written whole or not at all (temp file, fsync, rename).
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type BlobListing, type BlobStore, digestOfBlobKey, storeUnavailable } from './blob-store';

/**
 * A blob store in a folder: `sha256/<hex>` is the file `<root>/sha256/ab/cd/<hex>`. Two levels of 256
 * folders keep each folder small (a million blobs: about 15 a folder). A write goes to a temporary file in
 * the same folder, is fsynced, renamed over the final name (atomic on POSIX) and the folder fsynced, so a
 * crash leaves either no file or the whole one, never a torn blob that a row could name.
 *
 * @example
 * ```ts
 * import { createFilesystemStore } from './filesystem-store';
 *
 * const store = createFilesystemStore('./data/blobs');
 * await store.put('sha256/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', Buffer.alloc(0), 'text/plain');
 * ```
 */
export function createFilesystemStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    const digest = digestOfBlobKey(key);
    // Only content addresses become paths: nothing a key holds can reach outside the root.
    if (!digest) throw new Error(`not a blob key: ${key}`);
    return join(root, 'sha256', digest.slice(0, 2), digest.slice(2, 4), digest);
  };

  return {
    kind: 'filesystem',
    async put(key, bytes) {
      const path = pathOf(key);
      try {
        // Content-addressed: a file already there holds these bytes (it was renamed into place whole). Its time
        // is renewed, as S3 renews an object put again: a collector's grace period counts from the last put.
        if (await present(path)) {
          const now = new Date();
          try {
            await utimes(path, now, now);
            return;
          } catch (error) {
            // Swept by the collector between the two calls: write the bytes anew.
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          }
        }
        const dir = dirname(path);
        await mkdir(dir, { recursive: true });
        const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
        const file = await open(temp, 'wx', 0o640);
        try {
          await file.writeFile(bytes);
          await file.sync();
        } finally {
          await file.close();
        }
        try {
          await rename(temp, path);
        } catch (error) {
          await rm(temp, { force: true });
          throw error;
        }
        await syncDir(dir);
      } catch (error) {
        throw storeUnavailable('write', error);
      }
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw storeUnavailable('read', error);
      }
    },
    async exists(key) {
      try {
        return await present(pathOf(key));
      } catch (error) {
        throw storeUnavailable('read', error);
      }
    },
    async delete(key) {
      try {
        await rm(pathOf(key), { force: true });
      } catch (error) {
        throw storeUnavailable('delete', error);
      }
    },
    async *list() {
      // sha256/ab/cd/<hex>: one page per leaf folder. Temporary files (.tmp, .gc) are not blobs.
      for (const a of await folders(join(root, 'sha256'))) {
        for (const b of await folders(join(root, 'sha256', a))) {
          const dir = join(root, 'sha256', a, b);
          const page: BlobListing[] = [];
          for (const name of await readdir(dir).catch(() => [] as string[])) {
            if (!/^[0-9a-f]{64}$/.test(name)) continue;
            const info = await stat(join(dir, name)).catch(() => undefined);
            if (info) page.push({ key: `sha256/${name}`, modifiedAt: info.mtime });
          }
          if (page.length > 0) yield page;
        }
      }
    },
    /**
     * The blob is first renamed aside, then its time read: a put that renewed it before the rename shows in
     * that time, and the blob goes back; a put after the rename finds no file and writes the bytes anew. So
     * a put of these bytes at any moment keeps them, which a read-then-delete could not promise.
     */
    async sweep(key, before) {
      const path = pathOf(key);
      const aside = `${path}.${randomBytes(6).toString('hex')}.gc`;
      try {
        await rename(path, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw storeUnavailable('delete', error);
      }
      try {
        if ((await stat(aside)).mtime >= before) {
          // Put again meanwhile: back in place, unless a newer put already wrote the same bytes there.
          if (await present(path)) await rm(aside, { force: true });
          else await rename(aside, path);
          return false;
        }
        await rm(aside, { force: true });
        return true;
      } catch (error) {
        throw storeUnavailable('delete', error);
      }
    },
    async close() {},
  };
}

/** The two-hex-digit folders below `dir` (none when it does not exist yet). */
async function folders(dir: string) {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => /^[0-9a-f]{2}$/.test(n)).sort();
}

async function present(path: string) {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The rename is durable only once its folder's entry is on disk too. */
async function syncDir(dir: string) {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
