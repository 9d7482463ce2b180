/**
 * `npm run bench:assets [-- --steps 12 --runs 40 --width 480 --height 400]`
 *
 * What each asset store (ASSET_STORE: database, filesystem, s3) costs the paths a picture takes, in one run
 * on the embedded database, as ratios to today's `database` path (issue 32 item 5): uploading a step picture,
 * the editor's GET of it, a viewer's GET of it through a share link, and the viewer payload built anew.
 * s3 is a real S3-compatible server on this machine (s3rver, as the tests use), so its figures carry a
 * loopback HTTP round trip but no network: a cloud bucket adds its own latency on a cache miss. Requests go
 * through app.inject (the server's work, no client socket). A last row runs s3 with ASSET_REDIRECT=presigned:
 * its viewer GET is the 302 to the bucket (the gates and a signature, no read of the store), and the bucket's
 * own answer to the presigned address is timed apart. Medians of `runs` after warm-ups. The table goes
 * to stdout and to bench/results/asset-stores-<time>.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BlobStore } from '../src/core/blob-store/blob-store';
import type { Config } from '../src/config';
import { createFilesystemStore } from '../src/core/blob-store/filesystem-store';
import { openDatabase } from '../src/db/client';
import { makeNoisePng } from '../test/helpers/images';
import { startS3Server } from '../test/helpers/s3-server';
import { median, medianMs, startInProcessApp } from './in-process';
import { caller } from './seed-demo';

const { values: args } = parseArgs({
  options: {
    steps: { type: 'string', default: '12' },
    runs: { type: 'string', default: '40' },
    width: { type: 'string', default: '480' },
    height: { type: 'string', default: '400' },
  },
});
const STEPS = Number(args.steps);
const RUNS = Number(args.runs);
const picture = (seed: number) => makeNoisePng(Number(args.width), Number(args.height), seed);

interface Row {
  store: string;
  uploadMs: number;
  editorGetMs: number;
  viewerGetMs: number;
  payloadMs: number;
}

/** The bucket's own GET of a presigned address (the redirect's target), over loopback. */
let presignedFetchMs: number | undefined;

async function measure(store: string, assetStore: BlobStore | null, config: Partial<Config> = {}): Promise<Row> {
  const database = await openDatabase({});
  const { app, close } = await startInProcessApp(database, { assetStore, config });
  try {
    const call = caller(app);
    const signup = await call('POST', '/v1/auth/signup', { email: `assets.${store.split(" ")[0]}.${Date.now()}@example.com`, password: 'correct horse battery staple' });
    const cookies = signup.cookies as Array<{ name: string; value: string }>;
    const session = { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), 'x-csrf-token': cookies.find((c) => c.name === 'ds_csrf')!.value };
    const key = (await call('POST', '/v1/api-keys', { name: 'bench', scopes: ['demos:read', 'demos:write', 'shares:write'] }, session)).json().data.key;
    const auth = { authorization: `Bearer ${key}` };
    const demo = (await call('POST', '/v1/demos', { title: 'Asset bench', source_url: 'https://example.com' }, auth)).json().data as { id: string };

    let seed = 1;
    const upload = () => call('POST', `/v1/demos/${demo.id}/steps`, picture(seed++), { ...auth, 'content-type': 'image/png' });
    for (let i = 0; i < STEPS; i++) await upload();
    // The upload's median over fresh pictures (each new bytes, so each a real write), then the steps go.
    const uploadMs = await medianMs(upload, Math.min(RUNS, 20));
    await call('POST', `/v1/demos/${demo.id}/publish`, undefined, auth);
    const detail = (await call('GET', `/v1/demos/${demo.id}`, undefined, auth)).json().data as { steps: { image_url: string }[] };
    const editorUrl = new URL(detail.steps[0]!.image_url, 'http://x').pathname;
    const editorGetMs = await medianMs(() => call('GET', editorUrl, undefined, auth), RUNS);

    const share = (await call('POST', `/v1/demos/${demo.id}/shares`, { name: 'bench' }, auth)).json().data as { url: string };
    const token = share.url.split('/s/')[1]!;
    const opened = await app.inject({ method: 'GET', url: `/v1/viewer/${token}` });
    const viewerCookie = (opened.cookies as Array<{ name: string; value: string }>).map((c) => `${c.name}=${c.value}`).join('; ');
    const viewer = { cookie: viewerCookie };
    const payload = (await call('GET', `/v1/viewer/${token}/demo`, undefined, viewer)).json().data as { steps: { image_url: string }[] };
    const viewerUrl = new URL(payload.steps[1]!.image_url, 'http://x').pathname;
    // Straight through inject: with ASSET_REDIRECT=presigned the answer is a 302, which `call` counts as a failure.
    const viewerGet = async () => {
      const res = await app.inject({ method: 'GET', url: viewerUrl, headers: viewer });
      if (res.statusCode !== 200 && res.statusCode !== 302) throw new Error(`viewer GET: ${res.statusCode} ${res.body}`);
      return res;
    };
    const viewerGetMs = await medianMs(viewerGet, RUNS);
    if (config.ASSET_REDIRECT === 'presigned') {
      // The viewer's GET above is then the 302; what the browser fetches next is the bucket's answer.
      const location = (await viewerGet()).headers.location as string;
      if (!location) throw new Error('no presigned redirect');
      presignedFetchMs = await medianMs(async () => void (await (await fetch(location)).arrayBuffer()), RUNS);
    }
    // A payload built anew each time: publishing a changed title drops the cached one; only the GET is timed.
    const payloadTimes: number[] = [];
    for (let n = 0; n < Math.min(RUNS, 20) + 3; n++) {
      await call('PATCH', `/v1/demos/${demo.id}`, { title: `Asset bench ${n}` }, auth);
      await call('POST', `/v1/demos/${demo.id}/publish`, undefined, auth);
      const t0 = performance.now();
      await call('GET', `/v1/viewer/${token}/demo`, undefined, viewer);
      if (n >= 3) payloadTimes.push(performance.now() - t0);
    }
    const payloadMs = median(payloadTimes);
    return { store, uploadMs, editorGetMs, viewerGetMs, payloadMs };
  } finally {
    await close();
    await database.close();
  }
}

const started = new Date();
const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-asset-bench-'));
const s3 = await startS3Server('demoshare-bench');
const rows: Row[] = [];
try {
  rows.push(await measure('database', null));
  rows.push(await measure('filesystem', createFilesystemStore(path.join(dataDir, 'blobs'))));
  const bucket = s3.store('bench/');
  rows.push(await measure('s3 (s3rver, loopback)', bucket));
  // The same store with public links' pictures redirected to presigned addresses: the viewer GET is the 302.
  const s3Config = { ASSET_STORE: 's3', S3_BUCKET: 'demoshare-bench', S3_PREFIX: 'bench/', ASSET_REDIRECT: 'presigned' } as const;
  rows.push(await measure('s3 + ASSET_REDIRECT=presigned (viewer GET: the 302)', bucket, s3Config));
  await bucket.close();
} finally {
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const base = rows[0]!;
const cell = (ms: number, baseMs: number) => `${ms.toFixed(1)} ms (${(baseMs / ms).toFixed(2)}×)`;
const size = picture(1).length;
const lines = [
  `# Asset stores, ${started.toISOString()}`,
  '',
  `PGlite, in-process requests, ${STEPS} steps of a ${(size / 1024).toFixed(0)} KB PNG, medians of ${RUNS} runs (uploads and payloads: ${Math.min(RUNS, 20)}). ` +
    `Load average at the end: ${loadavg()[0]!.toFixed(1)}. In brackets: the speed against \`database\` (above 1 is faster).`,
  '',
  '| store | upload a step picture | editor GET of a picture | viewer GET of a picture | viewer payload built anew |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.store} | ${cell(r.uploadMs, base.uploadMs)} | ${cell(r.editorGetMs, base.editorGetMs)} | ${cell(r.viewerGetMs, base.viewerGetMs)} | ${cell(r.payloadMs, base.payloadMs)} |`),
  '',
  `The bucket's own GET of the presigned address (the redirect's target, a real HTTP request over loopback to s3rver): ${presignedFetchMs?.toFixed(1)} ms.`,
];
console.log(lines.join('\n'));
const dir = path.join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, `asset-stores-${started.toISOString().replace(/[:.]/g, '-')}.md`), `${lines.join('\n')}\n`);
