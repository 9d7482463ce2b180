/**
 * `npm run bench:web`: the JavaScript a browser downloads to show each main route of the web app, measured
 * in Chromium (a new context per route, so an empty cache: a first visit) by summing the script responses,
 * each gzipped as a compressing proxy would send it. Against dist/web, rebuilt first when older than web/.
 * The sign-in page has a budget (test/browser/web-bundle.test.ts holds it), and so has the viewer player's
 * script (bench/player-budget.ts, held by test/browser/player-story.test.ts). Bounded: one load per route.
 *
 *   npm run bench:web [-- --files]     (--files lists every script of each route)
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser, sessionCookies } from '../test/helpers/browser';
import { makeMockupPng } from '../test/helpers/images';
import { routeJavaScript, SIGN_IN_BUDGET_BYTES } from '../test/helpers/route-javascript';
import { startTestServer } from '../test/helpers/server';
import { keyedApi } from './api-call';
import { playerSizeReport } from './player-budget';

const { values: args } = parseArgs({ options: { files: { type: 'boolean', default: false } } });

const server = await startTestServer();
const browser = await launchBrowser();
if (!browser) {
  await server.close();
  process.exit(1);
}

try {
  const admin = await server.signUp();
  const key = await server.apiKey('all', admin);
  const call = keyedApi(server.url, key);
  const demo = await call('POST', '/demos', { title: 'Bench tour', type: 'interactive' });
  for (let i = 0; i < 3; i++) await call('POST', `/demos/${demo.id}/steps`, makeMockupPng(1280, 800, [40 * i, 120, 200]), 'image/png');

  const signedIn = { prepare: (page: Page) => page.context().addCookies(sessionCookies(admin, server.url)) };
  const heading = (name: string) => (page: Page) => page.getByRole('heading', { name, exact: true }).waitFor();
  const routes: { name: string; path: string; ready: (page: Page) => Promise<unknown>; signedIn: boolean }[] = [
    { name: 'sign-in', path: '/login', ready: heading('Sign in'), signedIn: false },
    { name: 'dashboard (demos)', path: '/demos', ready: (page) => page.getByText('Bench tour').first().waitFor(), signedIn: true },
    { name: 'demo editor', path: `/demos/${demo.id}`, ready: (page) => page.locator('.step-thumb').first().waitFor(), signedIn: true },
    { name: 'analytics', path: '/analytics', ready: heading('Analytics'), signedIn: true },
    { name: 'demo analytics', path: `/demos/${demo.id}/analytics`, ready: heading('Bench tour'), signedIn: true },
  ];

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`\n| Route | Path | Scripts | JavaScript | gzipped |\n| --- | --- | ---: | ---: | ---: |`);
  let signInGzipped = 0;
  for (const route of routes) {
    const measured = await routeJavaScript(browser, server.url + route.path, route.ready, route.signedIn ? signedIn : {});
    if (route.path === '/login') signInGzipped = measured.gzipped;
    console.log(`| ${route.name} | \`${route.path.replace(demo.id, ':id')}\` | ${measured.files.length} | ${kb(measured.bytes)} | ${kb(measured.gzipped)} |`);
    if (args.files) for (const file of measured.files) console.log(`|  | ${file.path} |  | ${kb(file.bytes)} | ${kb(file.gzipped)} |`);
  }
  const verdict = signInGzipped <= SIGN_IN_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(`\nSign-in page: ${kb(signInGzipped)} gzipped, ${verdict} its budget of ${kb(SIGN_IN_BUDGET_BYTES)}.`);
  // The viewer player is a bundle of its own (dist/player), loaded by share links rather than by a route.
  console.log(`\n${playerSizeReport()}`);
} finally {
  await browser.close();
  await server.close();
}
