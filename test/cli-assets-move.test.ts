// `demoshare assets move`: existing assets' bytes from their rows into a blob store (filesystem, S3) and back, on the
// engine the suite runs on (a PGlite DATA_DIR, or a PostgreSQL database through DATABASE_URL). The command runs
// once as a child process (the binary's wiring) and otherwise through the CLI's own entry in this process:
// each spawn costs a tsx start-up.
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main';
import { blobKeyOfDigest, type BlobStore } from '../src/core/blob-store/blob-store';
import { createFilesystemStore } from '../src/core/blob-store/filesystem-store';
import { sha256Hex } from '../src/core/crypto';
import { openDatabase } from '../src/db/client';
import { moveAssets } from '../src/demos/move-assets';
import { JobQueue } from '../src/jobs/queue';
import { cleanEnv, runCli } from './helpers/cli';
import { createTestDatabase, engine, type TestDatabase } from './helpers/database';
import { makePng } from './helpers/images';
import { startS3Server, type TestS3Server } from './helpers/s3-server';
import { demoWithSteps } from './helpers/shares';
import { bearer, createTestApp } from './helpers/test-app';

const SLOW = { timeout: 600_000 };

type Row = { id: string; sha256: string; size: number; blob_key: string | null; in_row: boolean };

describe(`demoshare assets move (${engine})`, SLOW, () => {
  let root: string;
  let dataDir: string;
  let pgDatabase: TestDatabase | undefined;
  let s3: TestS3Server;
  let key: string;
  /** Every asset URL of the seeded demos, with the bytes the API served before anything moved. */
  const served = new Map<string, Buffer>();
  let rowCount = 0;

  /** The instance's database, opened in this process (the embedded one holds DATA_DIR's lock until closed). */
  const open = async (): Promise<TestDatabase> => {
    if (pgDatabase) {
      const database = await openDatabase({ url: pgDatabase.url!, poolSize: 2 });
      return { database, drop: () => database.close() };
    }
    const database = await openDatabase({ dataDir });
    return { database, drop: () => database.close() };
  };
  const rows = async (): Promise<Row[]> => {
    const db = await open();
    try {
      return (
        await db.database.executeSql('select id, sha256, size, blob_key, bytes is not null as in_row from assets order by id')
      ).rows as Row[];
    } finally {
      await db.drop();
    }
  };
  /** The command's environment; a setting given as '' is left out. */
  const env = (extra: Record<string, string> = {}) => {
    const out = cleanEnv({
      DATA_DIR: dataDir,
      DATABASE_URL: pgDatabase?.url,
      LOG_LEVEL: 'silent',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'move/',
      ...extra,
    });
    for (const [name, value] of Object.entries(out)) if (value === '') delete out[name];
    return out;
  };
  /** `demoshare assets move ...` through the CLI's entry, in this process. */
  const move = async (args: string[], extra: Record<string, string> = {}) => {
    let stdout = '';
    let stderr = '';
    const code = await main(['assets', 'move', ...args], env(extra), {
      stdout: (s) => (stdout += `${s}\n`),
      stderr: (s) => (stderr += `${s}\n`),
    });
    return { code, stdout, stderr };
  };
  /** Serves every seeded asset URL through the API with `store` as the server's store: byte for byte what it served at first. */
  const expectServedAsBefore = async (store: BlobStore | null) => {
    const db = await open();
    const t = await createTestApp({ database: db, assetStore: store });
    try {
      for (const [url, bytes] of served) {
        const res = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        expect(res.rawPayload.equals(bytes), url).toBe(true);
        expect(res.headers.etag).toBe(`"${sha256Hex(bytes)}"`);
      }
    } finally {
      await t.close();
      await db.drop();
    }
  };
  const blobFiles = () =>
    readdirSync(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /^[0-9a-f]{64}$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name));
  const fsStore = () => createFilesystemStore(path.join(dataDir, 'blobs'));

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'demoshare-assets-move-'));
    dataDir = path.join(root, 'data');
    s3 = await startS3Server();
    let db: TestDatabase;
    if (engine === 'postgres') {
      pgDatabase = await createTestDatabase();
      db = await open();
    } else {
      const database = await openDatabase({ dataDir });
      await database.migrate();
      const queue = new JobQueue(database, { work: false });
      await queue.start(() => {});
      await queue.stop(1_000);
      db = { database, drop: () => database.close() };
    }
    // ASSET_STORE=database: every asset's bytes in its row, as every instance before blob stores.
    const t = await createTestApp({ database: db, assetStore: null });
    try {
      key = await t.apiKey('all');
      for (const steps of [3, 2]) {
        const demoId = await demoWithSteps(t, key, steps);
        const demo = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) })).json().data;
        for (const step of demo.steps) {
          const res = await t.app.inject({ method: 'GET', url: step.image_url, headers: bearer(key) });
          expect(res.statusCode).toBe(200);
          served.set(step.image_url, res.rawPayload);
        }
      }
    } finally {
      await t.close();
      await db.drop();
    }
    const seeded = await rows();
    rowCount = seeded.length;
    expect(rowCount).toBeGreaterThanOrEqual(5);
    expect(seeded.every((r) => r.in_row && r.blob_key === null)).toBe(true);
  }, 600_000);
  afterAll(async () => {
    await pgDatabase?.drop();
    await s3?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('moves part of the assets into the filesystem store when stopped by --limit, then the rest, and a third run moves nothing', async () => {
    // The binary itself, once: two assets, one row per batch.
    const first = await runCli(['assets', 'move', '--to', 'filesystem', '--limit', '2', '--batch-size', '1'], env({ ASSET_STORE: 'filesystem' }));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Moved 2 assets');
    expect(first.stderr).toContain(`Stopped by --limit with ${rowCount - 2} assets still in the database`);
    expect(first.stdout).not.toContain('MISMATCH');
    let now = await rows();
    expect(now.filter((r) => !r.in_row).length).toBe(2);
    for (const r of now.filter((x) => !x.in_row)) {
      expect(r.blob_key).toBe(blobKeyOfDigest(r.sha256));
      expect(sha256Hex((await fsStore().get(r.blob_key!))!)).toBe(r.sha256);
    }

    const dry = await move(['--to', 'filesystem', '--dry-run'], { ASSET_STORE: 'filesystem' });
    expect(dry.code, dry.stderr).toBe(0);
    const bytesIn = (list: Row[]) => list.reduce((sum, r) => sum + r.size, 0);
    expect(dry.stdout).toMatch(new RegExp(`database\\s+${rowCount - 2}\\s+${bytesIn(now.filter((r) => r.in_row))}\\n`));
    expect(dry.stdout).toMatch(new RegExp(`filesystem store\\s+2\\s+${bytesIn(now.filter((r) => !r.in_row))}\\n`));
    expect(dry.stderr).toContain(`Would move ${rowCount - 2} assets`);
    expect(await rows()).toEqual(now);

    const rest = await move(['--to', 'filesystem'], { ASSET_STORE: 'filesystem' });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toContain(`Moved ${rowCount - 2} assets`);
    const total = bytesIn(now);
    expect(rest.stdout).toMatch(new RegExp(`database\\s+${rowCount - 2}\\s+\\d+\\s+0\\s+0\\s+0\\s+0\\n`));
    expect(rest.stdout).toMatch(new RegExp(`filesystem store\\s+2\\s+\\d+\\s+${rowCount}\\s+${total}\\s+${rowCount}\\s+${total}\\n`));
    expect(rest.stdout).not.toContain('MISMATCH');
    now = await rows();
    expect(now.every((r) => !r.in_row && r.blob_key === blobKeyOfDigest(r.sha256))).toBe(true);

    const again = await move(['--to', 'filesystem'], { ASSET_STORE: 'filesystem' });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('Moved 0 assets');
    expect(await rows()).toEqual(now);
    await expectServedAsBefore(fsStore());
  });

  it('refuses to move into S3 while rows name blobs of the filesystem store', async () => {
    const res = await move(['--to', 's3'], { ASSET_STORE: 'filesystem' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${rowCount} assets are in the filesystem store`);
    expect(res.stderr).toContain('--to database --from filesystem');
    expect((await rows()).every((r) => !r.in_row)).toBe(true);
  });

  it('moves them back into the database, byte for byte, and --delete-source removes the old blobs past ASSET_GC_GRACE', async () => {
    // Written two hours ago, as far as the collector's grace period can tell.
    const past = new Date(Date.now() - 2 * 3_600_000);
    for (const file of blobFiles()) utimesSync(file, past, past);
    const res = await move(['--to', 'database', '--delete-source'], { ASSET_STORE: 'filesystem', ASSET_GC_GRACE: '1h' });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`Moved ${rowCount} assets`);
    expect(res.stdout).not.toContain('MISMATCH');
    expect(res.stderr).toMatch(/Deleted \d+ blobs of the filesystem store that no row names/);
    expect(res.stderr).toContain('Start every process of this instance with ASSET_STORE=database');
    expect((await rows()).every((r) => r.in_row && r.blob_key === null)).toBe(true);
    expect(blobFiles()).toEqual([]);
    await expectServedAsBefore(null);
  });

  it('moves into S3, and a missing or damaged blob is left in place and fails the count until it is put back', async () => {
    const there = await move(['--to', 's3']);
    expect(there.code, there.stderr).toBe(0);
    expect(there.stderr).toContain(`Moved ${rowCount} assets`);
    expect(there.stderr).toContain('Start every process of this instance with ASSET_STORE=s3');
    const now = await rows();
    expect(now.every((r) => !r.in_row)).toBe(true);
    const store = s3.store('move/');
    try {
      for (const r of now) expect(sha256Hex((await store.get(r.blob_key!))!)).toBe(r.sha256);
      await expectServedAsBefore(store);

      // One blob lost, another overwritten with other bytes under its key.
      const keys = [...new Set(now.map((r) => r.blob_key!))];
      const [lost, damaged] = keys as [string, string];
      const originals = new Map(await Promise.all(keys.slice(0, 2).map(async (k) => [k, (await store.get(k))!] as const)));
      await store.delete(lost);
      await store.put(damaged, Buffer.from('not the picture'), 'image/png');
      const affected = now.filter((r) => r.blob_key === lost || r.blob_key === damaged);

      const back = await move(['--to', 'database'], { ASSET_STORE: 's3' });
      expect(back.code, back.stderr).toBe(1);
      expect(back.stdout).toContain('MISMATCH');
      expect(back.stderr).toContain(`blob ${lost} is missing from the s3 store`);
      expect(back.stderr).toContain(`blob ${damaged} does not match the SHA-256 its row records`);
      expect(back.stderr).toContain(`${affected.length} assets could not be moved`);
      const after = await rows();
      expect(after.filter((r) => !r.in_row).map((r) => r.id)).toEqual(affected.map((r) => r.id));

      // Put back: the next run moves just those, and the counts agree.
      for (const [k, bytes] of originals) await store.put(k, bytes, 'image/png');
      const resumed = await move(['--to', 'database'], { ASSET_STORE: 's3' });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`Moved ${affected.length} assets`);
      expect(resumed.stdout).not.toContain('MISMATCH');
      expect((await rows()).every((r) => r.in_row)).toBe(true);
      await expectServedAsBefore(null);
    } finally {
      await store.close();
    }
  });

  it('refuses bad options with the usage, and reads nothing', async () => {
    const res = await move(['--to', 'disk']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--to must be database, filesystem or s3');
    expect(res.stderr).toContain('Usage: demoshare assets move');
    // With ASSET_STORE=database there is no store to read from unless --from names one (on the embedded
    // database an unset ASSET_STORE means the files, which --to database then reads).
    const from = await move(['--to', 'database'], { ASSET_STORE: 'database' });
    expect(from.code).toBe(2);
    expect(from.stderr).toContain('--from filesystem|s3');
    const noBucket = await move(['--to', 's3'], { S3_BUCKET: '' });
    expect(noBucket.code).toBe(2);
    expect(noBucket.stderr).toContain('The s3 store needs S3_BUCKET');
  });
});

describe('moving assets while the server works', () => {
  it('leaves a row deleted meanwhile alone, does not count one written meanwhile, and the counts still agree', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-move-live-'));
    const t = await createTestApp({ assetStore: null });
    try {
      const key = await t.apiKey('all');
      const kept = await demoWithSteps(t, key, 2);
      const deleted = await demoWithSteps(t, key, 2);
      const disk = createFilesystemStore(dir);
      let first = true;
      // The server's work lands between the move listing the rows and switching them: at the first put.
      const store: BlobStore = {
        ...disk,
        async put(k, bytes, type) {
          if (first) {
            first = false;
            expect((await t.app.inject({ method: 'DELETE', url: `/v1/demos/${deleted}`, headers: bearer(key) })).statusCode).toBe(204);
            const upload = await t.app.inject({
              method: 'POST',
              url: `/v1/demos/${kept}/steps`,
              headers: { ...bearer(key), 'content-type': 'image/png' },
              payload: makePng(8, 4, [99, 98, 97]),
            });
            expect(upload.statusCode).toBe(201);
          }
          return disk.put(k, bytes, type);
        },
      };
      const before = (await t.ctx.database.executeSql('select demo_id from assets')).rows as { demo_id: string }[];
      // One row at a time: the server's work lands before any row is switched.
      const report = await moveAssets({ db: t.ctx.database.db, to: store, batchSize: 100, concurrency: 1 });
      expect(report.ok).toBe(true);
      expect(report.failures).toEqual([]);
      expect(report.vanished.assets).toBeGreaterThanOrEqual(1);
      expect(report.moved.assets + report.vanished.assets).toBe(before.length);
      expect(report.newer.assets).toBe(1);
      expect(report.after.database.assets).toBe(0);
      const left = (await t.ctx.database.executeSql('select demo_id, bytes is not null as in_row from assets')).rows as { demo_id: string; in_row: boolean }[];
      expect(left.every((r) => r.demo_id === kept)).toBe(true);
      expect(left.filter((r) => r.in_row)).toHaveLength(1);
      // The next run takes the one written meanwhile.
      const next = await moveAssets({ db: t.ctx.database.db, to: disk, batchSize: 100 });
      expect(next.ok).toBe(true);
      expect(next.moved.assets).toBe(1);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
