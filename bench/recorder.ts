/**
 * npm run bench:recorder — the recorder extension end to end, in headless Chromium with the built
 * extension, against a Demoshare on embedded PGlite and the Ledgerly test app (test/fixtures/recorder-app):
 *
 * - input delay: how long after the input a page's own click listener runs (performance.now() minus the
 *   event's timeStamp, in a listener on the document), with the extension idle and while recording. The
 *   difference is what the recorder adds to the page's click handling (its capture-phase listener on the
 *   window runs first);
 * - freeze: the synchronous snapshot copy inside that listener, as the content script measures it;
 * - click to stored: from the click to the background worker's answer that the step is stored (its
 *   screenshot included), as the page's recorder sees it;
 * - snapshot bytes per step, once serialised;
 * - upload: from Stop to the demo built on the server, for a 20-step recording.
 *
 *   npm run bench:recorder [-- --clicks 20 --gap 700]
 *
 * Bounded: servers on 127.0.0.1 only, one Chromium, all closed at the end. Clicks are `--gap` ms apart,
 * above the browser's two screenshots a second, as a person clicks.
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { CHROMIUM } from '../test/helpers/browser';
import { launchWithExtension } from '../test/helpers/extension';
import { signIn, startRecorderApp } from '../test/helpers/recorder-app';
import { startTestServer } from '../test/helpers/server';

const { values: args } = parseArgs({
  options: { clicks: { type: 'string', default: '20' }, gap: { type: 'string', default: '700' } },
});
const clicks = Math.max(2, Number(args.clicks));
const gap = Math.max(0, Number(args.gap));

if (!CHROMIUM.path) {
  console.error(CHROMIUM.reason);
  process.exit(1);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const kib = (v: number) => `${(v / 1024).toFixed(0)} KiB`;
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

interface Measured {
  delays: number[];
  steps: { frozenMs: number; recordedMs: number }[];
}

const server = await startTestServer({ selfUrl: true });
const ledgerly = await startRecorderApp();
const browser = await launchWithExtension({ width: 1280, height: 800 });
try {
  const key = await server.apiKey(['demos:read', 'demos:write']);
  const connected = await browser.send({ type: 'connect-key', instanceUrl: server.url, apiKey: key });
  if (!connected.ok) throw new Error(`connect: ${connected.error}`);

  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __delays: number[]; __steps: unknown[] };
    w.__delays = [];
    w.__steps = [];
    document.addEventListener('click', (e) => w.__delays.push(performance.now() - e.timeStamp));
    window.addEventListener('demoshare:step', (e) => w.__steps.push(JSON.parse((e as CustomEvent<string>).detail)));
  });

  const measure = async (target: string): Promise<Measured> => {
    await page.evaluate(() => {
      const w = window as unknown as { __delays: number[]; __steps: unknown[] };
      w.__delays = [];
      w.__steps = [];
    });
    for (let i = 0; i < clicks; i++) {
      await page.locator(target).click({ delay: 60 });
      await sleep(gap);
    }
    await sleep(1500);
    return page.evaluate(() => {
      const w = window as unknown as { __delays: number[]; __steps: { frozenMs: number; recordedMs: number }[] };
      return { delays: w.__delays, steps: w.__steps };
    });
  };

  const snapshotSizes = async (): Promise<number[]> => {
    const stored = await browser.storage<Record<string, { snapshot?: string | null }>>();
    return Object.entries(stored)
      .filter(([k, v]) => k.startsWith('step:') && v.snapshot)
      .map(([, v]) => Buffer.byteLength(v.snapshot!, 'utf8'));
  };

  const run = async (label: string, target: string, upload: boolean) => {
    await page.bringToFront();
    const idle = await measure(target);
    const started = await browser.send({ type: 'start', tabId: await browser.tabIdOf(page as Page) });
    if (!started.ok) throw new Error(`start: ${started.error}`);
    await sleep(300);
    const recording = await measure(target);
    await sleep(2000);
    const sizes = await snapshotSizes();
    console.log(`\n${label} (${clicks} clicks, ${recording.steps.length} steps recorded)`);
    console.log(
      `  input delay, idle:      p50 ${ms(quantile(idle.delays, 0.5))}  p95 ${ms(quantile(idle.delays, 0.95))}\n` +
        `  input delay, recording: p50 ${ms(quantile(recording.delays, 0.5))}  p95 ${ms(quantile(recording.delays, 0.95))}\n` +
        `  freeze (in the click):  p50 ${ms(quantile(recording.steps.map((s) => s.frozenMs), 0.5))}  p95 ${ms(quantile(recording.steps.map((s) => s.frozenMs), 0.95))}\n` +
        `  click to stored:        p50 ${ms(quantile(recording.steps.map((s) => s.recordedMs), 0.5))}  p95 ${ms(quantile(recording.steps.map((s) => s.recordedMs), 0.95))}\n` +
        `  snapshot per step:      p50 ${kib(quantile(sizes, 0.5))}  max ${kib(Math.max(...sizes))} (${sizes.length} serialised)`,
    );
    if (upload) {
      const stopAt = Date.now();
      await browser.send({ type: 'stop' });
      for (;;) {
        const { result } = await browser.send<{ recording: { status: string; error: string | null } | null }>({ type: 'status' });
        if (result?.recording?.status === 'done') break;
        if (result?.recording?.status === 'failed') throw new Error(`upload failed: ${result.recording.error}`);
        await sleep(25);
      }
      console.log(`  upload of ${recording.steps.length} steps, Stop to demo built: ${ms(Date.now() - stopAt)}`);
      for (const p of browser.context.pages()) if (p.url().startsWith(server.url)) await p.close();
    }
    // Clears a finished recording, or drops this one without uploading it.
    await browser.send({ type: 'discard' });
  };

  await signIn(page as Page, ledgerly);
  await run('Ledgerly invoices (signed in)', 'td:has-text("Initech")', true);
  await page.goto(`${ledgerly.url}large?n=10000`);
  const elements = await page.evaluate(() => document.querySelectorAll('*').length);
  await run(`Large page (${elements} elements)`, 'tbody tr:nth-child(500) button', false);
} finally {
  await browser.close();
  await ledgerly.close();
  await server.close();
}
