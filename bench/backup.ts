/**
 * `npm run bench:backup [-- --blob-mb 4 --sizes 0,200,800 --rounds 1]`: the peak memory, time, CPU time and
 * bytes read and written of `demoshare backup` and `demoshare restore` on an embedded instance whose assets'
 * blobs (DATA_DIR/blobs, the embedded default) add up to each size in MB. The commands run as an operator runs
 * them (child processes of the real CLI); /proc is read every 20 ms, and the peak resident memory of the
 * samples is reported with each command's time, its CPU seconds and what it read and wrote by the last
 * sample (within 20 ms of its exit), and the archive's size. With --rounds N each size is backed up and
 * restored N times and the median of each figure is reported: CPU seconds and bytes move little on a busy
 * machine, wall time a lot. A streamed archive keeps the peak flat as the blobs grow; one held in memory grows
 * with them (docs/operations.md, "Backups and restore").
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
import { processCost, rssMb } from './process-memory';
import { seedDemo } from './seed-demo';

const { values: args } = parseArgs({
  options: {
    'blob-mb': { type: 'string', default: '4' },
    sizes: { type: 'string', default: '0,200,800' },
    rounds: { type: 'string', default: '1' },
  },
});
const rounds = Number(args.rounds);
const blobMb = Number(args['blob-mb']);
const sizes = args.sizes!.split(',').map(Number);
const CLI = join(import.meta.dirname, '..', 'bin', 'demoshare.js');

interface Measured {
  peakMb: number;
  seconds: number;
  cpuSeconds: number;
  readMb: number;
  writtenMb: number;
}

/** Runs the CLI with `args` on `dataDir`, sampling its resident memory and cost; fails when the command does. */
function measured(cliArgs: string[], dataDir: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...cliArgs], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let peakMb = 0;
    let cost = { cpuSeconds: 0, readMb: 0, writtenMb: 0 };
    const sampler = setInterval(() => {
      const mb = rssMb(child.pid!);
      if (mb !== undefined && mb > peakMb) peakMb = mb;
      cost = processCost(child.pid!) ?? cost;
    }, 20);
    child.on('exit', () => clearInterval(sampler));
    child.on('close', (code) => {
      clearInterval(sampler);
      if (code !== 0) reject(new Error(`demoshare ${cliArgs.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ peakMb, seconds: (performance.now() - started) / 1000, ...cost });
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

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** Each figure's median over the rounds. */
const medians = (runs: Measured[]): Measured => ({
  peakMb: median(runs.map((r) => r.peakMb)),
  seconds: median(runs.map((r) => r.seconds)),
  cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
  readMb: median(runs.map((r) => r.readMb)),
  writtenMb: median(runs.map((r) => r.writtenMb)),
});
const columns = (m: Measured) =>
  [m.seconds.toFixed(1).padStart(6), m.cpuSeconds.toFixed(1).padStart(6), m.readMb.toFixed(0).padStart(8), m.writtenMb.toFixed(0).padStart(8), m.peakMb.toFixed(0).padStart(7)].join('  ');

console.log(
  `demoshare backup / restore, blobs of ${blobMb} MB, ${rounds === 1 ? 'one round' : `median of ${rounds} rounds`}; ` +
    '/proc sampled every 20 ms: peak resident memory, CPU seconds, MB read and written through system calls\n',
);
console.log(`${''.padStart(20)}${'backup'.padEnd(44)}restore`);
const head = '     s  cpu s   read MB  wrote MB  peak MB';
console.log(`blobs MB  archive MB  ${head}  ${head}`);
for (const totalMb of sizes) {
  const root = await mkdtemp(join(tmpdir(), 'demoshare-bench-backup-'));
  try {
    const source = join(root, 'source');
    await seedInstanceWithBlobs(source, totalMb);
    const backups: Measured[] = [];
    const restores: Measured[] = [];
    let archiveMb = 0;
    for (let round = 0; round < rounds; round++) {
      const archive = join(root, `backup-${round}.tgz`);
      const restored = join(root, `restored-${round}`);
      backups.push(await measured(['backup', '--to', archive], source));
      archiveMb = (await stat(archive)).size / 1024 / 1024;
      restores.push(await measured(['restore', '--from', archive], restored));
      await rm(archive, { force: true });
      await rm(restored, { recursive: true, force: true });
    }
    console.log([String(totalMb).padStart(8), archiveMb.toFixed(1).padStart(10), columns(medians(backups)), columns(medians(restores))].join('  '));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
