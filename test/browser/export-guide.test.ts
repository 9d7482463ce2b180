import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { caller, seedGuideDemo } from '../helpers/guide-demo';
import { startTestServer, type TestServer } from '../helpers/server';
import { type TestSession, uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('the Export dialog’s written guide (Chromium)', () => {
  let server: TestServer;
  let editor: TestSession;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    editor = await server.signUp(uniqueEmail('writer'));
    demoId = await seedGuideDemo(caller(server, await server.apiKey('all', editor)));
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
  });

  async function openExport(width: number): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, editor, { width, height: 900 }, { acceptDownloads: true });
    contexts.push(context);
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Export' }).click();
    await page.getByRole('dialog', { name: 'Export' }).getByRole('heading', { name: 'Written guide' }).waitFor();
    return page;
  }

  it('downloads the PDF and the Markdown zip; the published version is offered only once published', async () => {
    const page = await openExport(1280);
    const dialog = page.getByRole('dialog', { name: 'Export' });
    const section = dialog.locator('section', { has: page.getByRole('heading', { name: 'Written guide' }) });
    // Never published: the draft is chosen, the published version cannot be.
    expect(await section.getByRole('radio', { name: 'Draft (what you are editing)' }).isChecked()).toBe(true);
    expect(await section.getByRole('radio', { name: 'Published version (not published yet)' }).isDisabled()).toBe(true);
    expect(await section.getByRole('radio', { name: 'PDF document' }).isChecked()).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/export-guide-1280.png` });

    const [pdf] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download guide' }).click()]);
    expect(pdf.suggestedFilename()).toBe('acme-invoicing-guide.pdf');
    expect(readFileSync((await pdf.path())!).subarray(0, 5).toString()).toBe('%PDF-');

    await section.getByRole('radio', { name: 'Markdown with images (.zip)' }).check();
    const [zip] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download guide' }).click()]);
    expect(zip.suggestedFilename()).toBe('acme-invoicing-guide.zip');
    expect(readFileSync((await zip.path())!).subarray(0, 2).toString()).toBe('PK');
  });

  it('reads at phone width', async () => {
    const page = await openExport(390);
    await page
      .getByRole('dialog', { name: 'Export' })
      .getByRole('button', { name: 'Download guide' })
      .scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/export-guide-390.png` });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
