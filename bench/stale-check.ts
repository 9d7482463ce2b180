/**
 * The stale-demo check of a 20-step demo (docs/stale-check.md): 5 pages of a local site, 4 steps on each.
 * Measured: the first check (it starts the check's Chromium), replacing the 20 steps with its capture, a
 * check of the unchanged site (every step ok), and a check after one page changed. The event loop's
 * longest delay while the checks run shows that the capture and image work stay off it.
 *
 *   node bin/run-ts.js bench/stale-check.ts [steps=20]
 *
 * Bounded: one in-memory database, one site on 127.0.0.1, four checks. Called by bench/run.ts too.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { findChromium } from '../src/generation/chromium';
import { createTestApp } from '../test/helpers/test-app';

export interface StaleCheckTimings {
  steps: number;
  pages: number;
  captureMode: string;
  firstCheckMs: number;
  replaceAllMs: number;
  cleanCheckMs: number;
  driftCheckMs: number;
  driftSteps: number;
  eventLoopMaxMs: number;
  /** The longest delay during each check: the first, unchanged, changed. */
  eventLoopMaxByCheckMs: number[];
}

const TARGETS = ['title', 'start', 'features', 'contact'];

export async function benchStaleCheck(steps = 20): Promise<StaleCheckTimings | string> {
  const chromium = findChromium();
  if (!chromium.path) return `skipped: ${chromium.reason}`;
  const pages = Math.ceil(steps / TARGETS.length);
  const heading = new Map<number, string>();
  const site = createServer((req, res) => {
    const n = Number(/^\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>Page ${n}</title>
      <style>body{font:16px/1.5 sans-serif;margin:0}main{padding:40px}section{height:420px}</style></head><body><main>
      <h1 id="title">${heading.get(n) ?? `Acme page ${n}`}</h1><p>What page ${n} is about, in a sentence or two for the reader.</p>
      <button id="start">Start on page ${n}</button>
      <section><h2 id="features">Features of page ${n}</h2><p>Reminders, receipts and reports.</p></section>
      <form id="contact"><label>E-mail <input name="email" type="email"></label><button>Send</button></form>
      </main></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const t = await createTestApp({
    jobs: true,
    contract: false,
    config: { CHROMIUM_PATH: chromium.path, ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', RATE_LIMIT_PER_MINUTE: 1_000_000 },
  });
  try {
    const session = await t.signUp();
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await session.inject({ method, url, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().data;
    };
    const demo = await call('POST', '/v1/demos', { title: 'Bench tour', source_url: `${origin}/p1` });
    const stepIds: string[] = [];
    for (let i = 0; i < steps; i++) {
      const page = Math.floor(i / TARGETS.length) + 1;
      const step = await call('POST', `/v1/demos/${demo.id}/steps`, { title: `Step ${i + 1}`, page_url: `${origin}/p${page}` });
      await call('POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, {
        x: 0.1,
        y: 0.1,
        width: 0.2,
        height: 0.1,
        selector: `#${TARGETS[i % TARGETS.length]}`,
      });
      stepIds.push(step.id);
    }
    const maxes: number[] = [];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const check = async () => {
      const started = performance.now();
      loop.reset();
      loop.enable();
      const { id } = await call('POST', `/v1/demos/${demo.id}/checks`);
      for (;;) {
        const got = await call('GET', `/v1/demos/${demo.id}/checks/${id}`);
        if (got.status === 'succeeded' || got.status === 'failed') {
          loop.disable();
          maxes.push(Math.round(loop.max / 1e6));
          if (got.status === 'failed') throw new Error(`check failed: ${got.error}`);
          return { ms: performance.now() - started, check: got };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const first = await check();
    const replacing = performance.now();
    for (const stepId of stepIds) await call('POST', `/v1/demos/${demo.id}/checks/${first.check.id}/steps/${stepId}/replace`);
    const replaceAllMs = performance.now() - replacing;
    const clean = await check();
    if (clean.check.drift) throw new Error('the unchanged site drifted');
    heading.set(2, 'Acme page two, renamed');
    const drift = await check();
    return {
      steps,
      pages,
      captureMode: first.check.capture_mode,
      firstCheckMs: Math.round(first.ms),
      replaceAllMs: Math.round(replaceAllMs),
      cleanCheckMs: Math.round(clean.ms),
      driftCheckMs: Math.round(drift.ms),
      driftSteps: drift.check.summary.checked - drift.check.summary.ok,
      eventLoopMaxMs: Math.max(...maxes),
      eventLoopMaxByCheckMs: maxes,
    };
  } finally {
    await t.close();
    await new Promise((resolve) => site.close(resolve));
  }
}

/** The figures as lines for a terminal. */
export function describeStaleCheck(r: StaleCheckTimings | string): string {
  if (typeof r === 'string') return `stale-demo check: ${r}`;
  return [
    `stale-demo check of a ${r.steps}-step demo (${r.pages} pages, ${r.captureMode}):`,
    `  first check (starts Chromium) ${r.firstCheckMs} ms; replace all ${r.steps} steps ${r.replaceAllMs} ms`,
    `  check, nothing changed ${r.cleanCheckMs} ms; check after one page changed ${r.driftCheckMs} ms (${r.driftSteps} steps flagged)`,
    `  event loop's longest delay during each check ${r.eventLoopMaxByCheckMs.join(' / ')} ms`,
  ].join('\n');
}

if (process.argv[1]?.endsWith('stale-check.ts')) {
  console.log(describeStaleCheck(await benchStaleCheck(Number(process.argv[2] ?? 20))));
}
