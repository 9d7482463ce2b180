/**
 * The viewer player: its size on the wire, and the time from opening a share link to the first step on
 * screen in Chromium (the player's `demoshare:open-to-first-step` measure: navigation start → the frame after
 * the first screenshot has loaded), on a fresh browser context each time (cold cache, no cookies).
 *
 *   node bin/run-ts.js bench/player.ts [runs=15]
 *
 * Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium). Bounded: `runs` page loads, then it exits.
 */
import { launchBrowser } from '../test/helpers/browser';
import { makeMockupPng } from '../test/helpers/images';
import { startTestServer } from '../test/helpers/server';
import { keyedApi } from './api-call';
import { playerSizeReport } from './player-budget';

const runs = Number(process.argv[2] ?? 15);

const server = await startTestServer({ selfUrl: true, config: { RATE_LIMIT_PUBLIC_PER_MINUTE: 1_000_000 } });
const browser = await launchBrowser();
if (!browser) {
  await server.close();
  process.exit(1);
}

console.log(playerSizeReport());

const key = await server.apiKey('all');
const call = keyedApi(server.url, key);

const demo = await call('POST', '/demos', { title: 'Bench tour', type: 'interactive' });
for (let i = 0; i < 5; i++) {
  const step = await call('POST', `/demos/${demo.id}/steps`, makeMockupPng(1280, 800, [20 * i, 120, 200]), 'image/png');
  await call('POST', `/demos/${demo.id}/steps/${step.id}/hotspots`, { x: 0.2, y: 0.2, width: 0.1, height: 0.1, label: `Hotspot ${i}` });
}
await call('PATCH', `/demos/${demo.id}`, { status: 'published' });
const share = await call('POST', `/demos/${demo.id}/shares`, { name: 'bench' });
const link = server.url + new URL(share.url).pathname;

const samples: number[] = [];
const phases = { script: [] as number[], state: [] as number[], demo: [] as number[] };
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(link);
  await page.waitForFunction(() => performance.getEntriesByName('demoshare:open-to-first-step').length > 0, undefined, { timeout: 30_000 });
  // A string, not a function: tsx would wrap named helpers in a __name() the page does not have.
  const marks = (await page.evaluate(`Object.fromEntries(['start', 'state', 'demo', 'first-step'].map((n) =>
    [n, performance.getEntriesByName('demoshare:' + n)[0]?.startTime ?? NaN]))`)) as Record<string, number>;
  marks.painted = marks['first-step']!;
  samples.push(marks.painted);
  phases.script.push(marks.start!);
  phases.state.push(marks.state! - marks.start!);
  phases.demo.push(marks.demo! - marks.state!);
  await context.close();
}
await browser.close();
await server.close();

samples.sort((a, b) => a - b);
const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
console.log(
  `open link → first step painted, ${runs} cold loads: median ${at(0.5).toFixed(0)} ms, ` +
    `p90 ${at(0.9).toFixed(0)} ms, min ${samples[0]!.toFixed(0)} ms, max ${samples.at(-1)!.toFixed(0)} ms`,
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `  medians: page + script loaded ${median(phases.script).toFixed(0)} ms, link state ${median(phases.state).toFixed(0)} ms, ` +
    `demo JSON ${median(phases.demo).toFixed(0)} ms, rest (first screenshot) ${(at(0.5) - median(phases.script) - median(phases.state) - median(phases.demo)).toFixed(0)} ms`,
);
process.exit(0);
