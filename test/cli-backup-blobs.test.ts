// `demoshare backup` / `restore` of an instance whose assets live in DATA_DIR/blobs (ASSET_STORE=filesystem).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive, writeArchive } from '../src/backup/archive';
import { backupEmbedded, restoreEmbedded } from '../src/backup/embedded-backup';
import { cleanEnv, type RunningServer, runCli, startCli } from './helpers/cli';
import { engine } from './helpers/database';
import { expectSeededInstance, type Seeded, seedDataDir } from './helpers/seeded-instance';

// Real child processes on real data directories (see cli-backup.test.ts): the embedded database is what is
// under test, so the PostgreSQL pass of the suite skips this file.
const SLOW = { timeout: 600_000 };

/** Every blob file under a DATA_DIR/blobs, as `sha256/<hex>` keys. */
function blobKeysIn(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs', 'sha256');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /^[0-9a-f]{64}$/.test(e.name))
    .map((e) => `sha256/${e.name}`)
    .sort();
}

const blobFile = (dataDir: string, key: string) => {
  const hex = key.slice('sha256/'.length);
  return path.join(dataDir, 'blobs', 'sha256', hex.slice(0, 2), hex.slice(2, 4), hex);
};

describe.skipIf(engine !== 'pglite')('demoshare backup / restore with ASSET_STORE=filesystem', SLOW, () => {
  let root: string;
  let source: string;
  let seeded: Seeded;
  let archive: string;
  let keys: string[];
  let server: RunningServer | undefined;
  const env = (dataDir: string, extra: Record<string, string> = {}) =>
    cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ASSET_STORE: 'filesystem', ...extra });

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'demoshare-backup-blobs-'));
    source = path.join(root, 'source');
    archive = path.join(root, 'blobs.backup.tgz');
    seeded = await seedDataDir(source, { assetStore: 'filesystem' });
    keys = blobKeysIn(source);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('archives the blobs the rows name, listed in the manifest with their count and checksums', async () => {
    // The step images (and the demo's thumbnail) went to the store, not into their rows.
    expect(keys.length).toBeGreaterThanOrEqual(3);
    const res = await runCli(['backup', '--to', archive], env(source));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`With them ${keys.length} blobs of`);
    const { manifest, files } = readArchive(readFileSync(archive));
    expect(manifest.format_version).toBe(2);
    expect(manifest.blobs).toMatchObject({ store: 'filesystem', count: keys.length, in_archive: true });
    const entries = [...files.keys()].filter((n) => n.startsWith('blobs/')).sort();
    expect(entries).toEqual(keys.map((k) => `blobs/${k}`));
    expect(manifest.blobs!.bytes).toBe(entries.reduce((sum, n) => sum + files.get(n)!.length, 0));
    for (const key of keys) expect(files.get(`blobs/${key}`)!.equals(readFileSync(blobFile(source, key)))).toBe(true);
  });

  it('restores the blobs into an empty DATA_DIR, counts compared, and the restored instance serves the same image bytes', async () => {
    const target = path.join(root, 'restored');
    const res = await runCli(['restore', '--from', archive], env(target));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(new RegExp(`blobs \\(DATA_DIR/blobs\\)\\s+${keys.length}\\s+${keys.length}`));
    expect(res.stderr).not.toContain('MISMATCH');
    expect(res.stderr).toContain('ASSET_STORE=filesystem');
    expect(readdirSync(target).sort()).toEqual(['blobs', 'pgdata', 'secret.key']);
    expect(blobKeysIn(target)).toEqual(keys);
    // No temporary files left beside the blobs: each was put whole by the store.
    expect(readdirSync(path.join(target, 'blobs'), { recursive: true }).filter((n) => String(n).endsWith('.tmp'))).toEqual([]);

    // The source's blobs are gone from the picture: only the restored DATA_DIR serves.
    server = await startCli('start', env(target));
    await expectSeededInstance(server.url, seeded);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  });

  it('replaces a damaged blob file when restoring with --force over an existing DATA_DIR', async () => {
    const target = path.join(root, 'restored');
    const file = blobFile(target, keys[0]!);
    writeFileSync(file, 'not the image');
    const res = await restoreEmbedded({ dataDir: target, file: archive, force: true });
    expect(res.comparison).not.toContain('MISMATCH');
    expect(readArchive(readFileSync(archive)).files.get(`blobs/${keys[0]}`)!.equals(readFileSync(file))).toBe(true);
  });

  it('refuses an archive with a tampered, missing or miscounted blob before touching DATA_DIR', async () => {
    const bytes = readFileSync(archive);
    const { manifest, files } = readArchive(bytes);
    const { files: _listed, ...rest } = manifest;
    const key = keys[0]!;
    const entry = `blobs/${key}`;
    const target = path.join(root, 'tampered-target');

    // One byte of a blob changed inside the archive: its manifest checksum no longer matches.
    const tar = gunzipSync(bytes);
    const at = tar.indexOf(files.get(entry)!);
    expect(at).toBeGreaterThan(0);
    tar[at + Math.floor(files.get(entry)!.length / 2)]! ^= 0xff;
    const flipped = path.join(root, 'flipped-blob.tgz');
    writeFileSync(flipped, gzipSync(tar));
    const res = await runCli(['restore', '--from', flipped], env(target));
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(`"${entry}" does not match its checksum`);
    expect(res.stderr).toContain('Nothing was changed');
    expect(res.stderr).not.toMatch(/\n\s+at /);

    // Other bytes under the key with a manifest rewritten to match them: the key is the content's address.
    const list = () => [...files].map(([name, data]) => ({ name, data }));
    const swapped = path.join(root, 'swapped-blob.tgz');
    writeFileSync(swapped, writeArchive(rest, list().map((f) => (f.name === entry ? { ...f, data: Buffer.from('other bytes') } : f))));
    await expect(restoreEmbedded({ dataDir: target, file: swapped, force: false })).rejects.toThrow(
      /is refused: .* does not match the SHA-256 its name gives.*Nothing was changed/,
    );

    // A blob left out: with the manifest's count, the count differs; with the count lowered, the database names it.
    const without = list().filter((f) => f.name !== entry);
    const short = path.join(root, 'short.tgz');
    writeFileSync(short, writeArchive(rest, without));
    await expect(restoreEmbedded({ dataDir: target, file: short, force: false })).rejects.toThrow(
      new RegExp(`counts ${keys.length} blobs and it holds ${keys.length - 1}. Nothing was changed`),
    );
    const lowered = path.join(root, 'lowered.tgz');
    writeFileSync(lowered, writeArchive({ ...rest, blobs: { ...rest.blobs!, count: keys.length - 1 } }, without));
    await expect(restoreEmbedded({ dataDir: target, file: lowered, force: false })).rejects.toThrow(
      new RegExp(`names 1 blobs the archive does not hold \\(${key}\\). Nothing was changed`),
    );
    expect(existsSync(path.join(target, 'pgdata'))).toBe(false);
    expect(blobKeysIn(target)).toEqual([]);
  });

  it('with ASSET_STORE=s3, records the keys the rows name and copies no bucket', async () => {
    const file = path.join(root, 's3.tgz');
    const made = await backupEmbedded({ dataDir: source, file, assetStore: 's3' });
    expect(made.manifest.format_version).toBe(1);
    expect(made.manifest.blobs).toEqual({ store: 's3', count: keys.length, bytes: null, in_archive: false, keys });
    expect(made.manifest.files.map((f) => f.name)).toEqual(['pgdata.tar', 'secret.key']);
    const target = path.join(root, 's3-target');
    const restored = await restoreEmbedded({ dataDir: target, file, force: false });
    expect(restored.notes.join('\n')).toMatch(new RegExp(`names ${keys.length} blobs in the S3 bucket, which a backup does not copy`));
    expect(existsSync(path.join(target, 'blobs'))).toBe(false);
  });

  it('refuses to back up when a blob a row names is missing or damaged on disk', async () => {
    const damagedFile = blobFile(source, keys[1]!);
    const kept = readFileSync(damagedFile);
    writeFileSync(damagedFile, Buffer.concat([kept, Buffer.from('x')]));
    unlinkSync(blobFile(source, keys[0]!));
    const file = path.join(root, 'refused.tgz');
    const res = await runCli(['backup', '--to', file], env(source));
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(`1 are missing (${keys[0]})`);
    expect(res.stderr).toContain(`1 do not match their SHA-256 (${keys[1]})`);
    expect(res.stderr).toContain('nothing was written');
    expect(existsSync(file)).toBe(false);
  });
});
