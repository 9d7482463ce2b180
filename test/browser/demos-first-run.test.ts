import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationOptions } from '../../src/generation/generation.types';
import { GenerationError } from '../../src/generation/generator';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { waitForDemo } from '../helpers/demos';
import { makeMockupPng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// A generation that fails leaves a draft with no steps: in the list it must not pass for an ordinary empty
// draft, and in the editor its banner is about an empty demo, so it goes once the demo has steps.
describe.skipIf(!browser)('a new user’s first demos: failed generations, addresses and messages (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];
  /** What each generation was asked to do. */
  const asked: GenerationOptions[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      jobs: true,
      generator: async (options) => {
        asked.push(options);
        throw new GenerationError('The page at https://ledgerly.example/ answered 503 Service Unavailable.');
      },
    });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
    const created = await server.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { title: 'Ledgerly tour', type: 'interactive', source_url: 'https://ledgerly.example/', generate_with_ai: true },
    });
    demoId = created.json().data.id;
    const failed = await waitForDemo(server, key, demoId, (d) => d.generation.status === 'failed');
    expect(failed).toMatchObject({ status: 'draft', step_count: 0 });
    await server.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'Hand-made tour', type: 'interactive' } });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    return page;
  }

  const row = (page: Page, title: string) => page.locator('table tbody tr', { hasText: title });

  it('marks it in the list, and its banner goes once the demo has steps', async () => {
    const page = await open();
    await page.goto(`${server.url}/demos`);
    await row(page, 'Ledgerly tour').waitFor();
    expect(await row(page, 'Ledgerly tour').getByText('Generation failed', { exact: true }).count()).toBe(1);
    expect(await row(page, 'Hand-made tour').getByText('Generation failed', { exact: true }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/demos-failed-generation.png`, animations: 'disabled' });

    await row(page, 'Ledgerly tour').getByRole('link').first().click();
    await page.getByText('Generation failed: this demo has no steps yet').waitFor();
    await page.getByText('answered 503 Service Unavailable').waitFor();

    const step = await server.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makeMockupPng(1280, 800),
    });
    expect(step.statusCode).toBe(201);
    await page.reload();
    await page.locator('.step-thumb').first().waitFor();
    expect(await page.getByText('Generation failed: this demo has no steps yet').count()).toBe(0);

    await page.goto(`${server.url}/demos`);
    await row(page, 'Ledgerly tour').waitFor();
    expect(await row(page, 'Ledgerly tour').getByText('Generation failed', { exact: true }).count()).toBe(0);
  });

  it('takes an address without a scheme, states the title limit, and refuses a PDF in words people use', async () => {
    const page = await open();
    await page.goto(`${server.url}/demos`);
    await page.getByRole('button', { name: 'New demo' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New demo' });
    const address = dialog.getByLabel('Page address');
    await address.fill('ledgerly.example/pricing');
    await address.blur();
    expect(await address.inputValue()).toBe('https://ledgerly.example/pricing');
    const title = dialog.getByLabel('Title');
    expect(await title.getAttribute('maxlength')).toBe('200');
    await dialog.getByText('Up to 200 characters.').waitFor();
    await dialog.getByRole('checkbox').uncheck();
    await title.fill('Pricing walkthrough');
    await page.screenshot({ path: `${SHOTS}/new-demo-dialog.png`, animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Create demo' }).click();
    await page.waitForURL(/\/demos\/demo_/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const created = await server.app.inject({ method: 'GET', url: `/v1/demos/${id}`, headers: bearer(key) });
    expect(created.json().data.source_url).toBe('https://ledgerly.example/pricing');

    await page.locator('input[type=file]').first().setInputFiles({
      name: 'brochure.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 not an image'),
    });
    await page.getByText('This kind of file cannot be used here. Use PNG, JPEG or WebP.').waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-refused-pdf.png`, animations: 'disabled' });
  });

  it('passes the capture mode chosen in the New demo dialog to the generation, and refuses an unknown one', async () => {
    const page = await open();
    await page.goto(`${server.url}/demos`);
    await page.getByRole('button', { name: 'New demo' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New demo' });
    await dialog.getByLabel('Page address').fill('https://ledgerly.example/features');
    await dialog.getByLabel('Capture with').selectOption('html');
    await dialog.getByRole('button', { name: 'Generate demo' }).click();
    await page.waitForURL(/\/demos\/demo_/);
    await expect.poll(() => asked.find((o) => o.url === 'https://ledgerly.example/features')?.captureMode).toBe('html');
    // Automatic, the default, leaves the choice to the server.
    expect(asked.find((o) => o.url === 'https://ledgerly.example/')?.captureMode).toBeUndefined();

    const refused = await server.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: 'https://ledgerly.example/', generate_with_ai: true, capture_mode: 'screenshot' },
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().error.details)).toContain('capture_mode');
  });
});
