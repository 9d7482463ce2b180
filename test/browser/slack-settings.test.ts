import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, playView } from '../helpers/shares';
import { allText, SlackReceiver } from '../helpers/slack-receiver';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('Settings → Slack and Account → Slack in Chromium, against a local Slack receiver', () => {
  let server: TestServer;
  let slack: SlackReceiver;
  let admin: TestSession;
  let editor: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    slack = await new SlackReceiver().start();
    server = await startTestServer({
      selfUrl: true,
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_DELAYS: [300], WEBHOOK_POLL_INTERVAL: 200 },
    });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    editor = await server.member(admin, 'editor');
    key = await server.apiKey('all', admin);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await slack?.close();
  });

  async function open(session: TestSession, path: string, width = 1280): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, session, { width, height: 900 });
    contexts.push(context);
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it('an admin connects a channel (a dead URL is refused in words), an alert arrives and the log shows it; the journey button opens the journey', async () => {
    const page = await open(admin, '/settings/workspace');
    await page.getByRole('link', { name: 'Slack', exact: true }).click();
    await page.waitForURL('**/settings/slack');
    const url = page.getByLabel('Incoming-webhook URL');

    slack.answer((req) => (req.path === '/services/gone' ? { status: 404, body: 'no_service' } : undefined));
    await url.fill(`${slack.url}/services/gone`);
    await page.getByRole('button', { name: 'Connect Slack' }).click();
    await page.getByText('Slack answered 404 no_service').waitFor();
    expect((await admin.inject({ method: 'GET', url: '/v1/workspace/slack' })).json().data.connected).toBe(false);

    await url.fill(`${slack.url}/services/T1/B1/abcdWXYZ`);
    await page.getByRole('checkbox', { name: /Demo finished/ }).check();
    await page.getByRole('button', { name: 'Connect Slack' }).click();
    await page.getByText('Connected', { exact: true }).waitFor();
    expect(slack.messages('/services/T1/B1/abcdWXYZ')[0]!.text).toContain('Demoshare is connected');
    expect(await url.inputValue()).toBe('');
    expect(await url.getAttribute('placeholder')).toMatch(/WXYZ$/);
    await page.getByText('No alerts yet').waitFor();

    const demoId = await demoWithSteps(server, key, 3);
    const link = await createShare(server, key, demoId, { name: 'Acme outreach' });
    await playView(server, link.token, { email: 'dana@acme-widgets.test', name: 'Dana Scully', reached: 3, complete: true });
    // The log looks again by itself every few seconds; Refresh looks now.
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.getByRole('list', { name: 'Slack messages' }).getByText('Sent', { exact: true }).count();
      }, { timeout: 20_000 })
      .toBe(2);
    await page.getByText('Dana Scully from acme-widgets.test opened “Secret roadmap tour”').waitFor();
    await page.getByText('Dana Scully from acme-widgets.test finished “Secret roadmap tour”').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/slack-settings-1280.png`, fullPage: true, animations: 'disabled' });

    // The alert's button opens the viewer's journey in the web app.
    const opened = slack.messages('/services/T1/B1/abcdWXYZ').find((m) => m.text.includes('opened'))!;
    const journey = allText(opened).match(/https?:\/\/\S+\?view=view_[0-9a-z]+/)![0];
    expect(journey.startsWith(server.url)).toBe(true);
    await page.goto(journey);
    const dialog = page.getByRole('dialog', { name: 'Dana Scully' });
    await dialog.waitFor();
    await dialog.locator('.journey-step', { hasText: 'Step 3' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/slack-journey-link.png`, animations: 'disabled' });
  });

  it('a dead URL is shown with Slack’s answer; a failed message is retried from the log once a test goes through', async () => {
    slack.reset();
    slack.answer(() => ({ status: 404, body: 'channel_not_found' }));
    const demoId = await demoWithSteps(server, key, 2);
    const link = await createShare(server, key, demoId);
    await playView(server, link.token, { email: 'fox@mulder.test', name: 'Fox', reached: 1 });
    const page = await open(admin, '/settings/slack', 390);
    await page.getByText('Slack stopped taking messages').waitFor({ timeout: 20_000 });
    await page.getByText(/Slack answered 404 channel_not_found/).first().waitFor();
    await page.screenshot({ path: `${SHOTS}/slack-settings-disabled-390.png`, fullPage: true, animations: 'disabled' });

    slack.reset();
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByText('Test message sent').waitFor();
    await page.getByText('Connected', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Retry' }).first().click();
    await expect.poll(async () => slack.messages().filter((m) => m.text.includes('Fox')).length, { timeout: 20_000 }).toBe(1);
    // The page is usable on a phone: nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('an editor has no Slack tab but sets up their own alerts in Account, on a phone', async () => {
    const page = await open(editor, '/settings/workspace', 390);
    await page.getByRole('link', { name: 'API keys' }).waitFor();
    expect(await page.getByRole('link', { name: 'Slack', exact: true }).count()).toBe(0);
    await page.goto(`${server.url}/settings/slack`);
    await page.getByText('Only admins set up the workspace’s Slack channel.').waitFor();

    await page.goto(`${server.url}/account#slack`);
    const section = page.locator('#slack');
    await section.getByLabel('Incoming-webhook URL').fill(`${slack.url}/services/T1/B2/mineMINE`);
    await section.getByLabel('About').selectOption('mine');
    await section.getByRole('button', { name: 'Connect Slack' }).click();
    await section.getByText('Connected', { exact: true }).waitFor();
    expect((await editor.inject({ method: 'GET', url: '/v1/account/slack' })).json().data).toMatchObject({ connected: true, scope: 'mine' });
    expect(slack.messages('/services/T1/B2/mineMINE')).toHaveLength(1);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `${SHOTS}/slack-account-390.png`, animations: 'disabled' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
