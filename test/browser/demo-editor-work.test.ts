import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdRequests, launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { demoWithSteps } from '../helpers/shares';
import { bearer, type TestSession, uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

type DemoRead = {
  status: string;
  has_unpublished_changes: boolean;
  published_version: number | null;
  steps: { id: string; title: string; description: string; image_url: string | null }[];
};

describe.skipIf(!browser)('the demo editor never loses work or a click (Chromium, 1280×800)', () => {
  let server: TestServer;
  let editor: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    editor = await server.signUp(uniqueEmail('grace'));
    key = await server.apiKey('all', editor);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
  });

  const api = (method: string, url: string, payload?: object) =>
    server.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const read = async (id: string) => (await api('GET', `/v1/demos/${id}`)).json().data as DemoRead;

  async function until<T>(get: () => Promise<T>, ok: (value: T) => boolean, tries = 150): Promise<T> {
    for (let i = 0; i < tries; i++) {
      const value = await get();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('condition never held');
  }

  async function open(path: string, context?: BrowserContext): Promise<Page> {
    let page: Page;
    if (context) page = await context.newPage();
    else {
      const opened = await signedInPage(browser!, server.url, editor, { width: 1280, height: 800 });
      contexts.push(opened.context);
      page = opened.page;
    }
    await page.goto(`${server.url}${path}`);
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    return page;
  }

  it('publishes after the save that clicking Publish starts, for Publish and for Publish changes', async () => {
    const id = await demoWithSteps(server, key, 2, false);
    const page = await open(`/demos/${id}`);
    // The save of the field left by the click is held until after the click: the old editor disabled
    // Publish while it ran, and the click was lost.
    const held = await holdRequests(page, /\/v1\/demos\/[^/]+\/steps\/[^/]+$/);
    await page.getByLabel('Step title').fill('Welcome aboard');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await held.requested;
    await page.screenshot({ path: `${SHOTS}/editor-publish-waits-for-save.png` });
    held.release();
    const published = await until(
      () => read(id),
      (d) => d.status === 'published',
    );
    expect(published.steps[0]!.title).toBe('Welcome aboard');
    expect(published.has_unpublished_changes).toBe(false);
    await page.locator('.toast', { hasText: 'Demo published' }).waitFor();
    await page.unroute(/\/v1\/demos\/[^/]+\/steps\/[^/]+$/);

    // Published with changes: type, then click "Publish changes" straight away.
    await page.getByLabel('Step description').fill('First version');
    await page.getByLabel('Step title').click();
    await page.getByRole('button', { name: 'Publish changes' }).waitFor();
    const again = await holdRequests(page, /\/v1\/demos\/[^/]+\/steps\/[^/]+$/);
    await page.getByLabel('Step description').fill('Second version');
    await page.getByRole('button', { name: 'Publish changes' }).click();
    await again.requested;
    again.release();
    const live = await until(
      () => read(id),
      (d) => d.published_version === 2 && !d.has_unpublished_changes,
    );
    expect(live.steps[0]!.description).toBe('Second version');
    await page.locator('.toast', { hasText: 'Changes published' }).waitFor();
    expect(await page.getByTestId('save-indicator').textContent()).not.toBe('Not saved');

    // A hotspot nudged with the arrows (saved half a second after the last press) and Publish at once.
    await page.getByLabel('Step description').fill('Third version');
    await page.getByLabel('Step title').click();
    await page.getByRole('button', { name: 'Publish changes' }).waitFor();
    const hotspot = page.locator('[data-hotspot-id]').first();
    const hotspotId = await hotspot.getAttribute('data-hotspot-id');
    await hotspot.click();
    // The arrows move a hotspot when no text field has the focus.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('ArrowRight');
    await page.getByRole('button', { name: 'Publish changes' }).click();
    const nudged = await until(
      () => api('GET', `/v1/demos/${id}`).then((r) => r.json().data),
      (d) => d.published_version === 3 && !d.has_unpublished_changes,
    );
    expect(nudged.hotspots.find((h: { id: string }) => h.id === hotspotId).x).toBeCloseTo(0.11, 6);
  });

  it('says "Unsaved changes…" while typing, keeps the text when the tab closes, and warns before leaving', async () => {
    const id = await demoWithSteps(server, key, 1, false);
    const page = await open(`/demos/${id}`);
    const indicator = page.getByTestId('save-indicator');
    await page.getByLabel('Step description').fill('A thought half typed');
    // The cue comes with the next render after the keystrokes: polled, not read at once.
    await expect.poll(() => indicator.textContent()).toBe('Unsaved changes…');
    await page.locator('.editor-header').screenshot({ path: `${SHOTS}/editor-unsaved-cue.png` });

    // Leaving the page with unsaved text asks first.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    // Dismissed: the page stayed. Now it goes, text unsaved.
    await page.close();

    // Closed without saving: a new tab of the same browser brings the text back, and saves it on leaving the field.
    const again = await open(`/demos/${id}`, contexts.at(-1));
    await again.getByText('Text you had not saved was brought back').waitFor();
    expect(await again.getByLabel('Step description').inputValue()).toBe('A thought half typed');
    await again.screenshot({ path: `${SHOTS}/editor-draft-after-tab-closed.png` });
    expect((await read(id)).steps[0]!.description).toBe('Look at part 1');
    await again.getByLabel('Step description').click();
    await again.getByLabel('Step title').click();
    await again.getByTestId('save-indicator').getByText('All changes saved').waitFor();
    expect((await read(id)).steps[0]!.description).toBe('A thought half typed');
    // The backup goes once the reloaded demo holds the text, which may come just after the indicator.
    await expect
      .poll(() => again.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('demoshare:draft:'))), { timeout: 10_000 })
      .toEqual([]);
  });

  it('scrolls a long step list on its own, the canvas staying on screen, and keeps the header on one line', async () => {
    const id = await demoWithSteps(server, key, 14, true);
    await api('PATCH', `/v1/demos/${id}`, { title: 'Onboarding walkthrough for enterprise administrators configuring single sign-on' });
    const steps = (await read(id)).steps;
    await api('PATCH', `/v1/demos/${id}/steps/${steps[0]!.id}`, { title: 'Changed since publishing' });
    const page = await open(`/demos/${id}`);
    await page.getByRole('button', { name: 'Publish changes' }).waitFor();

    await page.screenshot({ path: `${SHOTS}/editor-header-long-title.png` });
    // Every header button on one row, beside the title (which wraps between words, under 3 lines here).
    const tops = await page.locator('.editor-actions > *').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    const header = (await page.locator('.editor-header').boundingBox())!;
    const actions = (await page.locator('.editor-actions').boundingBox())!;
    expect(actions.y).toBeLessThan(header.y + 40);
    expect(header.height).toBeLessThan(150);
    await page.getByRole('button', { name: 'More' }).click();
    const menu = page.getByRole('menu', { name: 'More actions' });
    for (const item of ['Versions', 'Discard changes', 'Unpublish', 'Archive', 'Delete']) await menu.getByRole('menuitem', { name: item }).waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-header-1280.png` });
    await page.keyboard.press('Escape');
    expect(await menu.count()).toBe(0);

    // The wheel over the step list scrolls the list, not the page.
    const list = page.locator('.step-list');
    await list.hover();
    await page.mouse.wheel(0, 2500);
    await until(
      () => list.evaluate((el) => el.scrollTop),
      (top) => top > 0,
    );
    // At most the page's top (the banner, the header) scrolls away; the list, canvas and settings stay.
    const inView = async (selector: string) => {
      const box = (await page.locator(selector).boundingBox())!;
      return box.y >= 0 && box.y + box.height <= 801;
    };
    expect(await inView('.canvas')).toBe(true);
    expect(await inView('.step-list')).toBe(true);
    await page.getByRole('button', { name: /^14\. / }).click();
    await until(
      () => page.getByLabel('Step title').inputValue(),
      (v) => v === 'Step 14',
    );
    expect(await inView('.canvas')).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-long-step-list.png` });
  });

  it('shows what changed since a version, and offers no Restore on the live one', async () => {
    const id = await demoWithSteps(server, key, 3, true);
    const { steps } = await read(id);
    await api('PATCH', `/v1/demos/${id}/steps/${steps[1]!.id}`, { title: 'Pricing, in plain words' });
    await api('PUT', `/v1/demos/${id}/steps`, { steps: [steps[0]!.id, steps[1]!.id, { title: 'A new ending' }] });
    await api('POST', `/v1/demos/${id}/publish`);
    await api('PATCH', `/v1/demos/${id}/steps/${steps[0]!.id}`, { description: 'Draft words' });
    const page = await open(`/demos/${id}`);
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions' });
    await dialog.getByRole('button', { name: 'Compare version 2' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Restore version 2' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Restore version 1' }).waitFor();

    await dialog.getByRole('button', { name: 'Compare version 1' }).click();
    const diff = page.getByRole('dialog', { name: 'What changed since version 1' });
    const changes = diff.getByRole('list', { name: 'Step changes' });
    await changes.waitFor();
    const lines = await changes.locator('li').evaluateAll((els) => els.map((el) => [el.getAttribute('data-change'), el.textContent]));
    expect(lines.map(([change]) => change)).toEqual(['changed', 'changed', 'removed', 'added']);
    expect(lines[1]![1]).toContain('Pricing, in plain words');
    await diff.locator('del', { hasText: 'Step 2' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/versions-diff-draft.png` });

    // Against the live version (2), the draft's own edit is not part of it.
    await diff.getByRole('button', { name: 'Live version 2' }).click();
    await diff.getByText('From version 1 to version 2 (live)').waitFor();
    expect(await diff.locator('li[data-change="changed"]').count()).toBe(1);
  });

  it('says why an image was refused, and leaves no "Not saved" behind', async () => {
    const id = await demoWithSteps(server, key, 1, false);
    const page = await open(`/demos/${id}`);
    await page.getByLabel('Image for this step').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    const toast = page.locator('.toast', { hasText: /PNG, JPEG or WebP/ });
    await toast.waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-upload-refused.png` });
    expect(await page.getByTestId('save-indicator').textContent()).not.toBe('Not saved');
    expect((await read(id)).steps[0]!.image_url).not.toBeNull();
  });
});
