import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';

describe('DATA_DIR lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'demoshare-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the owner pid, refuses a second holder while it lives, and frees on release', () => {
    const lock = acquireDataDirLock(dir);
    const file = path.join(dir, 'demoshare.lock');
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    let refused: unknown;
    try {
      acquireDataDirLock(dir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).pid).toBe(process.pid);
    expect((refused as Error).message).toContain('in use by another Demoshare process');
    lock.release();
    lock.release();
    expect(existsSync(file)).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it('takes over a lock left by a process that is gone (a crash)', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(dead.stdout.toString());
    expect(Number.isInteger(deadPid)).toBe(true);
    writeFileSync(path.join(dir, 'demoshare.lock'), String(deadPid));
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(path.join(dir, 'demoshare.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('takes over a lock file whose content is not a pid (torn write)', () => {
    writeFileSync(path.join(dir, 'demoshare.lock'), '');
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(path.join(dir, 'demoshare.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });
});
