import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FONT_STACKS } from '../../src/workspaces/branding';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { makePng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';
import { demoWithSteps } from '../helpers/shares';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// An admin brands the workspace in Settings; a viewer then meets the logo, colour and font on the share
// page's gate and in the player, and a new link starts from the workspace's defaults.
describe.skipIf(!browser)('workspace branding (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let viewerMember: TestSession;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];
  const logoFile = join(tmpdir(), `demoshare-logo-${process.pid}.png`);

  beforeAll(async () => {
    server = await startTestServer({});
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    viewerMember = await server.member(admin, 'viewer');
    key = await server.apiKey('all', admin);
    demoId = await demoWithSteps(server, key, 2);
    writeFileSync(logoFile, makePng(160, 48, [190, 24, 93]));
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(session: TestSession, viewport = { width: 1280, height: 900 }) {
    const { context, page } = await signedInPage(browser!, server.url, session, viewport);
    contexts.push(context);
    return page;
  }

  it('brands the share page and the player from Settings → Workspace', async () => {
    const page = await open(admin);
    await page.goto(`${server.url}/settings/workspace`);
    await page.getByRole('heading', { name: 'Branding' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Acme Analytics');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Workspace renamed').waitFor();

    await page.getByLabel('Logo file').setInputFiles(logoFile);
    await page.getByText('Logo uploaded').waitFor();
    await expect.poll(() => page.locator('.logo-frame img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);

    // A colour typed wrong is said in words, and not sent.
    await page.getByLabel('Brand colour', { exact: true }).fill('teal');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Use a colour such as #0f766e').waitFor();
    await page.getByLabel('Brand colour', { exact: true }).fill('#be185d');
    await page.getByRole('combobox', { name: 'Font' }).selectOption('serif');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved').waitFor();

    await page.getByLabel('Ask viewers for their name and e-mail').check();
    await page.getByLabel('Links expire').selectOption('7');
    await page.getByRole('button', { name: 'Save defaults' }).click();
    await page.getByText('Share-link defaults saved').waitFor();
    await page.screenshot({ path: `${SHOTS}/workspace-settings-desktop.png`, fullPage: true, animations: 'disabled' });

    // A new link starts from the defaults.
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('button', { name: /New link/ }).click();
    const form = page.getByRole('form', { name: 'New share link' });
    expect(await form.getByLabel('Ask viewers for their name and e-mail').isChecked()).toBe(true);
    expect(await form.getByLabel('Expires').inputValue()).toBe('7');
    await form.getByRole('button', { name: 'Create link' }).click();
    const url = await page.getByRole('textbox', { name: /link/i }).first().inputValue();
    expect(url).toContain('/s/');

    const viewerContext = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(viewerContext);
    const viewer = await viewerContext.newPage();
    viewer.setDefaultTimeout(15_000);
    await viewer.goto(url.replace(/^http:\/\/localhost:\d+/, server.url));
    // An identification link names its demo, and who shared it.
    await viewer.getByRole('heading', { name: 'Secret roadmap tour' }).waitFor();
    await viewer.getByText('Acme Analytics shared a demo with you').waitFor();
    const gateLogo = viewer.locator('.ds-card-logo');
    await expect.poll(() => gateLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    expect(await gateLogo.getAttribute('alt')).toBe('Acme Analytics');
    const accent = await viewer.getByRole('button', { name: 'View demo' }).evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(accent).toBe('rgb(190, 24, 93)');
    const font = await viewer.locator('.ds-root').evaluate((el) => getComputedStyle(el).fontFamily);
    expect(font.replaceAll('"', "'")).toBe(FONT_STACKS.serif.stack);
    expect(await viewer.title()).toBe('Secret roadmap tour · Acme Analytics');
    await viewer.screenshot({ path: `${SHOTS}/branding-gate-desktop.png`, animations: 'disabled' });

    await viewer.getByLabel('Your name').fill('Grace Hopper');
    await viewer.getByLabel('Work e-mail').fill('grace@globex.test');
    await viewer.getByRole('button', { name: 'View demo' }).click();
    const topLogo = viewer.locator('.ds-top .ds-logo');
    await expect.poll(() => topLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    const next = await viewer.getByRole('button', { name: 'Next' }).evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(next).toBe('rgb(190, 24, 93)');
    expect(await viewer.title()).toBe('Secret roadmap tour · Acme Analytics');
    await viewer.screenshot({ path: `${SHOTS}/branding-player-desktop.png`, animations: 'disabled' });

    const phone = await browser!.newContext({ viewport: { width: 375, height: 740 } });
    contexts.push(phone);
    const small = await phone.newPage();
    await small.goto(url.replace(/^http:\/\/localhost:\d+/, server.url));
    await small.getByRole('heading', { name: 'Secret roadmap tour' }).waitFor();
    await expect.poll(() => small.locator('.ds-card-logo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    await small.screenshot({ path: `${SHOTS}/branding-gate-phone.png`, animations: 'disabled' });
  });

  it('shows a viewer the settings without letting them change anything', async () => {
    const page = await open(viewerMember, { width: 375, height: 800 });
    await page.goto(`${server.url}/settings/workspace`);
    await page.getByText('Only admins of this workspace can change its settings').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: /Save|Upload logo|Replace logo/ }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Font' }).isDisabled()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/workspace-settings-viewer-phone.png`, fullPage: true, animations: 'disabled' });
  });
});
