import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src/mail/mailer';
import { holdRequests, launchBrowser } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { decodeBody, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { uniqueEmail } from '../helpers/test-app';

// A person's own account in Chromium: the links e-mailed to them come from a real SMTP server started here,
// and are opened as a person would, by their address.

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new long passphrase';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('account pages (Chromium)', () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@localhost>');
    server = await startTestServer({ jobs: true, selfUrl: true, mailer, smtp, config: { RATE_LIMIT_LOGIN_PER_MINUTE: 100 } });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  async function open(viewport = DESKTOP): Promise<Page> {
    const context = await browser!.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  async function shot(page: Page, name: string) {
    const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
    for (let i = 0; i < 5 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1000 }).catch(() => {});
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
  }

  /** The link to `page` in the newest e-mail to `email` whose text matches `subject`. */
  async function linkFromMail(email: string, subject: RegExp, path: string, after = 0): Promise<string> {
    const matching = () => smtp.messages.filter((m) => m.to.includes(email) && subject.test(decodeBody(m.raw)));
    await smtp.waitFor(() => matching().length > after, 20_000);
    const body = decodeBody(matching().at(-1)!.raw);
    const url = new RegExp(`${server.url}/${path}/[A-Za-z0-9_-]{43}`).exec(body)?.[0];
    expect(url, `a /${path}/ link in the e-mail`).toBeDefined();
    return url!;
  }

  async function signUp(page: Page, email: string) {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/demos');
  }

  async function signIn(page: Page, email: string, password: string) {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/demos');
  }

  it('verifies the address from the e-mailed link; the banner goes', async () => {
    const email = uniqueEmail('grace');
    const page = await open();
    await signUp(page, email);
    const banner = page.getByRole('status').filter({ hasText: 'Verify your e-mail address' });
    await banner.waitFor();
    await shot(page, 'account-verify-banner-desktop');

    const link = await linkFromMail(email, /Confirm your e-mail address/, 'verify-email');
    await page.goto(link);
    await page.getByText('Address verified').waitFor();
    await shot(page, 'account-verified-desktop');
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByText('Verified', { exact: true }).waitFor();
    expect(await banner.count()).toBe(0);
  });

  it('changes the name and the password, lists the sessions and signs another one out', async () => {
    const email = uniqueEmail('ada');
    const page = await open();
    await signUp(page, email);
    const other = await open();
    await signIn(other, email, PASSWORD);

    await page.getByRole('button', { name: /Grace Hopper/ }).click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile saved').waitFor();
    await page.getByRole('button', { name: /Ada Lovelace/ }).waitFor();

    const sessions = page.getByRole('table', { name: 'Your sessions' });
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(2);
    await sessions.getByText('This device').waitFor();
    await shot(page, 'account-page-desktop');

    // A wrong current password is said under its field.
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Is wrong').waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. 1 other session was signed out.').waitFor();
    await page.reload();
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(1);

    // The other browser was signed out: its next request sends it to sign in.
    await other.reload();
    await other.waitForURL('**/login**');

    // Sign in there again, then sign it out from here with one click.
    await signIn(other, email, NEW_PASSWORD);
    await page.reload();
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByRole('dialog', { name: 'Sign out everywhere else?' }).getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('1 session signed out').waitFor();
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(1);
    await other.reload();
    await other.waitForURL('**/login**');
  });

  it('resets a forgotten password from the e-mailed link, and the link works once', async () => {
    const email = uniqueEmail('reset');
    const page = await open(PHONE);
    await signUp(page, email);
    await page.context().clearCookies();

    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    await page.getByText('If an account uses this address').waitFor();
    await shot(page, 'account-forgot-password-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

    const link = await linkFromMail(email, /Reset your Demoshare password/, 'reset-password');
    await page.goto(link);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Repeat it').fill(NEW_PASSWORD);
    await shot(page, 'account-reset-password-phone');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL('**/login');
    await signIn(page, email, NEW_PASSWORD);

    await page.goto(link);
    await page.getByLabel('New password').fill(`${NEW_PASSWORD}!`);
    await page.getByLabel('Repeat it').fill(`${NEW_PASSWORD}!`);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('This link cannot be used').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
  });

  it('the account page fits a phone', async () => {
    const page = await open(PHONE);
    await signUp(page, uniqueEmail('phone'));
    await page.goto(`${server.url}/account`);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await shot(page, 'account-page-phone');
  });

  it('opts in to viewer e-mails from the link the e-mails carry, and keeps the choice', async () => {
    const email = uniqueEmail('notify');
    const page = await open(PHONE);
    await signUp(page, email);
    // The sections above load after this one, as they may on a slow connection, and grow when they do.
    const above = await holdRequests(page, /\/v1\/(account\/sessions|oauth\/authorizations)/);
    await page.goto(`${server.url}/account#notifications`);
    // Account → Slack has an "About" choice of its own further down.
    const section = page.getByRole('region', { name: 'Notifications' });
    const mode = section.getByLabel('E-mail me');
    await mode.waitFor();
    expect(await mode.inputValue()).toBe('off');
    // The section is scrolled to, and stays there as the rest fills in: the link in every notification
    // e-mail lands on it.
    const heading = page.getByRole('heading', { name: 'Notifications' });
    const top = () => heading.evaluate((h) => Math.round(h.getBoundingClientRect().top));
    await expect.poll(top).toBeLessThan(400);
    above.release();
    await page.getByRole('table', { name: 'Your sessions' }).waitFor();
    // Once the rest has filled in, the section is as high as the page lets it go: at the top, or with the
    // page scrolled to its end (a page too short to scroll while the rest loaded left it lower, CI saw 449).
    const placed = () =>
      heading.evaluate(
        (h) => h.getBoundingClientRect().top < 100 || window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2,
      );
    await expect.poll(placed, { timeout: 5_000 }).toBe(true);
    expect(await section.getByLabel('About').isDisabled()).toBe(true);

    await mode.selectOption('daily');
    await page.getByText('Notifications saved').waitFor();
    await page.getByText('about the day before; nothing on a quiet day').waitFor();
    await section.getByLabel('About').selectOption('mine');
    await expect.poll(() => page.getByText('Notifications saved').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/account-notifications-phone.png`, animations: 'disabled' });

    await page.reload();
    await expect.poll(() => section.getByLabel('E-mail me').inputValue()).toBe('daily');
    expect(await section.getByLabel('About').inputValue()).toBe('mine');
  });
});
