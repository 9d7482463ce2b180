import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { makeMockupPng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';
import { WebhookReceiver } from '../helpers/webhook-receiver';

// Issue 29 end to end, with nothing stubbed: a branching demo with chapters, a lead form, calls to action and
// variables is built through the API, published, shared through a personalised link, and played by two
// viewers by keyboard only (1280 px, then a 390 px phone), each down another branch. The leads are then in
// the API, the lead.captured deliveries at a real receiver, and the path figures in the analytics.

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Json = any;

describe.skipIf(!browser)('an interactive demo from the API to its leads and path figures', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let key: string;
  let demoId: string;
  let shareUrl: string;
  const chapters = { invoicing: '', reporting: '' };
  const contexts: BrowserContext[] = [];

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body instanceof Buffer ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : undefined;
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    server = await startTestServer({
      selfUrl: true,
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_POLL_INTERVAL: 200 },
    });
    mkdirSync(SHOTS, { recursive: true });
    key = await server.apiKey('all');
    await api('POST', '/webhooks', { url: `${receiver.url}/crm`, events: ['lead.captured'] });

    const demo = await api('POST', '/demos', { title: 'Acme tour', type: 'interactive', configuration: { theme_color: '#0e9384' } });
    demoId = demo.id;
    const steps: Json[] = [];
    for (let i = 0; i < 7; i++) {
      steps.push(await api('POST', `/demos/${demoId}/steps`, makeMockupPng(1280, 800, [30 + i * 25, 110, 170 - i * 12]), { 'content-type': 'image/png' }));
    }
    chapters.invoicing = (await api('POST', `/demos/${demoId}/chapters`, { title: 'Invoicing', description: 'Create and send an invoice' })).id;
    chapters.reporting = (await api('POST', `/demos/${demoId}/chapters`, { title: 'Reporting', description: 'Read and share reports' })).id;
    const patch = (n: number, body: object) => api('PATCH', `/demos/${demoId}/steps/${steps[n - 1].id}`, body);
    const hotspot = (n: number, label: string) =>
      api('POST', `/demos/${demoId}/steps/${steps[n - 1].id}/hotspots`, { x: 0.3, y: 0.3, width: 0.2, height: 0.1, label, tooltip: `${label}, {{first_name|friend}}` });

    await patch(1, {
      kind: 'cover',
      title: 'Welcome to Acme, {{first_name|there}}',
      description_html: '<p>A two-minute tour of <strong>invoicing</strong> and <em>reporting</em> for {{company|your team}}.</p>',
      content: { buttons: [{ id: 'start', label: 'Start the tour', action: { type: 'next' } }] },
    });
    await patch(2, {
      kind: 'chapter_menu',
      title: 'What would you like to see?',
      content: {
        buttons: [
          { id: 'to-invoicing', label: 'Invoicing', description: 'Create and send an invoice', action: { type: 'chapter', target: chapters.invoicing } },
          { id: 'to-reporting', label: 'Reporting', description: 'Read and share reports', action: { type: 'chapter', target: chapters.reporting } },
          { id: 'enough', label: 'I have seen enough', style: 'secondary', action: { type: 'goto', target: 6 } },
        ],
      },
    });
    await patch(3, { title: 'Invoices for {{company|your team}}', chapter_id: chapters.invoicing });
    await hotspot(3, 'Send the invoice');
    await patch(4, { title: 'Reports', chapter_id: chapters.reporting });
    await hotspot(4, 'Open the report');
    await patch(5, { title: 'Share a report', chapter_id: chapters.reporting });
    await hotspot(5, 'Share it');
    await patch(6, {
      kind: 'form',
      title: 'Where should we send the details?',
      content: {
        buttons: [{ id: 'send', label: 'Send', action: { type: 'submit', target: 7 } }],
        form: {
          fields: [
            { name: 'name', label: 'Your name', type: 'text', required: true },
            { name: 'email', label: 'Work e-mail', type: 'email', required: true },
            { name: 'consent', label: 'I agree to be contacted about Acme', type: 'checkbox', required: true },
            { name: 'utm_source', type: 'hidden' },
          ],
          submit_label: 'Send',
        },
      },
    });
    await patch(7, {
      kind: 'end',
      title: 'Thanks, {{first_name|friend}}!',
      description: 'We will be in touch.',
      content: {
        buttons: [
          { id: 'book', label: 'Book a meeting', cta: 'book_meeting', action: { type: 'url', target: 'https://example.com/book' } },
          { id: 'again', label: 'Start over', style: 'secondary', cta: 'restart', action: { type: 'restart' } },
        ],
      },
    });

    // The story has no problem the editor would show, so it publishes.
    expect((await api('GET', `/demos/${demoId}`)).story_problems).toEqual([]);
    await api('PATCH', `/demos/${demoId}`, { status: 'published' });
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'Globex account', variables: { company: 'Globex' } });
    shareUrl = `${server.url}${new URL(share.url).pathname}?first_name=Dana&utm_source=newsletter`;
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  async function open(viewport: { width: number; height: number }, mobile: boolean): Promise<Page> {
    const context = await browser!.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
    contexts.push(context);
    // The call to action's address is outside: answered here, never fetched from the internet.
    await context.route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Book</title>' }));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/story-e2e-${name}.png` });
  const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '');
  const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name }).first().waitFor();

  /** Tab (at most 12 times) to the control whose text starts with `label`, then press Enter: keyboard only. */
  async function activate(page: Page, label: string) {
    for (let i = 0; i < 12 && !(await focused(page)).startsWith(label); i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toContain(label);
    await page.keyboard.press('Enter');
  }

  async function fillForm(page: Page, name: string, email: string) {
    await heading(page, 'Where should we send the details?');
    await page.getByLabel('Your name').waitFor();
    // Focus starts on the first field.
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Send');
    await page.keyboard.press('Enter');
  }

  it('a viewer at 1280 px takes both chapters, then leaves their details', async () => {
    const page = await open({ width: 1280, height: 800 }, false);
    await page.goto(shareUrl);
    await heading(page, 'Welcome to Acme, Dana');
    await page.getByText('for Globex.').waitFor();
    await shot(page, 'desktop-cover');
    await activate(page, 'Start the tour');

    await heading(page, 'What would you like to see?');
    await activate(page, 'Invoicing');
    await heading(page, 'Invoices for Globex');
    await shot(page, 'desktop-invoicing');
    await page.keyboard.press('Enter'); // the hotspot has focus: `next` ends the chapter, back to the menu

    await heading(page, 'What would you like to see?');
    await activate(page, 'Reporting');
    await heading(page, 'Reports');
    await page.keyboard.press('Enter');
    await heading(page, 'Share a report');
    await page.keyboard.press('Enter');

    await heading(page, 'What would you like to see?');
    await shot(page, 'desktop-menu-visited');
    await activate(page, 'I have seen enough');
    await fillForm(page, 'Dana Scully', 'dana@globex.example');
    await heading(page, 'Thanks, Dana!');
    await shot(page, 'desktop-end');
    await page.close(); // page hide sends what is queued
  });

  it('a viewer on a 390 px phone takes one chapter, leaves their details and books a meeting', async () => {
    const page = await open({ width: 390, height: 844 }, true);
    await page.goto(shareUrl.replace('first_name=Dana', 'first_name=Fox'));
    await heading(page, 'Welcome to Acme, Fox');
    await shot(page, 'phone-cover');
    await activate(page, 'Start the tour');
    await heading(page, 'What would you like to see?');
    await shot(page, 'phone-menu');
    await activate(page, 'Reporting');
    await heading(page, 'Reports');
    await shot(page, 'phone-reports');
    await page.keyboard.press('Enter');
    await heading(page, 'Share a report');
    await page.keyboard.press('Enter');
    await heading(page, 'What would you like to see?');
    await activate(page, 'I have seen enough');
    await fillForm(page, 'Fox Mulder', 'fox@globex.example');
    await heading(page, 'Thanks, Fox!');
    await shot(page, 'phone-end');
    const popup = page.context().waitForEvent('page');
    await activate(page, 'Book a meeting');
    await (await popup).close();
    await page.close();
  });

  it('finds the leads, their webhook deliveries and the figures of each path', async () => {
    const leads = (await api('GET', `/demos/${demoId}/leads`)) as Json[];
    expect(leads.map((l) => l.email).sort()).toEqual(['dana@globex.example', 'fox@globex.example']);
    for (const lead of leads) expect(lead.values).toMatchObject({ consent: true, utm_source: 'newsletter' });

    const delivered = await receiver.waitFor((rs) => rs.filter((r) => r.path === '/crm').length >= 2, 20_000, 'two lead.captured deliveries');
    const bodies = delivered.filter((r) => r.path === '/crm').map((r) => JSON.parse(r.body.toString('utf8')));
    expect(bodies.map((b) => b.event)).toEqual(['lead.captured', 'lead.captured']);
    expect(bodies.map((b) => b.data.email).sort()).toEqual(['dana@globex.example', 'fox@globex.example']);

    // Events arrive in batches (the last on page hide, after the call to action), and a batch the server was
    // slow to take is sent again after later ones: poll until every figure below is in, the phone's click on
    // "Book a meeting" and the steps of both views' chapters included.
    let paths: Json;
    const chapter = (id: string) => paths.chapters.find((c: Json) => c.chapter_id === id);
    await expect
      .poll(
        async () => {
          paths = await api('GET', `/demos/${demoId}/analytics/paths`);
          return {
            submitted: paths.forms[0]?.submitted ?? 0,
            booked: paths.ctas.find((c: Json) => c.button_id === 'book')?.clicks ?? 0,
            reporting: chapter(chapters.reporting)?.funnel.map((f: Json) => [f.number, f.views]),
          };
        },
        { timeout: 20_000 },
      )
      .toEqual({
        submitted: 2,
        booked: 1,
        reporting: [
          [4, 2],
          [5, 2],
        ],
      });
    expect(chapter(chapters.invoicing)).toMatchObject({ title: 'Invoicing', choices: 1, views: 1 });
    expect(chapter(chapters.reporting)).toMatchObject({ title: 'Reporting', choices: 2, views: 2 });
    expect(chapter(chapters.reporting).funnel.map((f: Json) => [f.number, f.views])).toEqual([
      [4, 2],
      [5, 2],
    ]);
    const byPath = Object.fromEntries(paths.paths.map((p: Json) => [p.titles.join(' > '), p.views]));
    expect(byPath).toEqual({ 'Invoicing > Reporting': 1, Reporting: 1 });
    expect(paths.forms[0]).toMatchObject({ step_number: 6, shown: 2, submitted: 2 });
    expect(paths.ctas.find((c: Json) => c.button_id === 'book')).toMatchObject({ clicks: 1 });
    const enough = paths.branches.find((b: Json) => b.element_id === 'enough');
    expect(enough).toMatchObject({ action_type: 'goto', clicks: 2 });

    // The personalised link says which account watched.
    const views = (await api('GET', `/demos/${demoId}/views`)) as Json[];
    expect(views).toHaveLength(2);
    for (const view of views) expect(view.link).toMatchObject({ name: 'Globex account', variables: { company: 'Globex' } });
  });
});
