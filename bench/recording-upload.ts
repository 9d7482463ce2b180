/**
 * A recording uploaded over HTTP as the browser recorder does it: create, each step in turn (a ≈300 KB
 * PNG screenshot and a ≈200 KB HTML snapshot, with its Content-Digest), complete. The steps are made
 * deterministically (seeded), so runs compare. Called by bench/run.ts against its server; alone:
 *
 *   node bin/run-ts.js bench/recording-upload.ts <base-url> <api-key> [steps=20]
 *
 * Bounded: one recording of `steps` steps; the demo it makes stays in the server's database.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';

export interface RecordingUploadTimings {
  steps: number;
  /** Size of one step's request body, on average. */
  bytesPerStep: number;
  createMs: number;
  stepP50Ms: number;
  stepP95Ms: number;
  completeMs: number;
  totalMs: number;
  demoId: string;
}

const WIDTH = 1280;
const HEIGHT = 800;
/** The noisy "photo" block that makes the PNG about 300 KB: noise does not compress. */
const PHOTO = { x: 760, y: 200, width: 304, height: 304 };

/** xorshift32: the same bytes for the same seed on every machine. */
function random(seed: number) {
  let state = seed || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** A 1280×800 screenshot of an app page (bars, cards, a table) with a photo: about 300 KB as PNG. */
export async function benchScreenshot(step: number): Promise<Buffer> {
  const next = random(0x9e3779b9 ^ step);
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  const accent = [40 + ((step * 37) % 160), 90, 200];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      let pixel: number[];
      if (x >= PHOTO.x && x < PHOTO.x + PHOTO.width && y >= PHOTO.y && y < PHOTO.y + PHOTO.height) {
        pixel = [next() * 256, next() * 256, next() * 256];
      } else if (y < 64) pixel = x > 1040 && x < 1170 && y > 16 && y < 48 ? accent : [255, 255, 255];
      else if (x < 220) pixel = y % 44 < 26 && x > 16 && x < 200 ? [228, 231, 236] : [247, 248, 250];
      else if (y > 560 && y < 780 && x > 240 && x < 1260) pixel = y % 36 < 2 ? [228, 231, 236] : [255, 255, 255];
      else pixel = [242, 244, 247];
      raw[i] = pixel[0]!;
      raw[i + 1] = pixel[1]!;
      raw[i + 2] = pixel[2]!;
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png({ compressionLevel: 6 }).toBuffer();
}

/** A page of an app as the recorder inlines it, about 200 KB: styles, navigation, a long table, a form. */
export function benchSnapshot(step: number): string {
  const next = random(0x85ebca6b ^ step);
  const styles = Array.from({ length: 300 }, (_, i) => `.c${i}{margin:${i % 7}px;padding:${i % 5}px;color:#${(i * 2654435761).toString(16).slice(-6).padStart(6, '0')}}`).join('\n');
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < 180_000; i++) {
    const amount = (next() * 10_000).toFixed(2);
    const row = `<tr class="c${i % 300}" data-id="${i}"><td><a href="/invoices/${step}-${i}">INV-${step}-${i}</a></td><td>Customer ${Math.floor(next() * 1e6)}</td><td>${amount} €</td><td><button type="button" class="btn" onclick="open(${i})">Open</button></td></tr>`;
    rows.push(row);
    size += row.length;
  }
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Invoices · step ${step}</title><style>${styles}</style>` +
    '<script>window.analytics = {};</script></head><body><nav><a href="/">Home</a><a href="/invoices">Invoices</a></nav>' +
    `<main><h1>Invoices</h1><button id="create-${step}">Create invoice</button><form><input name="q" value="search ${step}">` +
    '<input type="password" name="pw" value="not-for-storage"></form>' +
    `<table>${rows.join('')}</table></main></body></html>`
  );
}

function recordedStep(step: number, screenshot: Buffer) {
  return {
    action: 'click',
    title: `Click “Create invoice” (${step})`,
    description: `Step ${step}: start a new invoice from the list.`,
    page_url: `https://app.example.com/invoices?page=${step}`,
    viewport: { width: WIDTH, height: HEIGHT },
    target: { x: 1040, y: 16, width: 130, height: 32, selector: `#create-${step}`, label: 'Create invoice' },
    screenshot: `data:image/png;base64,${screenshot.toString('base64')}`,
    snapshot: benchSnapshot(step),
  };
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

/**
 * Uploads one recording of `steps` steps to the server at `baseUrl` with `apiKey` (scope demos:write) and
 * completes it, one request at a time as the recorder sends them. The step bodies are built before the
 * clock starts; each step's time is its request's round trip.
 */
export async function benchRecordingUpload(baseUrl: string, apiKey: string, steps = 20): Promise<RecordingUploadTimings> {
  const base = baseUrl.replace(/\/+$/, '');
  const bodies: string[] = [];
  for (let n = 1; n <= steps; n++) bodies.push(JSON.stringify(recordedStep(n, await benchScreenshot(n))));

  async function call(method: string, path: string, body?: string) {
    const started = performance.now();
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-digest'] = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
    }
    const res = await fetch(`${base}/v1${path}`, { method, headers, body });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - started, data: JSON.parse(text).data as { id: string; demo_id: string | null } };
  }

  const total = performance.now();
  const created = await call('POST', '/recordings', JSON.stringify({ step_count: steps, title: 'Bench recording' }));
  const stepTimes: number[] = [];
  for (const [i, body] of bodies.entries()) stepTimes.push((await call('PUT', `/recordings/${created.data.id}/steps/${i + 1}`, body)).ms);
  const completed = await call('POST', `/recordings/${created.data.id}/complete`);
  const totalMs = performance.now() - total;

  const sorted = [...stepTimes].sort((a, b) => a - b);
  return {
    steps,
    bytesPerStep: Math.round(bodies.reduce((n, b) => n + Buffer.byteLength(b), 0) / steps),
    createMs: created.ms,
    stepP50Ms: percentile(sorted, 0.5),
    stepP95Ms: percentile(sorted, 0.95),
    completeMs: completed.ms,
    totalMs,
    demoId: completed.data.demo_id!,
  };
}

// Run directly (bin/run-ts.js makes this file argv[1]), not when bench/run.ts imports it.
if (process.argv[1]?.endsWith('recording-upload.ts')) {
  const [baseUrl, apiKey, steps] = process.argv.slice(2);
  if (!baseUrl || !apiKey) {
    console.error('usage: node bin/run-ts.js bench/recording-upload.ts <base-url> <api-key> [steps=20]');
    process.exit(2);
  }
  console.log(await benchRecordingUpload(baseUrl, apiKey, steps ? Number(steps) : 20));
}
