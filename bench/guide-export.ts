/**
 * The written guide of a 20-step demo (docs/guides.md): Markdown (zip of guide.md and the marked
 * screenshots) and PDF (headless Chromium), each exported over HTTP one at a time, while /healthz is asked
 * every 25 ms to show whether the server's event loop stays free meanwhile. Each step is a ≈300 KB
 * 1280×800 PNG with a hotspot and rich text. Called by bench/run.ts against its server; alone:
 *
 *   node bin/run-ts.js bench/guide-export.ts <base-url> <api-key> [steps=20]
 *
 * Bounded: one demo of `steps` steps (it stays in the server's database), 1 + 3 exports of each format.
 */
import { performance } from 'node:perf_hooks';
import { benchScreenshot } from './recording-upload';

export interface GuideExportTimings {
  steps: number;
  markdownMs: number;
  markdownBytes: number;
  /** The first PDF of the server: it starts Chromium. */
  pdfFirstMs: number | null;
  pdfMs: number | null;
  pdfBytes: number | null;
  pdfPages: number | null;
  /** The slowest /healthz answer while Markdown exports ran: the event loop's worst wait. */
  healthzMaxMs: number;
  /** The same while PDFs printed. */
  healthzPdfMaxMs: number;
  /** The same over 3 s with no export running: what the machine's own noise gives. */
  healthzIdleMaxMs: number;
  demoId: string;
}

const RUNS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchGuideExport(baseUrl: string, apiKey: string, steps = 20): Promise<GuideExportTimings> {
  const auth = { authorization: `Bearer ${apiKey}` };
  const json = async (method: string, path: string, body: unknown, type = 'application/json') => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...auth, 'content-type': type },
      body: type === 'application/json' ? JSON.stringify(body) : new Uint8Array(body as Buffer),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: string } }).data;
  };
  const demo = await json('POST', '/v1/demos', { title: `Guide bench, ${steps} steps` });
  for (let i = 0; i < steps; i++) {
    const step = await json('POST', `/v1/demos/${demo.id}/steps`, await benchScreenshot(i), 'image/png');
    await json('PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, {
      title: `Open the invoice list (${i + 1})`,
      description_html: `<p>Select <b>Create invoice</b>, then check the <i>total</i>. See <a href="https://help.example/${i}">help</a>.</p>`,
    });
    await json('POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, {
      x: 0.81,
      y: 0.02,
      width: 0.1,
      height: 0.04,
      label: 'Create invoice',
      tooltip: 'Start a draft invoice here.',
    });
  }

  let probing = true;
  /** Asks /healthz every 25 ms until `done`; `worst` holds the slowest answer so far. */
  const probeUntil = (done: () => boolean) => {
    const state = { worst: 0, finished: Promise.resolve() };
    state.finished = (async () => {
      while (!done()) {
        const t0 = performance.now();
        await fetch(`${baseUrl}/healthz`).then((r) => r.arrayBuffer());
        state.worst = Math.max(state.worst, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    return state;
  };
  const idleEnd = performance.now() + 3_000;
  const idle = probeUntil(() => performance.now() > idleEnd);
  await idle.finished;
  let busy = probeUntil(() => !probing);
  let markdownWorst = 0;
  const exportOnce = async (format: string) => {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/v1/demos/${demo.id}/export/guide?format=${format}`, { headers: auth });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status === 503 && format === 'pdf') return null;
    if (!res.ok) throw new Error(`guide ${format}: ${res.status} ${bytes.toString()}`);
    return { ms: performance.now() - t0, bytes };
  };
  try {
    await exportOnce('markdown');
    const markdown = [];
    for (let i = 0; i < RUNS; i++) markdown.push((await exportOnce('markdown'))!);
    // The probe of the Markdown exports ends; the PDFs get their own.
    probing = false;
    await busy.finished;
    markdownWorst = busy.worst;
    probing = true;
    busy = probeUntil(() => !probing);
    const first = await exportOnce('pdf');
    const pdf = [];
    if (first) for (let i = 0; i < RUNS; i++) pdf.push((await exportOnce('pdf'))!);
    const last = pdf.at(-1);
    return {
      steps,
      markdownMs: median(markdown.map((r) => r.ms)),
      markdownBytes: markdown[0]!.bytes.length,
      pdfFirstMs: first?.ms ?? null,
      pdfMs: first ? median(pdf.map((r) => r.ms)) : null,
      pdfBytes: last?.bytes.length ?? null,
      pdfPages: last ? (last.bytes.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length : null,
      healthzMaxMs: markdownWorst,
      healthzPdfMaxMs: busy.worst,
      healthzIdleMaxMs: idle.worst,
      demoId: demo.id,
    };
  } finally {
    probing = false;
    await busy.finished;
  }
}

/** One line for the bench's report. */
export function guideExportLine(engine: string, r: GuideExportTimings): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const pdf =
    r.pdfMs === null
      ? 'PDF skipped (no Chromium)'
      : `PDF ${r.pdfMs.toFixed(0)} ms (${mb(r.pdfBytes!)}, ${r.pdfPages} pages; the first, starting Chromium, ${r.pdfFirstMs!.toFixed(0)} ms)`;
  return `${engine} guide export, ${r.steps} steps of 1280×800: Markdown zip ${r.markdownMs.toFixed(0)} ms (${mb(r.markdownBytes)}), ${pdf}; /healthz at worst ${r.healthzMaxMs.toFixed(0)} ms during the Markdown exports, ${r.healthzPdfMaxMs.toFixed(0)} ms during the PDFs, ${r.healthzIdleMaxMs.toFixed(0)} ms idle`;
}

// Run directly (bin/run-ts.js makes this file argv[1]), not when bench/run.ts imports it.
if (process.argv[1]?.endsWith('guide-export.ts')) {
  const [baseUrl, apiKey, steps] = process.argv.slice(2);
  if (!baseUrl || !apiKey) {
    console.error('usage: node bin/run-ts.js bench/guide-export.ts <base-url> <api-key> [steps=20]');
    process.exit(2);
  }
  const timings = await benchGuideExport(baseUrl, apiKey, steps ? Number(steps) : 20);
  console.log(guideExportLine('server', timings));
}
