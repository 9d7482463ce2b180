/**
 * What a recorded click costs in the recorder extension's DOM snapshot (extension/src/content/snapshot.ts),
 * on the Ledgerly fixture app's filled-in invoice form and on a page of 10 000 elements:
 *
 * - freeze: the synchronous part that runs inside the capture-phase click handler, i.e. the input delay
 *   the click gets. The first freeze of a page is cold (code not yet optimised, and in the default 'auto'
 *   mode it reads every element's scroll offsets and starts a scroll tracker); p50/p95 are over the ones
 *   after it. Measured reading every element's scroll offsets ('all') and in the default mode ('auto'),
 *   where later freezes read only the offsets of elements the tracker saw scroll.
 * - serialise: the asynchronous part after it (stylesheets, fonts and images fetched through a stand-in
 *   for the background worker: Node's fetch behind page.exposeFunction), and the snapshot's size.
 *
 *   node bin/run-ts.js bench/recorder-snapshot.ts [freezes=30] [serialisations=5]
 *
 * Bounded: servers on 127.0.0.1 only, one Chromium, closed at the end. Timings come from performance.now()
 * inside the page.
 */
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_BASE_ARGS, findChromium } from '../src/generation/chromium';
import { openInvoiceForm, startRecorderApp } from '../test/helpers/recorder-app';
import { freezeTimes, injectSnapshot, nodeFetchResource, quantile, snapshotOnce } from '../test/helpers/snapshot-harness';

const freezes = Math.max(2, Number(process.argv[2] ?? 30));
const serialisations = Math.max(1, Number(process.argv[3] ?? 5));

const found = findChromium();
if (!found.path) {
  console.error(found.reason);
  process.exit(1);
}
// gc() lets each timed freeze start with the previous clone collected, as between two real clicks.
const browser = await chromium.launch({ executablePath: found.path, args: [...CHROMIUM_BASE_ARGS, '--js-flags=--expose-gc'] });
const app = await startRecorderApp();

const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`;

async function measure(label: string, context: BrowserContext, page: Page, target: string): Promise<void> {
  await context.exposeFunction('__fetchResource', nodeFetchResource(context));
  await injectSnapshot(page);
  const all = await freezeTimes(page, freezes + 1, { target, scroll: 'all' });
  const auto = await freezeTimes(page, freezes + 1, { target, scroll: 'auto' });
  const serialised: number[] = [];
  let bytes = 0;
  let inlined = '';
  for (let i = 0; i < serialisations; i++) {
    const once = await snapshotOnce(page, target);
    serialised.push(once.serializeMs);
    bytes = once.snapshot.bytes;
    const { stats } = once.snapshot;
    inlined = `${stats.inlinedResources}/${stats.resources} resources inlined (${(stats.inlinedBytes / 1024).toFixed(0)} KiB), ${stats.stylesheets} stylesheets, ${stats.fetchedStylesheets} fetched`;
  }
  const freezeLine = (name: string, times: number[]) => {
    const [cold, ...warm] = times;
    return `  freeze, ${name.padEnd(22)} p50 ${ms(quantile(warm, 0.5))}   p95 ${ms(quantile(warm, 0.95))}   cold ${ms(cold!)}`;
  };
  console.log(`${label}: ${all.elements} elements`);
  console.log(freezeLine('every scroll offset', all.times));
  console.log(freezeLine('auto (tracker)', auto.times));
  console.log(`  serialise               p50 ${ms(quantile(serialised, 0.5))}   max ${ms(Math.max(...serialised))}`);
  console.log(`  snapshot                ${(bytes / 1024).toFixed(0).padStart(6)} KiB   ${inlined}`);
}

console.log(`recorder snapshot: ${freezes} freezes (after a cold one) and ${serialisations} serialisations per page, Chromium ${browser.version()}`);
try {
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openInvoiceForm(page, app);
    await measure('fixture app, invoice form', context, page, '#create-invoice-submit');
    await context.close();
  }
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${app.url}large?n=10000`);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await measure('10k-element page', context, page, 'button');
    await context.close();
  }
} finally {
  await browser.close();
  await app.close();
}
