/**
 * Generation time for the test site (test/fixtures/site: home + 4 followed pages, one refused) in each
 * capture mode, built-in writer. Chromium mode is measured cold (first job starts the browser) and warm
 * (the browser is shared by the next jobs).
 *
 *   node bin/run-ts.js bench/generation.ts [runs=3]
 *
 * Bounded: a few generations against servers on 127.0.0.1 only; one Chromium at a time, closed at the end.
 */
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { createGenerator } from '../src/generation';
import { findChromium } from '../src/generation/chromium';
import { startForbiddenServer, startTestSite } from '../test/helpers/site-server';
import { testDocumentPool } from '../test/helpers/documents';

const runs = Math.max(1, Number(process.argv[2] ?? 3));
const browser = findChromium();

const forbidden = await startForbiddenServer();
const site = await startTestSite(forbidden);
const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
const documents = testDocumentPool();

async function measure(label: string, chromium: string | null): Promise<void> {
  const generator = createGenerator({ net, documents, chromiumPath: chromium });
  const times: number[] = [];
  let summary = '';
  try {
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const result = await generator.generate({ url: `${site.origin}/` });
      times.push(performance.now() - started);
      summary = `${result.captureMode}, ${result.steps.length} steps`;
    }
  } finally {
    await generator.close();
  }
  const [first, ...rest] = times;
  const warm = rest.length ? rest.reduce((a, b) => a + b, 0) / rest.length : first!;
  console.log(`${label.padEnd(10)} first ${ms(first!)}   then ${ms(warm)} on average over ${rest.length} runs   (${summary})`);
}

const ms = (v: number) => `${Math.round(v).toString().padStart(6)} ms`;

console.log(`generation of ${site.origin}/ (home + up to 4 pages), ${runs} runs per mode`);
await measure('html', null);
if (browser.path) await measure('chromium', browser.path);
else console.log(`chromium   skipped: ${browser.reason}`);
console.log(`forbidden server: ${forbidden.connections} connections`);

await net.close();

await documents.close();
await site.close();
await forbidden.close();
