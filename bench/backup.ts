/**
 * `npm run bench:backup [-- --blob-mb 4 --sizes 0,200,800]`: the peak memory of `demoshare backup` and
 * `demoshare restore` on an embedded instance whose assets' blobs (DATA_DIR/blobs, the embedded default) add
 * up to each size in MB. The commands run as an operator runs them (child processes of the real CLI); their
 * resident memory is read from /proc every 20 ms, and the peak of the samples is reported with each
 * command's time and the archive's size. A streamed archive keeps the peak flat as the blobs grow; one held
 * in memory grows with them (docs/operations.md, "Backups and restore").
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { blobKeyOfDigest } from '../src/core/blob-store/blob-store';
import { createFilesystemStore } from '../src/core/blob-store/filesystem-store';
import { sha256Hex } from '../src/core/crypto';
import { openDatabase } from '../src/db/client';
import { startInProcessApp } from './in-process';
import { rssMb } from './process-memory';
import { seedDemo } from './seed-demo';

const { values: args } = parseArgs({
  options: {
    'blob-mb': { type: 'string', default: '4' },
    sizes: { type: 'string', default: '0,200,800' },
  },
});
const blobMb = Number(args['blob-mb']);
const sizes = args.sizes!.split(',').map(Number);
const CLI = join(import.meta.dirname, '..', 'bin', 'demoshare.js');

/** Runs the CLI with `args` on `dataDir`, sampling its resident memory; fails when the command does. */
function measured(cliArgs: string[], dataDir: string): Promise<{ peakMb: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...cliArgs], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let peakMb = 0;
    const sampler = setInterval(() => {
      const mb = rssMb(child.pid!);
      if (mb !== undefined && mb > peakMb) peakMb = mb;
    }, 20);
    child.on('close', (code) => {
      clearInterval(sampler);
      if (code !== 0) reject(new Error(`demoshare ${cliArgs.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ peakMb, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/**
 * An embedded DATA_DIR as `demoshare start` leaves it (a demo of small step images, through the app), plus
 * `totalMb` of incompressible blobs in DATA_DIR/blobs, each named by an asset row of that demo.
 */
async function seedInstanceWithBlobs(dataDir: string, totalMb: number) {
  const database = await openDatabase({ dataDir });
  const store = createFilesystemStore(join(dataDir, 'blobs'));
  const { app, close } = await startInProcessApp(database, { assetStore: store, config: { ASSET_STORE: 'filesystem', DATA_DIR: dataDir } });
  try {
    const { demo } = await seedDemo(app, ['demos:read', 'demos:write'], 3);
    const demoId = demo.id;
    const { rows } = await database.executeSql('select workspace_id from demos where id = $1', [demoId]);
    const workspaceId = String(rows[0]!.workspace_id);
    const count = Math.round(totalMb / blobMb);
    for (let i = 0; i < count; i++) {
      const bytes = randomBytes(blobMb * 1024 * 1024);
      const digest = sha256Hex(bytes);
      const key = blobKeyOfDigest(digest);
      await store.put(key, bytes, 'application/octet-stream');
      await database.executeSql(
        `insert into assets (id, workspace_id, demo_id, content_type, size, sha256, blob_key)
         values ($1, $2, $3, 'image/png', $4, $5, $6)`,
        [`asset_bench${i}`, workspaceId, demoId, bytes.length, digest, key],
      );
    }
  } finally {
    await close();
    await database.close();
  }
  await writeFile(join(dataDir, 'secret.key'), 'bench-secret-key-that-is-long-enough-0123456789\n', { mode: 0o600 });
}

console.log(`demoshare backup / restore, blobs of ${blobMb} MB, peak resident memory of each command (sampled every 20 ms)\n`);
console.log('blobs MB  archive MB  backup s  backup peak MB  restore s  restore peak MB');
for (const totalMb of sizes) {
  const root = await mkdtemp(join(tmpdir(), 'demoshare-bench-backup-'));
  try {
    const source = join(root, 'source');
    const archive = join(root, 'backup.tgz');
    await seedInstanceWithBlobs(source, totalMb);
    const backup = await measured(['backup', '--to', archive], source);
    const archiveMb = (await stat(archive)).size / 1024 / 1024;
    const restore = await measured(['restore', '--from', archive], join(root, 'restored'));
    console.log(
      [
        String(totalMb).padStart(8),
        archiveMb.toFixed(1).padStart(10),
        backup.seconds.toFixed(1).padStart(8),
        backup.peakMb.toFixed(0).padStart(14),
        restore.seconds.toFixed(1).padStart(9),
        restore.peakMb.toFixed(0).padStart(15),
      ].join('  '),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
