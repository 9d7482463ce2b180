/**
 * `npm run bench:assets-move [-- --assets 100 --width 480 --height 400]`
 *
 * How fast `demoshare assets move` moves existing assets (issue 32 item 1), on the embedded database: `assets`
 * step pictures uploaded with ASSET_STORE=database, then moved into the filesystem store, back into the
 * database, into S3 (s3rver on this machine, as the tests use: a loopback HTTP round trip per blob, no
 * network) and back, each direction timed as one moveAssets call (what the command runs, with its checks and
 * counts). The table (assets a second, MB a second) goes to stdout and to bench/results/assets-move-<time>.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createFilesystemStore } from '../src/core/blob-store/filesystem-store';
import { openDatabase } from '../src/db/client';
import { type MoveAssetsOptions, moveAssets } from '../src/demos/move-assets';
import { makeNoisePng } from '../test/helpers/images';
import { startS3Server } from '../test/helpers/s3-server';
import { startInProcessApp } from './in-process';
import { caller } from './seed-demo';

const { values: args } = parseArgs({
  options: {
    assets: { type: 'string', default: '100' },
    width: { type: 'string', default: '480' },
    height: { type: 'string', default: '400' },
  },
});
const ASSETS = Number(args.assets);

const started = new Date();
const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-move-bench-'));
const s3 = await startS3Server('demoshare-move-bench');
const database = await openDatabase({});
const rows: Array<{ direction: string; ms: number; moved: number; bytes: number }> = [];
let pictureBytes = 0;
try {
  const { app, close } = await startInProcessApp(database, { assetStore: null });
  try {
    const call = caller(app);
    const signup = await call('POST', '/v1/auth/signup', { email: `move.${Date.now()}@example.com`, password: 'correct horse battery staple' });
    const cookies = signup.cookies as Array<{ name: string; value: string }>;
    const session = { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), 'x-csrf-token': cookies.find((c) => c.name === 'ds_csrf')!.value };
    const key = (await call('POST', '/v1/api-keys', { name: 'bench', scopes: ['demos:read', 'demos:write'] }, session)).json().data.key;
    const auth = { authorization: `Bearer ${key}` };
    const demo = (await call('POST', '/v1/demos', { title: 'Move bench', source_url: 'https://example.com' }, auth)).json().data as { id: string };
    for (let i = 0; i < ASSETS; i++) {
      const png = makeNoisePng(Number(args.width), Number(args.height), i + 1);
      pictureBytes = png.length;
      const res = await call('POST', `/v1/demos/${demo.id}/steps`, png, { ...auth, 'content-type': 'image/png' });
      if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
    }
  } finally {
    await close();
  }
  const disk = createFilesystemStore(path.join(dataDir, 'blobs'));
  const bucket = s3.store('bench/');
  const steps: Array<[string, Pick<MoveAssetsOptions, 'to' | 'from'>]> = [
    ['database → filesystem', { to: disk }],
    ['filesystem → database', { to: 'database', from: disk }],
    ['database → s3 (s3rver)', { to: bucket }],
    ['s3 (s3rver) → database', { to: 'database', from: bucket }],
  ];
  for (const [direction, where] of steps) {
    const t0 = performance.now();
    const report = await moveAssets({ db: database.db, batchSize: 100, ...where });
    const ms = performance.now() - t0;
    if (!report.ok || report.moved.assets !== ASSETS) throw new Error(`${direction}: moved ${report.moved.assets} of ${ASSETS}, ok ${report.ok}`);
    rows.push({ direction, ms, moved: report.moved.assets, bytes: report.moved.bytes });
  }
  await bucket.close();
} finally {
  await database.close();
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const lines = [
  `# assets move, ${started.toISOString()}`,
  '',
  `PGlite in memory, ${ASSETS} step pictures of ${(pictureBytes / 1024).toFixed(0)} KB (PNG noise), moveAssets with batches of 100, ` +
    `four rows at a time. Load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')}.`,
  '',
  '| direction | time | assets/s | MB/s |',
  '|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.direction} | ${(r.ms / 1000).toFixed(2)} s | ${(r.moved / (r.ms / 1000)).toFixed(0)} | ${(r.bytes / 1024 / 1024 / (r.ms / 1000)).toFixed(1)} |`,
  ),
];
console.log(lines.join('\n'));
const dir = path.join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, `assets-move-${started.toISOString().replace(/[:.]/g, '-')}.md`), `${lines.join('\n')}\n`);
