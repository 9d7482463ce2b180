import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupManifest, bufferEntry, writeArchive } from '../src/backup/archive';
import { readWholeArchive } from './helpers/backup-archive';
import { BackupError, backupEmbedded, restoreEmbedded } from '../src/backup/embedded-backup';
import { cleanEnv, type RunningServer, runCli, startCli } from './helpers/cli';
import { engine } from './helpers/database';
import { expectSeededInstance, type Seeded, seedDataDir, viewOverHttp } from './helpers/seeded-instance';
import { TEST_SECRET } from './helpers/test-app';

// Real child processes on real data directories: each command compiles TypeScript and opens PGlite, which
// takes tens of seconds on a loaded machine. The embedded database is what is under test, so the
// PostgreSQL pass of the suite skips this file. The embedded default keeps assets in DATA_DIR/blobs
// (ASSET_STORE=filesystem), so the one seeded instance, backup and restore here check the blobs too; what
// needs no child process runs in process.
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

/** An archive of files in memory, with the manifest completed by their checksums (a tampered copy). */
async function writeWhole(file: string, manifest: Omit<BackupManifest, 'files'>, files: Array<{ name: string; data: Buffer }>) {
  await writeArchive(file, manifest, files.map((f) => bufferEntry(f.name, f.data)));
}

const blobFile = (dataDir: string, key: string) => {
  const hex = key.slice('sha256/'.length);
  return path.join(dataDir, 'blobs', 'sha256', hex.slice(0, 2), hex.slice(2, 4), hex);
};

describe.skipIf(engine !== 'pglite')('demoshare backup / restore, and a process crash on the embedded database', SLOW, () => {
  let root: string;
  let source: string;
  let seeded: Seeded;
  let archive: string;
  let keys: string[];
  let server: RunningServer | undefined;
  const env = (dataDir: string, extra: Record<string, string> = {}) => cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra });

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'demoshare-backup-'));
    source = path.join(root, 'source');
    archive = path.join(root, 'demoshare.backup.tgz');
    seeded = await seedDataDir(source);
    keys = blobKeysIn(source);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps every acknowledged view event through kill -9 of `demoshare start`, and refuses a backup while it runs', async () => {
    server = await startCli('start', env(source));
    await viewOverHttp(server.url, seeded.shareToken, 3);
    await viewOverHttp(server.url, seeded.shareToken, 2);

    const refused = await runCli(['backup', '--to', archive], env(source));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Cannot back up while Demoshare is running .* \(pid \d+\)/);
    expect(refused.stderr).toContain('Stop the server');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(archive)).toBe(false);

    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    server = undefined;
    // The stale lock of the killed process is taken over; both acknowledged views are there.
    server = await startCli('start', env(source));
    await expectSeededInstance(server.url, seeded, 2);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
    seeded.views += 2;
  });

  it('backs up the stopped instance into a checksummed archive with a manifest and the secret key', async () => {
    const res = await runCli(['backup', '--to', archive], env(source));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/Backed up \d+ rows in \d+ tables/);
    expect(res.stderr).toContain(`With them ${keys.length} blobs of`);
    const { manifest, files } = await readWholeArchive(archive);
    // The embedded default keeps the pictures in DATA_DIR/blobs: the archive carries the blobs the rows
    // name (format 2), listed in the manifest with their count and checksums.
    expect(manifest).toMatchObject({ format: 'demoshare-backup', format_version: 2, secret_key: { source: 'file' } });
    // The step images (and the demo's thumbnail) went to the store, not into their rows.
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(manifest.blobs).toMatchObject({ store: 'filesystem', count: keys.length, in_archive: true });
    const blobEntries = [...files.keys()].filter((name) => name.startsWith('blobs/')).sort();
    expect(blobEntries).toEqual(keys.map((k) => `blobs/${k}`));
    expect(manifest.blobs!.bytes).toBe(blobEntries.reduce((sum, n) => sum + files.get(n)!.length, 0));
    for (const key of keys) expect(files.get(`blobs/${key}`)!.equals(readFileSync(blobFile(source, key)))).toBe(true);
    expect(manifest.migrations.applied).toBeGreaterThan(0);
    expect(manifest.tables).toMatchObject({ 'public.users': 1, 'public.demos': 1, 'public.steps': 3, 'public.views': seeded.views });
    expect(manifest.tables['public.webhook_deliveries']).toBeGreaterThanOrEqual(seeded.deliveries);
    expect(manifest.tables['pgboss.job']).toBeGreaterThan(0);
    expect(files.get('secret.key')?.toString().trim()).toBe(TEST_SECRET);

    const again = await runCli(['backup', '--to', archive], env(source));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('restores into an empty DATA_DIR, verifying counts, and the restored instance serves everything', async () => {
    const target = path.join(root, 'restored');
    const res = await runCli(['restore', '--from', archive], env(target));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/public\.views\s+\d+\s+\d+/);
    expect(res.stderr).toMatch(new RegExp(`blobs \\(DATA_DIR/blobs\\)\\s+${keys.length}\\s+${keys.length}`));
    expect(res.stderr).not.toContain('MISMATCH');
    expect(res.stderr).toContain('ASSET_STORE=filesystem');
    expect(readdirSync(target).sort()).toEqual(['blobs', 'pgdata', 'secret.key']);
    expect(blobKeysIn(target)).toEqual(keys);
    // No temporary files left beside the blobs: each was put whole by the store.
    expect(readdirSync(path.join(target, 'blobs'), { recursive: true }).filter((n) => String(n).endsWith('.tmp'))).toEqual([]);

    // Only the restored DATA_DIR serves: the image bytes come from its blobs.
    server = await startCli('start', env(target));
    await expectSeededInstance(server.url, seeded);

    // Restoring over a running instance is refused, even with --force.
    const running = await runCli(['restore', '--from', archive, '--force'], env(target));
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(/Cannot restore while Demoshare is running/);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;

    const before = statSync(path.join(target, 'pgdata', 'PG_VERSION')).mtimeMs;
    const refused = await runCli(['restore', '--from', archive], env(target));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    expect(refused.stderr).toContain('--force');
    expect(statSync(path.join(target, 'pgdata', 'PG_VERSION')).mtimeMs).toBe(before);

    // --force over the existing DATA_DIR replaces a damaged blob file too.
    const damagedBlob = blobFile(target, keys[0]!);
    writeFileSync(damagedBlob, 'not the image');
    const forced = await runCli(['restore', '--from', archive, '--force'], env(target));
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).not.toContain('MISMATCH');
    expect(readdirSync(target).sort()).toEqual(['blobs', 'pgdata', 'secret.key']);
    expect(readFileSync(damagedBlob).equals(readFileSync(blobFile(source, keys[0]!)))).toBe(true);
  });

  it('reads the archive once, front to back: it restores from a pipe', async () => {
    const fifo = path.join(root, 'archive.pipe');
    execFileSync('mkfifo', [fifo]);
    // A pipe gives its bytes once: a second read of the archive would wait for a writer that never comes.
    const writing = pipeline(createReadStream(archive), createWriteStream(fifo));
    const target = path.join(root, 'from-a-pipe');
    const restored = await restoreEmbedded({ dataDir: target, file: fifo, force: false });
    await writing;
    expect(restored.comparison).not.toContain('MISMATCH');
    expect(restored.comparison).toMatch(new RegExp(`blobs \\(DATA_DIR/blobs\\)\\s+${keys.length}\\s+${keys.length}`));
    expect(readdirSync(target).sort()).toEqual(['blobs', 'pgdata', 'secret.key']);
    expect(blobKeysIn(target)).toEqual(keys);
  }, 300_000);

  it('refuses a damaged or truncated archive before touching DATA_DIR', async () => {
    const bytes = readFileSync(archive);
    // A byte of the database's tar changed inside the archive. Not a flip of a compressed byte: in a long run of
    // zeros a flipped back-reference can decode to the very same bytes, an archive that is not damaged at all.
    const tarBytes = gunzipSync(bytes);
    const size = (at: number) => Number.parseInt(tarBytes.subarray(at + 124, at + 136).toString('ascii').replace(/\0.*$/, '').trim(), 8);
    const second = 512 + Math.ceil(size(0) / 512) * 512; // manifest.json comes first, then pgdata.tar
    expect(tarBytes.subarray(second, second + 10).toString('ascii')).toBe('pgdata.tar');
    tarBytes[second + 512 + Math.floor(size(second) / 2)]! ^= 0xff;
    const flipped = gzipSync(tarBytes);
    const damaged = path.join(root, 'damaged.tgz');
    const truncated = path.join(root, 'truncated.tgz');
    const notOurs = path.join(root, 'not-ours.tgz');
    writeFileSync(damaged, flipped);
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    writeFileSync(notOurs, 'hello');

    const empty = path.join(root, 'empty-target');
    const existing = path.join(root, 'restored');
    const secretBefore = readFileSync(path.join(existing, 'secret.key'));
    const listing = readdirSync(path.join(existing, 'pgdata')).sort();
    // Through the command once (exit status and wording), then each kind of damage in process.
    const res = await runCli(['restore', '--from', damaged, '--force'], env(existing));
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('is refused');
    expect(res.stderr).toContain('Nothing was changed');
    expect(res.stderr).not.toMatch(/\n\s+at /);
    for (const file of [damaged, truncated, notOurs]) {
      for (const target of [empty, existing]) {
        await expect(restoreEmbedded({ dataDir: target, file, force: true })).rejects.toThrow(/is refused: .*Nothing was changed/);
      }
    }
    expect(existsSync(empty)).toBe(false);
    // Nothing staged is left behind either.
    expect(readdirSync(existing).sort()).toEqual(['blobs', 'pgdata', 'secret.key']);

    // Intact checksums over a database whose counts are not the manifest's: loaded aside, compared, refused.
    const { manifest, files } = await readWholeArchive(archive);
    const { files: _listed, ...rest } = manifest;
    const lying = path.join(root, 'lying.tgz');
    await writeWhole(lying, { ...rest, tables: { ...rest.tables, 'public.demos': 2 } }, [...files].map(([name, data]) => ({ name, data })));
    await expect(restoreEmbedded({ dataDir: existing, file: lying, force: true })).rejects.toThrow(
      /does not match the backup's counts:[\s\S]*public\.demos\s+2\s+1 {2}MISMATCH[\s\S]*Nothing was changed/,
    );
    expect(readFileSync(path.join(existing, 'secret.key')).equals(secretBefore)).toBe(true);
    expect(readdirSync(path.join(existing, 'pgdata')).sort()).toEqual(listing);
  });

  it('refuses an archive with a tampered, missing or miscounted blob before touching DATA_DIR', async () => {
    const bytes = readFileSync(archive);
    const { manifest, files } = await readWholeArchive(archive);
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
    // (The command's exit status and wording for a refused archive are checked above; these run in process.)
    await expect(restoreEmbedded({ dataDir: target, file: flipped, force: false })).rejects.toThrow(
      new RegExp(`"${entry}" does not match its checksum.*Nothing was changed`, 's'),
    );

    // Other bytes under the key with a manifest rewritten to match them: the key is the content's address.
    const list = () => [...files].map(([name, data]) => ({ name, data }));
    const swapped = path.join(root, 'swapped-blob.tgz');
    await writeWhole(swapped, rest, list().map((f) => (f.name === entry ? { ...f, data: Buffer.from('other bytes') } : f)));
    await expect(restoreEmbedded({ dataDir: target, file: swapped, force: false })).rejects.toThrow(
      /is refused: .* does not match the SHA-256 its name gives.*Nothing was changed/,
    );

    // A blob left out: with the manifest's count, the count differs; with the count lowered, the database names it.
    const without = list().filter((f) => f.name !== entry);
    const short = path.join(root, 'short.tgz');
    await writeWhole(short, rest, without);
    await expect(restoreEmbedded({ dataDir: target, file: short, force: false })).rejects.toThrow(
      new RegExp(`counts ${keys.length} blobs and it holds ${keys.length - 1}. Nothing was changed`),
    );
    const lowered = path.join(root, 'lowered.tgz');
    await writeWhole(lowered, { ...rest, blobs: { ...rest.blobs!, count: keys.length - 1 } }, without);
    await expect(restoreEmbedded({ dataDir: target, file: lowered, force: false })).rejects.toThrow(
      new RegExp(`names 1 blobs the archive does not hold \\(${key}\\). Nothing was changed`),
    );
    expect(existsSync(path.join(target, 'pgdata'))).toBe(false);
    expect(blobKeysIn(target)).toEqual([]);
  });

  it('with SECRET_KEY in the environment, keeps it out of the archive and restores only with the same key', async () => {
    const file = path.join(root, 'env-key.tgz');
    const secret = 'an-operator-secret-key-of-forty-characters!';
    const made = await backupEmbedded({ dataDir: source, secretKey: secret, file });
    expect(made.manifest.secret_key.source).toBe('environment');
    expect(made.manifest.files.map((f) => f.name).filter((name) => !name.startsWith('blobs/'))).toEqual(['pgdata.tar']);

    const target = path.join(root, 'env-key-target');
    await expect(restoreEmbedded({ dataDir: target, file, force: false })).rejects.toThrow(/SECRET_KEY is not set now/);
    await expect(restoreEmbedded({ dataDir: target, file, force: false, secretKey: `${secret}x` })).rejects.toThrow(
      /a different one/,
    );
    expect(existsSync(path.join(target, 'pgdata'))).toBe(false);
    const restored = await restoreEmbedded({ dataDir: target, file, force: false, secretKey: secret });
    expect(restored.needsSecretKey).toBe(true);
    expect(readdirSync(target).sort()).toEqual(['blobs', 'pgdata']);
    await expect(restoreEmbedded({ dataDir: target, file, force: false, secretKey: secret })).rejects.toBeInstanceOf(BackupError);
  });

  it('prints the pg_dump path instead of backing up when DATABASE_URL is set', async () => {
    const res = await runCli(['backup', '--to', path.join(root, 'pg.dump')], env(source, { DATABASE_URL: 'postgres://u@127.0.0.1:1/x' }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('pg_dump --format=custom');
    expect(res.stderr).toContain('pg_restore');
    expect(res.stderr).toContain('SECRET_KEY');
    expect(existsSync(path.join(root, 'pg.dump'))).toBe(false);
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

  // Last: it damages the source's blobs.
  it('refuses to back up when a blob a row names is missing or damaged on disk', async () => {
    const damagedFile = blobFile(source, keys[1]!);
    const kept = readFileSync(damagedFile);
    writeFileSync(damagedFile, Buffer.concat([kept, Buffer.from('x')]));
    unlinkSync(blobFile(source, keys[0]!));
    const file = path.join(root, 'refused.tgz');
    const refused = backupEmbedded({ dataDir: source, file });
    await expect(refused).rejects.toBeInstanceOf(BackupError);
    await expect(refused).rejects.toThrow(`1 are missing (${keys[0]})`);
    await expect(refused).rejects.toThrow(`1 do not match their SHA-256 (${keys[1]})`);
    await expect(refused).rejects.toThrow('nothing was written');
    expect(existsSync(file)).toBe(false);
  });
});
