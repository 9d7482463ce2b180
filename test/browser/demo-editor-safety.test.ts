import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { fixtureGenerator } from '../helpers/demos';
import { startTestServer, type TestServer } from '../helpers/server';
import { demoWithSteps } from '../helpers/shares';
import { bearer, type TestSession, uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

type DemoRead = {
  status: string;
  steps: { id: string; title: string; description: string; image_url: string | null; edited_at: string | null }[];
  hotspots: { id: string; step_id: string; x: number; y: number; width: number; height: number }[];
};

describe.skipIf(!browser)('the demo editor: no destructive surprises, and room to work (Chromium, 1280×800)', () => {
  let server: TestServer;
  let editor: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ jobs: true, generator: fixtureGenerator(3) });
    mkdirSync(SHOTS, { recursive: true });
    editor = await server.signUp(uniqueEmail('ada'));
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

  async function open(path: string): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, editor, { width: 1280, height: 800 });
    contexts.push(context);
    await page.goto(`${server.url}${path}`);
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    return page;
  }

  it('asks before regenerating and keeps the step edited by hand', async () => {
    const created = await api('POST', '/v1/demos', { title: 'Pricing tour', source_url: 'https://example.com/pricing', generate_with_ai: true });
    const id = created.json().data.id as string;
    const generated = await until(
      () => read(id),
      (d) => d.status === 'draft',
    );
    const page = await open(`/demos/${id}`);
    await page.getByRole('button', { name: /^2\. / }).click();
    const stepTitle = page.getByLabel('Step title');
    await stepTitle.fill('My own words');
    await stepTitle.press('Enter');
    await until(
      () => read(id),
      (d) => d.steps[1]!.edited_at !== null,
    );

    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Regenerate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate this demo again?' });
    await dialog.getByText('The steps nobody edited are replaced.').waitFor();
    const keep = dialog.getByLabel('Keep the step you made or edited');
    expect(await keep.isChecked()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-regenerate-dialog.png` });
    await dialog.getByRole('button', { name: 'Regenerate' }).click();

    const after = await until(
      () => read(id),
      (d) => d.status === 'draft' && d.steps.filter((s) => !generated.steps.some((g) => g.id === s.id)).length === 2,
    );
    // No fresh copy of the kept step (same page, same element): three steps, as before.
    expect(after.steps).toHaveLength(3);
    expect(after.steps[1]).toMatchObject({ id: generated.steps[1]!.id, title: 'My own words' });
    expect(after.steps.filter((s) => generated.steps.some((g) => g.id === s.id))).toHaveLength(1);
    await page.getByRole('button', { name: /^2\. My own words/ }).waitFor();
  });

  it('deletes a step with an Undo in its notice, and Undo brings it back with its image and hotspot', async () => {
    const id = await demoWithSteps(server, key, 3, false);
    const before = await read(id);
    const page = await open(`/demos/${id}`);
    await page.getByRole('button', { name: 'Delete step 2' }).click();
    const toast = page.locator('.toast', { hasText: 'Step 2 deleted' });
    await toast.waitFor();
    expect(await page.getByRole('button', { name: /^\d\. Step 2/ }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/editor-step-deleted-undo.png` });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: /^2\. Step 2/ }).waitFor();

    // Without Undo the deletion happens once the notice has gone.
    await page.getByRole('button', { name: 'Delete step 3' }).click();
    const gone = await until(
      () => read(id),
      (d) => d.steps.length === 2,
    );
    expect(gone.steps.map((s) => s.id)).toEqual([before.steps[0]!.id, before.steps[1]!.id]);
    expect(gone.steps[1]!.image_url).toBe(before.steps[1]!.image_url);
    expect(gone.hotspots.filter((h) => h.step_id === before.steps[1]!.id)).toHaveLength(1);
  });

  it('undoes and redoes a text edit and a hotspot move with the keyboard, and places a hotspot with the arrows', async () => {
    const id = await demoWithSteps(server, key, 2, false);
    const { hotspots } = await read(id);
    const first = hotspots[0]!;
    const page = await open(`/demos/${id}`);

    const stepTitle = page.getByLabel('Step title');
    await stepTitle.fill('Start here');
    await stepTitle.press('Enter');
    await until(
      () => read(id),
      (d) => d.steps[0]!.title === 'Start here',
    );
    await page.getByRole('button', { name: 'Undo', exact: true }).and(page.locator(':enabled')).waitFor();
    await page.keyboard.press('Control+z');
    await until(
      () => read(id),
      (d) => d.steps[0]!.title === 'Step 1',
    );
    await page.keyboard.press('Control+Shift+z');
    await until(
      () => read(id),
      (d) => d.steps[0]!.title === 'Start here',
    );

    // Select the hotspot; arrows move it by 1%, Shift+arrows resize it; saved once the keys pause.
    await page.locator(`[data-hotspot-id="${first.id}"]`).click();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    const moved = await until(
      () => read(id),
      (d) => Math.abs(d.hotspots.find((h) => h.id === first.id)!.x - 0.13) < 1e-6,
    );
    expect(moved.hotspots.find((h) => h.id === first.id)!.height).toBeCloseTo(0.21, 6);
    await page.screenshot({ path: `${SHOTS}/editor-hotspot-nudged.png` });

    await page.keyboard.press('Control+z');
    await until(
      () => read(id),
      (d) => Math.abs(d.hotspots.find((h) => h.id === first.id)!.x - 0.1) < 1e-6,
    );
    await page.keyboard.press('Control+y');
    await until(
      () => read(id),
      (d) => Math.abs(d.hotspots.find((h) => h.id === first.id)!.x - 0.13) < 1e-6,
    );
  });

  it('gives the canvas room at 1280 px, with collapsible panels, zoom and a title that wraps', async () => {
    const id = await demoWithSteps(server, key, 2, false);
    const long = 'Onboarding walkthrough for enterprise administrators configuring single sign-on';
    await api('PATCH', `/v1/demos/${id}`, { title: long });
    const page = await open(`/demos/${id}`);
    const canvasWidth = async () => (await page.locator('.canvas').boundingBox())!.width;
    const byDefault = await canvasWidth();
    expect(byDefault).toBeGreaterThanOrEqual(500);
    await page.screenshot({ path: `${SHOTS}/editor-1280-default.png` });

    await page.getByRole('button', { name: 'Hide steps' }).click();
    await page.getByRole('button', { name: 'Hide settings' }).click();
    const collapsed = await canvasWidth();
    expect(collapsed).toBeGreaterThanOrEqual(900);
    await page.screenshot({ path: `${SHOTS}/editor-1280-panels-hidden.png` });

    // Zoom: 100% is the step's own pixels (8 px wide here), + and − step from there, Fit fills the stage.
    await page.getByRole('button', { name: 'Zoom to 100%' }).click();
    expect(await canvasWidth()).toBeCloseTo(8, 0);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await page.locator('.zoom-level').textContent()).toBe('125%');
    await page.getByRole('button', { name: 'Fit to the stage' }).click();
    expect(await canvasWidth()).toBeCloseTo(collapsed, 0);
    // The panels stay as they were left, in this browser.
    await page.reload();
    await page.getByRole('button', { name: 'Show steps' }).waitFor();

    const title = page.getByRole('textbox', { name: 'Demo title' });
    expect(await title.getAttribute('title')).toBe(long);
    const fits = await title.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1);
    expect(fits).toBe(true);
  });

  it('keeps typed text across a reload and reports each save once, quietly', async () => {
    const id = await demoWithSteps(server, key, 1, false);
    const page = await open(`/demos/${id}`);

    const description = page.getByLabel('Step description');
    await description.fill('Half-written thought');
    // The draft is in localStorage before the page goes. The editor asks "Leave site?" while text is unsaved; a
    // user who reloads confirms it. Unhandled, Playwright dismisses that prompt, which cancels the reload: one
    // CI run failed here with the notice never shown.
    await page.waitForFunction(() => Object.values({ ...localStorage }).includes('Half-written thought'));
    const confirmLeaving = (dialog: Dialog) => void dialog.accept();
    page.on('dialog', confirmLeaving);
    await page.reload();
    page.off('dialog', confirmLeaving);
    await page.getByText('Text you had not saved was brought back').waitFor();
    expect(await page.getByLabel('Step description').inputValue()).toBe('Half-written thought');
    await page.screenshot({ path: `${SHOTS}/editor-draft-restored.png` });

    // Leaving the field saves it: one quiet "All changes saved", no pile of toasts.
    await page.getByLabel('Step description').click();
    await page.getByLabel('Step title').click();
    await page.getByTestId('save-indicator').getByText('All changes saved').waitFor();
    expect((await read(id)).steps[0]!.description).toBe('Half-written thought');
    const title = page.getByLabel('Step title');
    await title.fill('Only once');
    await title.press('Enter');
    await until(
      () => read(id),
      (d) => d.steps[0]!.title === 'Only once',
    );
    await page.waitForTimeout(300);
    expect(await page.locator('.toast').count()).toBe(0);
    expect(await page.getByText('All changes saved').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/editor-saved-indicator.png` });
  });

  it('sets the badge, navigation and autoplay of the player from the settings panel', async () => {
    const id = await demoWithSteps(server, key, 1, false);
    const page = await open(`/demos/${id}`);
    const config = async () => (await api('GET', `/v1/demos/${id}`)).json().data.configuration;
    await page.getByLabel('Show the “Made with Demoshare” badge').click();
    await until(config, (c) => c.branding.show_badge === false);
    await page.getByLabel('Arrow keys move between steps').click();
    await until(config, (c) => c.navigation.keyboard === false);
    await page.getByLabel('Play by itself').click();
    await page.getByLabel('Seconds on each step').selectOption('8');
    const done = await until(config, (c) => c.autoplay.delay_seconds === 8);
    expect(done).toMatchObject({ autoplay: { enabled: true, delay_seconds: 8 }, navigation: { buttons: true, keyboard: false } });
    await page.locator('.editor-inspector').screenshot({ path: `${SHOTS}/editor-player-settings.png` });
  });
});
