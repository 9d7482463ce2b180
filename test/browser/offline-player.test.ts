import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto';
import { newId } from '../../src/core/ids';
import type { DemoSnapshot } from '../../src/demos/demo-snapshot';
import { assets, demos, demoVersions } from '../../src/demos/demos.tables';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { makeMockupPng, makePng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare } from '../helpers/shares';
import { bearer, type TestSession } from '../helpers/test-app';

// The offline file (docs/offline.md) in real Chromium: exported through the API, written to disk, opened
// from file:// with the network cut (offline, and every request but file: aborted and recorded), played
// to the end at 1280 px by keyboard and at 390 px by taps: a cover, a chapter menu, a screenshot step, an
// HTML snapshot step (its hotspot on the element its selector finds), a lead form that says it sends
// nothing, and an end screen; the workspace's colour and logo. No request leaves the file.

const SHOTS = 'test-results/screenshots';
const CHAPTER = 'chp_01jd8x3k5m7n9p2q4r6s8t0v1a';
const browser: Browser | null = await launchBrowser();

/** A captured page with everything an offline file must not fetch: a style sheet, a picture, a font, a script. */
const SNAPSHOT = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="https://cdn.invalid/site.css">
<style>@import url("https://cdn.invalid/more.css"); body{font-family:system-ui;margin:0;background:#f8fafc url(https://cdn.invalid/bg.png)}
header{display:flex;justify-content:space-between;align-items:center;padding:24px 40px;background:#0f172a;color:#fff}
main{padding:40px} h1{font-size:40px;margin:0 0 16px} #signup{font-size:18px;padding:14px 24px;background:#0e9384;color:#fff;border:0;border-radius:8px}</style>
<script src="https://cdn.invalid/app.js"></script></head>
<body><header><strong>Acme</strong><img src="https://cdn.invalid/logo.png" width="80" height="24" alt="Acme logo" srcset="https://cdn.invalid/logo@2x.png 2x"></header>
<main><h1>Invoices, done for you</h1><p style="background-image:url('https://cdn.invalid/dots.svg')">Send, chase and reconcile.</p>
<button id="signup">Start free trial</button></main></body></html>`;

describe.skipIf(!browser)('the offline file plays from file:// with no network', () => {
  let t: TestServer;
  let admin: TestSession;
  let key: string;
  let demoId: string;
  let dir: string;
  let fileUrl: string;
  let size = 0;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // APP_URL is the server's own origin: the beacon's address in the file reaches it.
    t = await startTestServer({ selfUrl: true });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    const call = async (method: string, url: string, payload?: object | Buffer, type = 'application/json') => {
      const res = await t.app.inject({ method: method as 'GET', url, headers: { ...bearer(key), 'content-type': type }, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.body ? res.json().data : undefined;
    };
    // The brand is the web app's to set (session only).
    const brand = await admin.inject({ method: 'PATCH', url: '/v1/workspace', payload: { branding: { brand_color: '#0e9384' } } });
    expect(brand.statusCode).toBe(200);
    const logo = await admin.inject({ method: 'PUT', url: '/v1/workspace/logo', headers: { 'content-type': 'image/png' }, payload: makePng(120, 32, [14, 147, 132]) });
    expect(logo.statusCode).toBeLessThan(300);
    const demo = await call('POST', '/v1/demos', { title: 'Acme invoicing tour', type: 'interactive', configuration: { theme_color: '#0e9384' } });
    for (let i = 0; i < 6; i++) {
      const step = await call('POST', `/v1/demos/${demo.id}/steps`, makeMockupPng(1280, 800, [14 + i * 30, 147, 132]), 'image/png');
      await call('PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, { title: `Step ${i + 1}`, description: `Part ${i + 1} of the tour` });
      await call('POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, { x: 0.62, y: 0.4, width: 0.2, height: 0.1, label: 'Open invoices', tooltip: 'Open the invoices' });
    }
    await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' });
    demoId = demo.id;

    // The published version made a story, as the editor stores one: cover, menu, chapter (screenshot, then
    // an HTML snapshot), form, end.
    const { db } = t.ctx.database;
    const html = Buffer.from(SNAPSHOT);
    const htmlId = newId('asset');
    await db.insert(assets).values({
      id: htmlId,
      workspaceId: (await db.select().from(demos).where(eq(demos.id, demo.id)))[0]!.workspaceId,
      demoId: demo.id,
      contentType: 'text/html; charset=utf-8',
      bytes: html,
      size: html.length,
      sha256: sha256Hex(html),
    });
    const [version] = await db.select().from(demoVersions).where(eq(demoVersions.demoId, demo.id));
    const snapshot = version!.snapshot as unknown as DemoSnapshot;
    const s = [...snapshot.steps].sort((a, b) => a.position - b.position);
    snapshot.chapters = [{ id: CHAPTER, position: 0, title: 'Invoicing', description: 'Send your first invoice' }];
    Object.assign(s[0]!, {
      kind: 'cover',
      title: 'Welcome to Acme',
      description_html: '<p>See how <strong>invoicing</strong> works, with no connection at all.</p>',
      hotspots: [],
      content: { buttons: [{ id: 'start', label: 'Start the tour', style: 'primary', action: { type: 'next', target: null } }] },
    });
    Object.assign(s[1]!, {
      kind: 'chapter_menu',
      title: 'What would you like to see?',
      hotspots: [],
      content: {
        buttons: [
          { id: 'pick', label: 'Invoicing', description: 'Send your first invoice', style: 'primary', action: { type: 'chapter', target: CHAPTER } },
          { id: 'onward', label: 'Continue', style: 'secondary', action: { type: 'goto', target: s[4]!.id } },
        ],
      },
    });
    s[2]!.chapter_id = CHAPTER;
    Object.assign(s[3]!, {
      chapter_id: CHAPTER,
      title: 'The sign-up page',
      image_asset_id: null,
      html_asset_id: htmlId,
      width: 1280,
      height: 800,
      patches: [{ selector: 'h1', op: 'text', value: 'Invoices, done offline' }],
    });
    s[3]!.hotspots[0]!.selector = '#signup';
    Object.assign(s[4]!, {
      kind: 'form',
      title: 'Where should we send the details?',
      hotspots: [],
      content: {
        buttons: [],
        form: { fields: [{ name: 'email', label: 'Work e-mail', type: 'email', required: true }], submit_label: 'Send', gate: false, skippable: false },
      },
    });
    Object.assign(s[5]!, {
      kind: 'end',
      title: 'Thanks, {{email|friend}}!',
      hotspots: [],
      content: {
        buttons: [
          { id: 'book', label: 'Book a meeting', style: 'primary', cta: 'book_meeting', action: { type: 'url', target: 'https://example.com/book' } },
          { id: 'again', label: 'Start over', style: 'secondary', action: { type: 'restart', target: null } },
        ],
      },
    });
    await db.update(demoVersions).set({ snapshot: snapshot as never }).where(eq(demoVersions.demoId, demo.id));

    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demo.id}/export/offline`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    size = Number(res.headers['x-bundle-size']);
    dir = mkdtempSync(join(tmpdir(), 'offline-'));
    fileUrl = save('Acme tour offline.html', res.rawPayload);
  });

  /** Writes a file into the test's folder; its file:// address. */
  function save(name: string, bytes: Buffer) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return pathToFileURL(path).href;
  }

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A page on the file with the network cut; every request that is not the file itself is recorded (and aborted). */
  async function open(viewport: { width: number; height: number }, mobile: boolean, file = fileUrl, allowed: string | null = null, init?: () => void) {
    const context = await browser!.newContext({ viewport, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1 });
    contexts.push(context);
    if (init) await context.addInitScript(init);
    if (!allowed) await context.setOffline(true);
    const requests: string[] = [];
    const problems: string[] = [];
    const local = (url: string) => url.startsWith('file:') || url.startsWith('data:') || url.startsWith('about:');
    await context.route('**', (route) => {
      const url = route.request().url();
      if (local(url) || (allowed && url.startsWith(allowed))) return route.continue();
      return route.abort();
    });
    const page = await context.newPage();
    page.on('request', (r) => {
      if (!local(r.url())) requests.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(file);
    return { page, requests, problems };
  }

  /** The dialog's fade-in done, so that a screenshot shows it as people read it. */
  const settled = (page: Page) => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

  const heading = (page: Page) => page.locator('.ds-panel-title, .ds-step-title').first();

  async function snapshotStep(page: Page, prefix: string) {
    // The snapshot's patched text, in its frame, and the hotspot on the element its selector finds.
    const frame = page.frameLocator('iframe.ds-snapshot');
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Invoices, done offline');
    const button = await frame.locator('#signup').boundingBox();
    await expect
      .poll(async () => {
        const spot = await page.locator('.ds-hotspot').boundingBox();
        return !!spot && !!button && spot.x <= button.x + 1 && spot.x + spot.width >= button.x + button.width - 1;
      })
      .toBe(true);
    // Nothing of the captured site is left to fetch.
    expect(await frame.locator('script, link').count()).toBe(0);
    expect(await frame.locator('img').getAttribute('src')).toMatch(/^data:image\/gif/);
    await page.screenshot({ path: `${SHOTS}/${prefix}-snapshot.png` });
  }

  it('plays to the end by keyboard at 1280 px, in the brand, with no request', async () => {
    const { page, requests, problems } = await open({ width: 1280, height: 800 }, false);
    await expect.poll(() => heading(page).textContent()).toBe('Welcome to Acme');
    expect(await page.title()).toMatch(/^Acme invoicing tour · /);
    expect(await page.locator('.ds-cover').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(14, 147, 132)');
    expect(await page.locator('img.ds-logo, img.ds-card-logo').first().getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await page.screenshot({ path: `${SHOTS}/offline-1280-cover.png` });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Start the tour');
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page).textContent()).toBe('What would you like to see?');
    await page.screenshot({ path: `${SHOTS}/offline-1280-menu.png` });
    await page.keyboard.press('Enter'); // the Invoicing card (focused)
    await expect.poll(() => heading(page).textContent()).toBe('Step 3');
    await expect.poll(() => page.locator('img.ds-shot').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    await page.screenshot({ path: `${SHOTS}/offline-1280-step.png` });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => heading(page).textContent()).toBe('The sign-up page');
    await snapshotStep(page, 'offline-1280');
    await page.keyboard.press('ArrowRight'); // the chapter's end: back to its menu, ticked
    await expect.poll(() => heading(page).textContent()).toBe('What would you like to see?');
    await expect.poll(() => page.locator('.ds-menu-seen').count()).toBe(1);
    await page.getByRole('button', { name: 'Continue' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page).textContent()).toBe('Where should we send the details?');
    await expect.poll(() => page.locator('.ds-form-note').textContent()).toMatch(/offline copy.*not sent/);
    await page.keyboard.type('ada@example.com');
    await page.screenshot({ path: `${SHOTS}/offline-1280-form.png` });
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page).textContent()).toBe('Thanks, ada@example.com!');
    expect(await page.getByRole('link', { name: 'Book a meeting' }).getAttribute('href')).toBe('https://example.com/book');
    await page.screenshot({ path: `${SHOTS}/offline-1280-end.png` });
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('plays to the end by taps at 390 px', async () => {
    const { page, requests, problems } = await open({ width: 390, height: 844 }, true);
    await expect.poll(() => heading(page).textContent()).toBe('Welcome to Acme');
    await page.screenshot({ path: `${SHOTS}/offline-390-cover.png` });
    await page.getByRole('button', { name: 'Start the tour' }).tap();
    await page.getByRole('button', { name: /Invoicing/ }).tap();
    await expect.poll(() => heading(page).textContent()).toBe('Step 3');
    await expect.poll(() => page.locator('img.ds-shot').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    await page.screenshot({ path: `${SHOTS}/offline-390-step.png` });
    await page.locator('.ds-hotspot').tap();
    await expect.poll(() => heading(page).textContent()).toBe('The sign-up page');
    await snapshotStep(page, 'offline-390');
    await page.locator('.ds-hotspot').tap();
    await page.getByRole('button', { name: 'Continue' }).tap();
    await page.getByLabel(/Work e-mail/).fill('grace@example.com');
    await page.screenshot({ path: `${SHOTS}/offline-390-form.png` });
    await page.getByRole('button', { name: 'Send' }).tap();
    await expect.poll(() => heading(page).textContent()).toBe('Thanks, grace@example.com!');
    await page.screenshot({ path: `${SHOTS}/offline-390-end.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    console.log(`offline file of a 6-step story with a snapshot: ${(size / 1024).toFixed(1)} KB`);
  });

  it('with the beacon, an online file counts its view on the link, posting to the instance alone', async () => {
    const share = await createShare(t, key, demoId, { name: 'Offline copies' });
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/export/offline?beacon=true&share_id=${share.id}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const file = save('with beacon.html', res.rawPayload);
    const { page, requests, problems } = await open({ width: 1280, height: 800 }, false, file, t.url);
    await expect.poll(() => heading(page).textContent()).toBe('Welcome to Acme');
    await page.getByRole('button', { name: 'Start the tour' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel(/Work e-mail/).fill('lin@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('Thanks, lin@example.com!');
    // The events reach the server from file:// (a simple text/plain request, Access-Control-Allow-Origin *).
    const views = async () => {
      const list = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: bearer(key) });
      return (list.json().data as Array<{ share_id: string; completed: boolean; steps_viewed: number[] }>).filter((v) => v.share_id === share.id);
    };
    await expect.poll(async () => (await views())[0]?.completed, { timeout: 15_000 }).toBe(true);
    expect(await views()).toHaveLength(1);
    expect((await views())[0]!.steps_viewed).toEqual([1, 2, 5, 6]);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((url) => url === `${t.url}/v1/viewer/${share.token}/offline-events`)).toBe(true);
    expect(problems).toEqual([]);
  });

  it('with beacon=ask, sends and stores nothing until the viewer allows it, and remembers a refusal', async () => {
    const share = await createShare(t, key, demoId, { name: 'Offline copies, asked' });
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/export/offline?beacon=ask&share_id=${share.id}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const file = save('asking beacon.html', res.rawPayload);
    const views = async () => {
      const list = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: bearer(key) });
      return (list.json().data as Array<{ share_id: string; steps_viewed: number[] }>).filter((v) => v.share_id === share.id);
    };
    const stored = (page: Page) => page.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) }));

    // Asked at once, in a bar that leaves the demo playable; meanwhile no request and nothing stored.
    const asked = await open({ width: 1280, height: 800 }, false, file, t.url);
    const bar = asked.page.getByRole('region', { name: 'Viewing statistics' });
    // It names the sender as the file's brand does (the workspace's name, as in the page's title).
    const sender = (await asked.page.title()).split(' · ')[1]!;
    expect(sender.length).toBeGreaterThan(0);
    await expect.poll(() => bar.textContent()).toContain(`May this copy tell ${sender} how it is viewed?`);
    expect(await bar.textContent()).toContain('never what you type');
    await asked.page.getByRole('button', { name: 'Start the tour' }).click();
    await expect.poll(() => heading(asked.page).textContent()).toBe('What would you like to see?');
    await asked.page.screenshot({ path: `${SHOTS}/offline-1280-beacon-ask.png` });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(asked.requests).toEqual([]);
    expect(await stored(asked.page)).toEqual({ local: [], session: [] });
    // Allowed: what was seen so far goes, then the rest, on the link; the answer is kept on the device.
    await bar.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => bar.count()).toBe(0);
    await expect.poll(async () => (await views())[0]?.steps_viewed, { timeout: 15_000 }).toEqual([1, 2]);
    expect(asked.requests.every((url) => url === `${t.url}/v1/viewer/${share.token}/offline-events`)).toBe(true);
    // The session is kept once the page has read the answer, which can come after the server stored the view.
    await expect.poll(async () => (await stored(asked.page)).local.sort()).toEqual([`demoshare:offline-consent:${t.url}/v1/viewer/${share.token}/offline-events`, `demoshare:offline-session:${t.url}/v1/viewer/${share.token}/offline-events`].sort());
    // Opened again on that device: not asked again, and it still counts.
    await asked.page.reload();
    await expect.poll(() => heading(asked.page).textContent()).toBe('Welcome to Acme');
    expect(await bar.count()).toBe(0);
    expect(asked.problems).toEqual([]);

    // Another device refuses: nothing is sent, then or when the file is opened again, and it is not asked again.
    const refused = await open({ width: 390, height: 844 }, true, file, t.url);
    const barThere = refused.page.getByRole('region', { name: 'Viewing statistics' });
    await expect.poll(() => barThere.count()).toBe(1);
    await refused.page.screenshot({ path: `${SHOTS}/offline-390-beacon-ask.png` });
    await barThere.getByRole('button', { name: 'No thanks' }).tap();
    await expect.poll(() => barThere.count()).toBe(0);
    await refused.page.getByRole('button', { name: 'Start the tour' }).tap();
    await refused.page.reload();
    await expect.poll(() => heading(refused.page).textContent()).toBe('Welcome to Acme');
    expect(await barThere.count()).toBe(0);
    await refused.page.getByRole('button', { name: 'Start the tour' }).tap();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(refused.requests).toEqual([]);
    expect((await stored(refused.page)).local).toEqual([`demoshare:offline-consent:${t.url}/v1/viewer/${share.token}/offline-events`]);
    expect(await views()).toHaveLength(1);
    expect(refused.problems).toEqual([]);

    // Refused in the middle of a visit: what was held is dropped and the tracker stops retrying (before, it
    // tried again every few seconds, then every 30 s, for as long as the page stayed open). The page's
    // timers are recorded to see it: the tracker's retries are its only ones of 2 s or more here.
    const midway = await open({ width: 1280, height: 800 }, false, file, t.url, () => {
      const delays: number[] = [];
      (window as unknown as { delays: number[] }).delays = delays;
      const original = window.setTimeout;
      window.setTimeout = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
        delays.push(delay ?? 0);
        return original(handler, delay, ...rest);
      }) as typeof window.setTimeout;
    });
    const barMidway = midway.page.getByRole('region', { name: 'Viewing statistics' });
    await midway.page.getByRole('button', { name: 'Start the tour' }).click();
    await expect.poll(() => heading(midway.page).textContent()).toBe('What would you like to see?');
    // While the viewer has not answered, the events wait and are retried (the first retry is 2 s away).
    await expect.poll(() => midway.page.evaluate(() => (window as unknown as { delays: number[] }).delays.some((d) => d >= 2000))).toBe(true);
    await barMidway.getByRole('button', { name: 'No thanks' }).click();
    await midway.page.evaluate(() => (window as unknown as { delays: number[] }).delays.splice(0));
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(await midway.page.evaluate(() => (window as unknown as { delays: number[] }).delays.filter((d) => d >= 2000))).toEqual([]);
    expect(midway.requests).toEqual([]);
    expect(midway.problems).toEqual([]);
    expect(await views()).toHaveLength(1);
  });

  it('the editor’s Export dialog says the file’s size before the download, and why not when it cannot', async () => {
    // Counting views needs a link of the demo: this test makes its own rather than lean on the earlier tests'.
    await createShare(t, key, demoId, { name: 'Offline copies from the dialog' });
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const { context, page } = await signedInPage(browser!, t.url, admin, { width, height });
      contexts.push(context);
      await page.goto(`${t.url}/demos/${demoId}`);
      await page.getByRole('button', { name: 'More' }).click();
      await page.getByRole('menuitem', { name: 'Export' }).click();
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Offline HTML' }) });
      await expect.poll(() => section.getByText(/ · version 1$/).textContent(), { timeout: 15_000 }).toMatch(/^\d+ KB · version 1$/);
      const link = section.getByRole('link', { name: 'Download offline file' });
      expect(await link.getAttribute('href')).toBe(`/v1/demos/${demoId}/export/offline`);
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/offline-export-${width}.png` });
      const download = page.waitForEvent('download');
      await link.click();
      expect((await download).suggestedFilename()).toBe('acme-invoicing-tour-v1-offline.html');
      // Counting views asks the viewer first unless told otherwise.
      await section.getByLabel('Count views when the file is online').check();
      await expect.poll(() => link.getAttribute('href')).toBe(`/v1/demos/${demoId}/export/offline?beacon=ask`);
      expect(await section.getByLabel('Ask the viewer first').isChecked()).toBe(true);
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/offline-export-${width}-beacon.png` });
      await section.getByLabel('Ask the viewer first').uncheck();
      await expect.poll(() => link.getAttribute('href')).toBe(`/v1/demos/${demoId}/export/offline?beacon=true`);
    }
    // A demo never published says so instead of a link.
    const draft = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'Draft tour', type: 'interactive' } });
    const { context, page } = await signedInPage(browser!, t.url, admin, { width: 1280, height: 900 });
    contexts.push(context);
    await page.goto(`${t.url}/demos/${draft.json().data.id}`);
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Export' }).click();
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Offline HTML' }) });
    await expect.poll(() => section.locator('.alert').textContent()).toMatch(/never been published/);
    expect(await section.getByRole('link').count()).toBe(0);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/offline-export-never-published.png` });
  });
});
