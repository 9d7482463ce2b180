// PGlite is a single-process database: this lock keeps a second process off the same data directory, and takes over one left by a crash.
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface DataDirLock {
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another Demoshare process (pid ${pid}). ` +
        'Only one process can open it: stop that process first, or run against PostgreSQL (set DATABASE_URL) ' +
        'to use several processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * PGlite is a single-process database: two processes writing the same files would corrupt it. The lock
 * is a file holding the owner's pid; a lock whose owner is gone (a crash) is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, 'demoshare.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    // The pid is written to a private file first and linked into place (atomic, fails if the lock exists),
    // so another process never reads a lock file that exists but is still empty and takes it over.
    const own = `${file}.${process.pid}`;
    writeFileSync(own, String(process.pid));
    try {
      linkSync(own, file);
      rmSync(own, { force: true });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      rmSync(own, { force: true });
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      if (owner === 'gone') continue; // released between our attempt and the read: try again
      if (Number.isInteger(owner) && isAlive(owner)) {
        throw new DataDirLockedError(dataDir, owner);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function readOwner(file: string): number | 'gone' {
  try {
    return Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
