import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { blockingGenerator, fixtureResult } from '../helpers/demos';
import { startTestServer, type TestServer } from '../helpers/server';
import { uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('demos in the web app (Chromium)', () => {
  let server: TestServer;
  const generation = blockingGenerator(() => fixtureResult('https://example.com/pricing', 3, 'Acme pricing'));

  beforeAll(async () => {
    server = await startTestServer({ jobs: true, generator: generation.generator });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    generation.release();
    await browser?.close();
    await server?.close();
  });

  /** Reads the demo through the API with the page's own session cookie. */
  const readDemo = (page: Page, id: string) =>
    page.evaluate(async (demoId) => (await (await fetch(`/v1/demos/${demoId}`)).json()).data, id);

  async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 100; i++) {
      const value = await read();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('condition never held');
  }

  it('generates a demo from an address with live progress, edits a step, moves a hotspot and publishes', async () => {
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);

    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Work e-mail').fill(uniqueEmail('grace'));
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByLabel('Workspace name').fill('Acme');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/demos');
    await page.getByRole('heading', { name: 'No demos yet' }).waitFor();

    await page.getByRole('button', { name: 'New demo' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New demo' });
    await dialog.getByLabel('Page address').fill('https://example.com/pricing');
    await dialog.getByRole('button', { name: 'Generate demo' }).click();
    await page.waitForURL(/\/demos\/demo_/);
    const id = new URL(page.url()).pathname.split('/').pop()!;

    // The worker is inside the (held) generator: the page shows progress and keeps polling.
    await page.getByText('Capturing the page and writing the steps…').waitFor();
    await page.screenshot({ path: `${SHOTS}/demo-generating.png` });
    generation.release();
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Demo title' }).inputValue()).toBe('Acme pricing');
    await page.getByRole('button', { name: /^1\. Step 1 of Acme pricing/ }).waitFor();

    // Edit the first step's title inline; it is saved when the field loses focus.
    const stepTitle = page.getByLabel('Step title');
    await stepTitle.fill('Open the pricing page');
    await stepTitle.press('Enter');
    await until(
      () => readDemo(page, id),
      (d) => d.steps[0].title === 'Open the pricing page',
    );

    // Drag the first hotspot to the right and down.
    const before = (await readDemo(page, id)).hotspots.find((h: { step_number: number }) => h.step_number === 1);
    const hotspot = page.locator(`[data-hotspot-id="${before.id}"]`);
    const box = (await hotspot.boundingBox())!;
    const canvas = (await page.locator('.editor-stage .canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + canvas.width * 0.25, box.y + box.height / 2 + canvas.height * 0.1, { steps: 8 });
    await page.mouse.up();
    const moved = await until(
      () => readDemo(page, id),
      (d) => d.hotspots.find((h: { id: string }) => h.id === before.id).x > before.x + 0.2,
    );
    const after = moved.hotspots.find((h: { id: string }) => h.id === before.id);
    expect(after.x).toBeCloseTo(before.x + 0.25, 1);
    expect(after.y).toBeCloseTo(before.y + 0.1, 1);
    expect(after.width).toBeCloseTo(before.width, 5);

    // Reorder: step 2 moves up to first place.
    await page.getByRole('button', { name: 'Move step 2 up' }).click();
    await until(
      () => readDemo(page, id),
      (d) => d.steps[0].title === 'Step 2 of Acme pricing',
    );
    // And by dragging: the last step dropped on the top half of the first goes first.
    const items = page.locator('.step-list li');
    await items.nth(2).dragTo(items.nth(0), { targetPosition: { x: 20, y: 4 } });
    const dragged = await until(
      () => readDemo(page, id),
      (d) => d.steps[0].title === 'Step 3 of Acme pricing',
    );
    expect(dragged.steps.map((s: { title: string }) => s.title)).toEqual([
      'Step 3 of Acme pricing',
      'Step 2 of Acme pricing',
      'Open the pricing page',
    ]);
    await page.getByRole('button', { name: /^1\. Step 3 of Acme pricing/ }).waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.locator('.editor-title').getByText('Published').waitFor();
    expect((await readDemo(page, id)).status).toBe('published');
    await page.screenshot({ path: `${SHOTS}/demo-editor.png`, fullPage: true });

    // The preview plays the steps; a hotspot click moves on.
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: /Preview/ });
    await preview.getByText('1 / 3').waitFor();
    await preview.getByRole('button', { name: 'Next' }).click();
    await preview.getByText('2 / 3').waitFor();
    await page.keyboard.press('Escape');

    // Back on the list: the demo is there with its badge, and the search finds it.
    await page.getByRole('link', { name: '← Demos' }).click();
    await page.getByRole('row', { name: /Acme pricing.*Published/ }).waitFor();
    await page.getByLabel('Search demos').fill('no such demo');
    await page.getByRole('heading', { name: 'No demos match' }).waitFor();
    await page.getByLabel('Search demos').fill('pricing');
    await page.getByRole('row', { name: /Acme pricing/ }).waitFor();
    await page.screenshot({ path: `${SHOTS}/demos-list.png`, fullPage: true });
    await context.close();
  });
});
