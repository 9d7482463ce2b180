// The one gate in Chromium: password and identification on one screen, in the workspace's brand, each
// refusal on its field; and the share dialog's link-preview fields.
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps } from '../helpers/shares';
import { bearer, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'lighthouse-42';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('the one gate (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({});
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
    const renamed = await admin.inject({
      method: 'PATCH',
      url: '/v1/workspace',
      payload: { name: 'Acme', branding: { brand_color: '#0f766e' } },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    demoId = await demoWithSteps(server, key, 2);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function viewerPage(width: number, height: number): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width, height } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }
  const local = (url: string) => url.replace(/^http:\/\/localhost:\d+/, server.url);

  it('asks for the password, name and e-mail on one screen at 1280 px, and puts each refusal on its field', async () => {
    const share = await createShare(server, key, demoId, {
      password: PASSWORD,
      require_identification: true,
      allowed_domains: ['acme.com'],
    });
    const page = await viewerPage(1280, 800);
    await page.goto(local(share.url));
    await page.getByRole('heading', { name: 'Acme shared a demo with you' }).waitFor();
    // The title stays protected behind the password.
    expect(await page.locator('body').innerText()).not.toContain('Secret roadmap');
    expect(await page.title()).toBe('Protected demo · Acme');
    const password = page.getByLabel('Password');
    const name = page.getByLabel('Your name');
    const email = page.getByLabel('Work e-mail');
    for (const input of [password, name, email]) expect(await input.isVisible()).toBe(true);
    const accent = await page.getByRole('button', { name: 'View demo' }).evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(accent).toBe('rgb(15, 118, 110)');

    // Nothing typed: every field says what it needs, at once.
    await page.getByRole('button', { name: 'View demo' }).click();
    for (const input of [password, name, email]) expect(await input.getAttribute('aria-invalid')).toBe('true');

    await password.fill('not it');
    await name.fill('Jane Doe');
    await email.fill('jane@acme.com');
    await page.getByRole('button', { name: 'View demo' }).click();
    await page.getByText('That password is not correct').waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    // Nothing else lost.
    expect(await name.inputValue()).toBe('Jane Doe');
    expect(await email.inputValue()).toBe('jane@acme.com');
    await page.screenshot({ path: `${SHOTS}/gate-wrong-password-1280.png`, animations: 'disabled' });

    await password.fill(PASSWORD);
    await email.fill('jane@globex.com');
    await page.getByRole('button', { name: 'View demo' }).click();
    await page.getByText('This address may not view this demo').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await password.getAttribute('aria-invalid')).toBeNull();
    expect(await password.inputValue()).toBe(PASSWORD);

    await email.fill('jane@acme.com');
    await page.getByRole('button', { name: 'View demo' }).click();
    await page.getByRole('button', { name: 'Next' }).waitFor();
    expect(await page.title()).toBe('Secret roadmap tour · Acme');
  });

  it('names the demo when the owner allows it, and fits a 390 px phone', async () => {
    const share = await createShare(server, key, demoId, {
      password: PASSWORD,
      require_identification: true,
      show_title_before_unlock: true,
    });
    const page = await viewerPage(390, 844);
    await page.goto(local(share.url));
    await page.getByRole('heading', { name: 'Secret roadmap tour' }).waitFor();
    await page.getByText('Acme shared a demo with you').waitFor();
    expect(await overflowing(page)).toEqual([]);
    // The whole form and its button are on screen without scrolling sideways.
    for (const locator of [page.getByLabel('Password'), page.getByLabel('Work e-mail'), page.getByRole('button', { name: 'View demo' })]) {
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.getByRole('button', { name: 'View demo' }).click();
    await page.getByText('Enter the password you were given.').waitFor();
    await page.screenshot({ path: `${SHOTS}/gate-phone-390.png`, fullPage: true, animations: 'disabled' });
  });

  it('sets a link preview in the share dialog, and the link unfurls with it', async () => {
    const { context, page } = await signedInPage(browser!, server.url, admin, { width: 1280, height: 900 });
    contexts.push(context);
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('button', { name: /New link/ }).click();
    const form = page.getByRole('form', { name: 'New share link' });
    await form.getByLabel(/^Password/).fill(PASSWORD);
    await form.getByLabel('Show the demo’s title before the password').check();
    await form.getByText('Link preview', { exact: true }).click();
    await form.getByLabel(/^Preview title/).fill('Acme invoicing, in two minutes');
    await form.getByRole('radio', { name: /Step 2/ }).check();
    await page.screenshot({ path: `${SHOTS}/share-dialog-preview-1280.png`, animations: 'disabled' });
    await form.getByRole('button', { name: 'Create link' }).click();
    const url = await page.getByRole('textbox', { name: /link/i }).first().inputValue();

    const list = await server.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/shares`, headers: bearer(key) });
    const made = list.json().data.find((s: { url: string }) => s.url === url);
    expect(made).toMatchObject({ preview_title: 'Acme invoicing, in two minutes', show_title_before_unlock: true, has_password: true });
    expect(made.preview_image_asset_id).toMatch(/^ast_/);
    const html = await (await fetch(local(url), { headers: { 'user-agent': 'Twitterbot/1.0' } })).text();
    expect(html).toContain('<meta property="og:title" content="Acme invoicing, in two minutes">');
    expect(html).toContain(`<meta property="og:image" content="${made.preview_image_url}">`);
  });
});
