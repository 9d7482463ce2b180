import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, viewerClient } from '../helpers/shares';
import { type TestSession, uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('publishing a demo’s changes and its versions in the editor (Chromium)', () => {
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

  async function open(path: string): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, editor, { width: 1400, height: 900 });
    contexts.push(context);
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it('keeps viewers on the published version, publishes the changes, lists versions and restores one', async () => {
    const demoId = await demoWithSteps(server, key, 3);
    const share = await createShare(server, key, demoId);
    const viewer = viewerClient(server, share.token);
    await viewer.call('GET', '');
    const played = async () => (await viewer.call('GET', '/demo')).json().data;

    const page = await open(`/demos/${demoId}`);
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    // Nothing to publish yet.
    expect(await page.getByRole('button', { name: 'Publish changes' }).count()).toBe(0);
    expect(await page.getByText('Unpublished changes', { exact: true }).count()).toBe(0);

    // An edit of the published demo is a draft edit: the header says so, viewers see nothing of it.
    const stepTitle = page.getByLabel('Step title');
    await stepTitle.fill('Start on the pricing page');
    await stepTitle.press('Enter');
    await page.getByRole('button', { name: 'Publish changes' }).waitFor();
    await page.getByText('Unpublished changes', { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/demo-versions-unpublished.png` });
    expect((await played()).steps[0].title).toBe('Step 1');

    await page.getByRole('button', { name: 'Publish changes' }).click();
    await page.getByText('Changes published').waitFor();
    await page.getByRole('button', { name: 'Publish changes' }).waitFor({ state: 'detached' });
    expect(await page.getByText('Unpublished changes', { exact: true }).count()).toBe(0);
    const now = await played();
    expect(now.version).toBe(2);
    expect(now.steps[0].title).toBe('Start on the pricing page');

    // The history: two publishes, the newest live, with who published them.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Versions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions' });
    await dialog.getByText('Version 2').waitFor();
    const items = dialog.getByRole('listitem');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toContain('Live');
    expect(await items.nth(0).textContent()).toContain(editor.email);
    expect(await items.nth(1).textContent()).toContain('Version 1');
    await page.screenshot({ path: `${SHOTS}/demo-versions-list.png` });

    // Restore version 1 into the draft: asked first, then the draft has the old title, viewers keep v2.
    await dialog.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('dialog', { name: 'Restore version 1?' }).getByRole('button', { name: 'Restore into the draft' }).click();
    await page.getByText(/Version 1 restored into the draft/).waitFor();
    await page.getByText('Unpublished changes', { exact: true }).waitFor();
    await expect.poll(() => page.getByLabel('Step title').inputValue()).toBe('Step 1');
    expect((await played()).steps[0].title).toBe('Start on the pricing page');
    await page.screenshot({ path: `${SHOTS}/demo-versions-restored.png` });

    // Discarding the restored draft goes back to the live version 2.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Discard changes' }).click();
    await page.getByRole('dialog', { name: 'Discard the unpublished changes?' }).getByRole('button', { name: 'Discard changes' }).click();
    await page.getByText('Unpublished changes', { exact: true }).waitFor({ state: 'detached' });
    await expect.poll(() => page.getByLabel('Step title').inputValue()).toBe('Start on the pricing page');
  });
});
