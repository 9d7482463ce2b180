/**
 * The offline file of a typical demo (docs/offline.md): the 20-step demo the recording upload just made (a
 * ≈300 KB 1280×800 PNG screenshot per step), published, then exported once cold (built in a document
 * worker) and asked for again with HEAD (the kept file). Its size raw and gzipped (as a static host that
 * compresses HTML would send it). Called by bench/run.ts after the recording upload; alone:
 *
 *   node bin/run-ts.js bench/offline-bundle.ts <base-url> <api-key> <demo-id>
 *
 * Bounded: one export and one HEAD; the demo is left published.
 */
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';

export interface OfflineBundleFigures {
  steps: number;
  bytes: number;
  gzipped: number;
  coldMs: number;
  headMs: number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** Publishes `demoId` (waiting for its steps, at most 30 s) and measures its offline file. */
export async function benchOfflineBundle(baseUrl: string, apiKey: string, demoId: string): Promise<OfflineBundleFigures> {
  const base = `${baseUrl.replace(/\/+$/, '')}/v1/demos/${demoId}`;
  const headers = { authorization: `Bearer ${apiKey}` };
  const until = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(base, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'published' }) });
    if (res.ok) break;
    if (Date.now() > until) throw new Error(`publish: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const steps = ((await (await fetch(base, { headers })).json()) as { data: { step_count: number } }).data.step_count;
  const started = performance.now();
  const res = await fetch(`${base}/export/offline`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const coldMs = performance.now() - started;
  if (!res.ok) throw new Error(`export: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
  const again = performance.now();
  const head = await fetch(`${base}/export/offline`, { method: 'HEAD', headers });
  const headMs = performance.now() - again;
  if (Number(head.headers.get('x-bundle-size')) !== body.length) throw new Error('HEAD and GET disagree on the size');
  return { steps, bytes: body.length, gzipped: gzipSync(body).length, coldMs, headMs };
}

/** The bench's line. */
export const offlineBundleLine = (engine: string, f: OfflineBundleFigures) =>
  `${engine} offline bundle of that ${f.steps}-step demo: ${mb(f.bytes)} (${mb(f.gzipped)} gzipped, ${(f.bytes / f.steps / 1024).toFixed(0)} KB a step), ` +
  `built in ${f.coldMs.toFixed(0)} ms cold, HEAD after it ${f.headMs.toFixed(0)} ms`;

// Run directly (bin/run-ts.js makes this file argv[1]), not when bench/run.ts imports it.
if (process.argv[1]?.endsWith('offline-bundle.ts')) {
  const [baseUrl, apiKey, demoId] = process.argv.slice(2);
  if (!baseUrl || !apiKey || !demoId) {
    console.error('usage: node bin/run-ts.js bench/offline-bundle.ts <base-url> <api-key> <demo-id>');
    process.exit(2);
  }
  console.log(offlineBundleLine('', await benchOfflineBundle(baseUrl, apiKey, demoId)));
}
