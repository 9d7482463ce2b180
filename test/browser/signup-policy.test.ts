import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config';
import { launchBrowser, overflowing } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const browser: Browser | null = await launchBrowser();

/** The sign-in and sign-up pages of a server whose operator closed public sign-up (SIGNUP). */
describe.skipIf(!browser)('sign-in page under SIGNUP', () => {
  afterAll(() => browser?.close());

  function server(config: Partial<Config>) {
    const ref = {} as { server: TestServer };
    beforeAll(async () => {
      ref.server = await startTestServer({ config });
      mkdirSync(SHOTS, { recursive: true });
    });
    afterAll(() => ref.server?.close());
    return ref;
  }

  async function open(url: string, viewport: { width: number; height: number }) {
    const context = await browser!.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url);
    return { page, close: () => context.close() };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
  const footer = (page: Page) => page.locator('.auth-footer');

  describe('invite', () => {
    const s = server({ SIGNUP: 'invite' });

    it('offers sign-up to the first account only, then says sign-up is by invitation', async () => {
      const { page, close } = await open(`${s.server.url}/login`, DESKTOP);
      try {
        // An empty server: its operator makes the first account from the browser.
        await page.getByRole('link', { name: 'Create an account' }).waitFor();
        await s.server.signUp(uniqueEmail('operator'));
        await page.reload();
        await footer(page).getByText('Sign-up is by invitation').waitFor();
        expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
        expect(await overflowing(page)).toEqual([]);
        await shot(page, 'signup-policy-invite-login-desktop');

        await page.goto(`${s.server.url}/signup`);
        await page.getByRole('heading', { name: 'Sign-up is by invitation' }).waitFor();
        expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
        await shot(page, 'signup-policy-invite-signup-desktop');
      } finally {
        await close();
      }
    });

    it('fits a phone', async () => {
      const { page, close } = await open(`${s.server.url}/login`, PHONE);
      try {
        await footer(page).getByText('Sign-up is by invitation').waitFor();
        expect(await overflowing(page)).toEqual([]);
        await shot(page, 'signup-policy-invite-login-phone');
      } finally {
        await close();
      }
    });
  });

  describe('domains', () => {
    const s = server({ SIGNUP: 'domains', SIGNUP_ALLOWED_DOMAINS: ['example.com', 'corp.example'] });

    it('names the domains, and shows the refusal of another address', async () => {
      await s.server.signUp(uniqueEmail('operator'));
      const { page, close } = await open(`${s.server.url}/login`, DESKTOP);
      try {
        await footer(page).getByText('Sign-up is open to addresses at example.com or corp.example.').waitFor();
        await shot(page, 'signup-policy-domains-login-desktop');

        await footer(page).getByRole('link', { name: 'Create an account' }).click();
        await page.getByText('Sign-up is open to addresses at example.com or corp.example.').waitFor();
        await page.getByLabel('Work e-mail').fill('someone@elsewhere.test');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByRole('alert').getByText(/^Sign-up on this server is open to addresses at example\.com and corp\.example only/).waitFor();
        await shot(page, 'signup-policy-domains-refused-desktop');

        await page.getByLabel('Work e-mail').fill(uniqueEmail('staff'));
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.waitForURL('**/demos');
      } finally {
        await close();
      }
    });

    it('fits a phone', async () => {
      const { page, close } = await open(`${s.server.url}/login`, PHONE);
      try {
        await footer(page).getByText('Sign-up is open to addresses at').waitFor();
        expect(await overflowing(page)).toEqual([]);
        await shot(page, 'signup-policy-domains-login-phone');
      } finally {
        await close();
      }
    });
  });
});
