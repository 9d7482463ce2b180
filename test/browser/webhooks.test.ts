import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../src/events/event-kinds';
import { launchBrowser } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { uniqueEmail } from '../helpers/test-app';
import { type Received, WebhookReceiver } from '../helpers/webhook-receiver';

// A workspace admin's whole round with webhooks, in Chromium, through the web app only. The one thing checked
// outside the UI is what a real HTTP receiver on 127.0.0.1 got (headers, bytes, signatures).

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const browser: Browser | null = await launchBrowser();

const hex = (secret: string, body: Buffer) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
const header = (r: Received, name: string) => String(r.headers[name] ?? '');
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.skipIf(!browser)('webhooks in the web app (Chromium)', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    server = await startTestServer({
      jobs: true,
      config: {
        RATE_LIMIT_LOGIN_PER_MINUTE: 100,
        // The receiver listens on 127.0.0.1, which the SSRF guard refuses unless opened; nothing else is opened.
        ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
        // Two quick retries, so that a failing receiver's delivery ends `failed` within the test.
        WEBHOOK_RETRY_DELAYS: [300, 300],
        WEBHOOK_TIMEOUT: 5000,
        WEBHOOK_POLL_INTERVAL: 200,
      },
    });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.reset();
    receiver.respond((req) =>
      req.path.startsWith('/broken')
        ? { status: 500, body: 'database is down, try later' }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: '{"received":true}' },
    );
  });

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser!.newContext({ viewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  /** A full-page screenshot, without the toasts of earlier steps over it. */
  async function shot(page: Page, name: string, fullPage = true) {
    const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
    for (let i = 0; i < 5 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1000 }).catch(() => {});
    // From the top, or the sticky phone header is drawn halfway down the full-page image.
    if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage, animations: 'disabled' });
  }
  const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  const requestsTo = async (path: string, n: number) => {
    await receiver.waitFor((rs) => rs.filter((r) => r.path === path).length >= n, 30_000, `${n} requests to ${path}`);
    return receiver.received.filter((r) => r.path === path);
  };
  /** The text of one titled block (request body, headers, response) inside a delivery. */
  const block = (scope: Locator, title: string | RegExp) =>
    scope.locator('.log-block', { has: scope.page().getByRole('heading', { name: title }) }).first().locator('pre');

  async function signUp(page: Page, name: string) {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Your name').fill(name);
    await page.getByLabel('Work e-mail').fill(uniqueEmail('hooks'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Workspace name').fill('Acme Analytics');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/demos');
  }

  async function goToWebhooks(page: Page, phone = false) {
    if (phone) await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/settings/webhooks');
  }

  it('adds a webhook, tests, redelivers, edits, disables, rotates and deletes it, all from the UI', async () => {
    const page = await open(DESKTOP);
    await signUp(page, 'Ada Lovelace');

    // 1. Settings → Webhooks: the empty state.
    await goToWebhooks(page);
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
    await shot(page, 'webhooks-empty-desktop');

    // The server's checks land under the URL field, saying why: a scheme other than http(s), a private address.
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add a webhook' });
    const urlField = form.getByLabel('Endpoint URL');
    expect(await urlField.evaluate((el) => el === document.activeElement)).toBe(true);
    await urlField.fill('ftp://files.example.com/drop');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form.getByText('This address cannot be used: the ftp scheme is not allowed (use http or https)').waitFor();
    expect(await urlField.getAttribute('aria-invalid')).toBe('true');
    await urlField.fill('http://10.1.2.3/hooks');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form.getByText('This address cannot be used: 10.1.2.3 is a private address').waitFor();
    await shot(page, 'webhook-form-error-desktop');

    // The events: none is refused before anything is sent; Select all and back.
    await form.getByLabel('Select all').check();
    expect(await form.locator('input[name=events]:checked').count()).toBe(EVENT_KINDS.length);
    await form.getByLabel('Select all').uncheck();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form.getByText('Choose at least one event').waitFor();

    // 2. The real receiver's address, some events, no secret: one is generated and shown once.
    const hookUrl = `${receiver.url}/hooks/demoshare`;
    await urlField.fill(hookUrl);
    await form.getByLabel('demo.completed', { exact: true }).check();
    await form.getByLabel('demo.published', { exact: true }).check();
    // The keyboard works the list: Space ticks the focused box.
    await form.getByLabel('share.created', { exact: true }).focus();
    await page.keyboard.press('Space');
    expect(await form.getByLabel('share.created', { exact: true }).isChecked()).toBe(true);
    expect(await form.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toBe('');
    await form.getByRole('button', { name: 'Add webhook' }).click();

    const reveal = page.getByRole('dialog', { name: 'Webhook added' });
    await reveal.getByText('You will not see it again').waitFor();
    const secret = await reveal.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await reveal.getByRole('textbox', { name: /Standard Webhooks key/ }).inputValue()).toBe(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
    await reveal.getByRole('button', { name: 'Copy signing secret' }).click();
    await reveal.getByRole('button', { name: 'Copied signing secret' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, 'webhook-secret-desktop');
    await reveal.getByRole('button', { name: 'Done' }).click();
    await reveal.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: new RegExp(literal(hookUrl)) });
    await row.waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    for (const kind of ['demo.completed', 'demo.published', 'share.created']) await row.getByText(kind, { exact: true }).waitFor();
    expect(await row.getByText('demo.viewed', { exact: true }).count()).toBe(0);
    // Never again: not on the page, nor after a reload; only its last characters.
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    await row.getByText(`…${secret.slice(-4)}`, { exact: false }).waitFor();
    expect(await overflows(page)).toBe(false);
    await shot(page, 'webhooks-list-desktop');

    // 3. A test event from the list reaches the receiver, signed with the secret shown once.
    await page.getByRole('button', { name: `Send test to ${hookUrl}` }).click();
    await page.getByText('Test event queued').waitFor();
    const [first] = await requestsTo('/hooks/demoshare', 1);
    expect(header(first!, 'content-type')).toBe('application/json');
    expect(header(first!, 'x-service-event')).toBe('webhook.test');
    expect(header(first!, 'x-service-signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(header(first!, 'x-service-signature')).toBe(hex(secret, first!.body));
    const sent = JSON.parse(first!.body.toString('utf8'));
    expect(sent).toMatchObject({ event: 'webhook.test', id: header(first!, 'webhook-id') });
    const eventId = sent.id as string;

    // Its delivery log shows it: status code, the exact body, the headers with the signature, the response.
    await row.getByRole('link', { name: hookUrl }).click();
    await page.waitForURL(/\/settings\/webhooks\/whk_/);
    const deliveries = page.getByRole('list', { name: 'Deliveries' }).getByRole('listitem');
    const delivered = deliveries.filter({ hasText: 'Delivered' }).first();
    await delivered.getByText(/Delivered on the first attempt · HTTP 200/).waitFor();
    await delivered.getByRole('button', { name: 'Details' }).click();
    expect(await block(delivered, 'Request body').textContent()).toBe(JSON.stringify(sent, null, 2));
    const requestHeaders = await block(delivered, 'Request headers').textContent();
    expect(requestHeaders).toContain(`x-service-signature: ${hex(secret, first!.body)}`);
    expect(requestHeaders).toContain(`webhook-id: ${eventId}`);
    expect(requestHeaders).not.toContain(secret);
    expect(await block(delivered, 'Response headers').textContent()).toContain('content-type: application/json');
    expect(await block(delivered, 'Response body').textContent()).toBe('{"received":true}');
    await delivered.getByText('HTTP 200', { exact: true }).waitFor();
    expect(await overflows(page)).toBe(false);
    await shot(page, 'webhook-log-desktop');

    // 4. Redeliver: the receiver gets the same bytes and webhook-id again; the log shows the new delivery by
    // itself (it looks again while one is queued), marked as a redelivery.
    await delivered.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Redelivery queued').waitFor();
    const [, second] = await requestsTo('/hooks/demoshare', 2);
    expect(header(second!, 'webhook-id')).toBe(eventId);
    expect(second!.body.equals(first!.body)).toBe(true);
    expect(header(second!, 'x-service-signature')).toBe(hex(secret, second!.body));
    const redelivered = deliveries.filter({ hasText: 'Redelivery' });
    await redelivered.getByText(/Delivered on the first attempt · HTTP 200/).waitFor();
    expect(await deliveries.count()).toBe(2);

    // 5. Edit the events.
    const summary = page.getByRole('region', { name: hookUrl });
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook' });
    expect(await edit.getByLabel('Endpoint URL').inputValue()).toBe(hookUrl);
    expect(await edit.getByLabel('share.created', { exact: true }).isChecked()).toBe(true);
    await edit.getByLabel('share.created', { exact: true }).uncheck();
    await edit.getByLabel('demo.deleted', { exact: true }).check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('Webhook saved').waitFor();
    await summary.getByText('demo.deleted', { exact: true }).waitFor();
    expect(await summary.getByText('share.created', { exact: true }).count()).toBe(0);

    // Disable: the page says so and nothing can be sent; then enable again.
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Webhook disabled').waitFor();
    await summary.getByText('Disabled', { exact: true }).waitFor();
    await page.getByText('This webhook is disabled').waitFor();
    expect(await page.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
    expect(await redelivered.getByRole('button', { name: 'Redeliver' }).isDisabled()).toBe(true);
    await shot(page, 'webhook-disabled-desktop');
    await page.getByRole('button', { name: 'Enable' }).click();
    await summary.getByText('Active', { exact: true }).waitFor();
    expect(await page.getByText('This webhook is disabled').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(false);

    // Rotate: a new secret, shown once; the next test is signed with it, and with the old one beside it.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'Secret rotated' });
    const newSecret = await rotated.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByText(/deliveries are signed with both the old and the new secret/).waitFor();
    await rotated.getByRole('button', { name: 'Done' }).click();
    await rotated.waitFor({ state: 'detached' });
    await summary.getByText(`…${newSecret.slice(-4)}`, { exact: false }).waitFor();
    await summary.getByText(/the previous secret also signs until/).waitFor();
    expect(await page.content()).not.toContain(newSecret);
    await page.getByRole('button', { name: 'Send test' }).click();
    const [, , third] = await requestsTo('/hooks/demoshare', 3);
    expect(header(third!, 'x-service-signature')).toBe(hex(newSecret, third!.body));
    expect(header(third!, 'x-service-signature-previous')).toBe(hex(secret, third!.body));
    // The log picks the new test up without a refresh.
    await expect.poll(() => deliveries.filter({ hasText: 'Delivered' }).count(), { timeout: 20_000 }).toBe(3);

    // Delete, after confirming: the list is empty again.
    const hookPage = page.url();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await confirm.getByText(hookUrl).waitFor();
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await page.waitForURL('**/settings/webhooks');
    await page.getByText('Webhook deleted').waitFor();
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
    // Its page, opened from an old link or a malformed one, says it is gone rather than failing.
    for (const address of [hookPage, `${server.url}/settings/webhooks/not-a-webhook`]) {
      await page.goto(address);
      await page.getByText('Webhook not found').waitFor();
    }
  });

  it('shows a failing receiver’s answers in the log, and deletes from the list', async () => {
    const page = await open(DESKTOP);
    await signUp(page, 'Grace Hopper');
    await goToWebhooks(page);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add a webhook' });
    const hookUrl = `${receiver.url}/broken`;
    await form.getByLabel('Endpoint URL').fill(hookUrl);
    // A secret of one's own: the server's rule shows under the field.
    await form.getByRole('textbox', { name: 'Signing secret' }).fill('short');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form.getByText('Must be at least 8 characters').waitFor();
    await form.getByRole('textbox', { name: 'Signing secret' }).fill('my-own-secret-123');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const reveal = page.getByRole('dialog', { name: 'Webhook added' });
    expect(await reveal.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toBe('my-own-secret-123');
    await reveal.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('link', { name: hookUrl }).click();
    await page.getByRole('button', { name: 'Send test' }).click();
    const tries = await requestsTo('/broken', 3);
    const id = header(tries[0]!, 'webhook-id');
    expect(tries.map((r) => header(r, 'webhook-id'))).toEqual([id, id, id]);
    expect(header(tries[0]!, 'x-service-signature')).toBe(hex('my-own-secret-123', tries[0]!.body));

    // No refresh needed: the log follows the retries to the end.
    const deliveries = page.getByRole('list', { name: 'Deliveries' }).getByRole('listitem');
    const failed = deliveries.filter({ hasText: 'Failed after 3 attempts · HTTP 500' });
    await failed.waitFor({ timeout: 30_000 });
    await failed.getByText('the receiver answered 500').first().waitFor();
    await failed.getByRole('button', { name: 'Details' }).click();
    expect(await failed.getByRole('heading', { name: /^Attempt \d$/ }).count()).toBe(3);
    expect(await failed.getByText('HTTP 500', { exact: true }).count()).toBe(3);
    expect(await block(failed, /^Response body/).textContent()).toBe('database is down, try later');
    // And the webhook's own state says it is failing.
    await page.getByRole('region', { name: hookUrl }).getByText('Failing (3)').waitFor();
    await shot(page, 'webhook-log-failed-desktop');

    // The filter keeps only failed deliveries, or says none match.
    await page.getByLabel('Filter deliveries by status').selectOption('succeeded');
    await page.getByRole('heading', { name: 'No deliveries match' }).waitFor();
    await page.getByLabel('Filter deliveries by status').selectOption('failed');
    await failed.waitFor();

    await page.getByRole('link', { name: '← Webhooks' }).click();
    const row = page.getByRole('row', { name: new RegExp(literal(hookUrl)) });
    await row.getByText('Failing (3)').waitFor();
    await page.getByRole('button', { name: `Delete ${hookUrl}` }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
  });

  it('works at phone width: list, secret, delivery log, nothing wider than the screen', async () => {
    const page = await open(PHONE);
    await signUp(page, 'Lin Chen');
    await goToWebhooks(page, true);
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
    await shot(page, 'webhooks-empty-phone');
    expect(await overflows(page)).toBe(false);

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add a webhook' });
    const path = '/hooks/phone/a-rather-long-path-that-a-real-integration-might-use?token=abc123def456';
    const hookUrl = `${receiver.url}${path}`;
    await form.getByLabel('Endpoint URL').fill(hookUrl);
    await form.getByLabel('webhook.test', { exact: true }).check();
    await shot(page, 'webhook-form-phone');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const reveal = page.getByRole('dialog', { name: 'Webhook added' });
    await reveal.getByText('You will not see it again').waitFor();
    await shot(page, 'webhook-secret-phone');
    await page.keyboard.press('Escape');
    await reveal.waitFor({ state: 'detached' });

    const link = page.getByRole('link', { name: hookUrl });
    await link.waitFor();
    await shot(page, 'webhooks-list-phone');
    expect(await overflows(page)).toBe(false);

    await link.click();
    await page.getByRole('button', { name: 'Send test' }).click();
    await requestsTo(path, 1);
    const delivered = page.getByRole('list', { name: 'Deliveries' }).getByRole('listitem').filter({ hasText: 'Delivered' });
    await delivered.getByRole('button', { name: 'Details' }).click();
    await block(delivered, 'Request headers').waitFor();
    await shot(page, 'webhook-page-phone');
    await page.getByRole('heading', { name: 'Delivery log' }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 120);
    await shot(page, 'webhook-log-phone', false);
    expect(await overflows(page)).toBe(false);
  });
});
