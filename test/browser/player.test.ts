import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events as eventsTable } from '../../src/events/events.tables';
import { shares as sharesTable } from '../../src/shares/shares.tables';
import { launchBrowser, sessionCookies } from '../helpers/browser';
import { makeMockupPng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';

const SHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
const PASSWORD = 'open sesame 42';
const CTA = { label: 'Book a call', url: 'https://example.com/book' };

const browser: Browser | null = await launchBrowser();

// biome-ignore lint/suspicious/noExplicitAny: the tests read API answers field by field, as a client would
type Api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<any>;

/** A published demo of three 1280×800 screenshot steps with one hotspot each, made through the API. */
async function createDemo(api: Api): Promise<string> {
  const demo = await api('POST', '/demos', {
    title: 'Acme analytics tour',
    type: 'interactive',
    configuration: { theme_color: '#0e9384', call_to_action: CTA },
  });
  // Step 1: a "next" hotspot top left; step 2: "goto 3" bottom right; step 3: "next" (finishes the demo).
  const hotspots = [
    { x: 0.2, y: 0.12, width: 0.12, height: 0.08, label: 'Open the dashboard', tooltip: 'Start here: your dashboard', action: { type: 'next' } },
    { x: 0.8, y: 0.86, width: 0.14, height: 0.08, label: 'Open reports', tooltip: 'Reports live down here', action: { type: 'goto', target: 3 } },
    { x: 0.45, y: 0.4, width: 0.2, height: 0.12, label: 'Share a report', tooltip: 'Send it to your team', action: { type: 'next' } },
  ];
  const steps: { id: string }[] = [];
  for (let i = 0; i < hotspots.length; i++) {
    steps.push(await api('POST', `/demos/${demo.id}/steps`, makeMockupPng(1280, 800, [14 + i * 60, 147, 132]), { 'content-type': 'image/png' }));
  }
  // Hotspots after all steps exist: a goto must name a step of the demo.
  for (const [i, hotspot] of hotspots.entries()) {
    const stepId = steps[i]!.id;
    await api('PATCH', `/demos/${demo.id}/steps/${stepId}`, { title: `Step ${i + 1} title`, description: `What part ${i + 1} does for you.` });
    await api('POST', `/demos/${demo.id}/steps/${stepId}/hotspots`, hotspot);
  }
  await api('PATCH', `/demos/${demo.id}`, { status: 'published' });
  return demo.id;
}

interface View {
  viewer: { email: string | null; name: string | null };
  steps_viewed: number[];
  step_times: { number: number; seconds: number }[];
  completed: boolean;
  completed_at: string | null;
  duration_seconds: number;
}

describe.skipIf(!browser)('the player in Chromium, against the real server', () => {
  let server: TestServer;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  const call = async (as: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body === undefined || body instanceof Buffer ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : undefined;
  };
  const api: Api = (...args) => call(key, ...args);
  const pathOf = (url: string) => new URL(url).pathname;

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true });
    mkdirSync(SHOTS, { recursive: true });
    key = await server.apiKey('all');
    demoId = await createDemo(api);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser!.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });
  const stepShown = (page: Page, n: number) => page.locator('.ds-count', { hasText: `Step ${n} of 3` }).waitFor();

  /** GET /v1/demos/:id/views until `done` holds for the viewer's view (bounded by count, not by time). */
  async function viewOf(email: string, done: (v: View) => boolean): Promise<View> {
    let last: View | undefined;
    for (let i = 0; i < 200; i++) {
      const views = (await api('GET', `/demos/${demoId}/views?viewer_email=${encodeURIComponent(email)}`)) as View[];
      last = views[0];
      if (last && done(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the view of ${email} never got there: ${JSON.stringify(last)}`);
  }

  it('passes the password and identification gates, plays to the end, and records the view', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, {
      name: 'Sent to Acme',
      password: PASSWORD,
      require_identification: true,
      allowed_domains: ['example.com'],
    });
    const page = await open(DESKTOP);
    // The first events request dies on the way: the player must retry it with the same ids.
    let dropped = 0;
    await page.route('**/events', (route) => (dropped++ === 0 ? route.abort('connectionreset') : route.continue()));

    await page.goto(server.url + pathOf(share.url));
    // One gate: password, name and e-mail on one screen (test/browser/player-gate.test.ts has the rest).
    await page.getByRole('heading', { name: /shared a demo with you/ }).waitFor();
    await shot(page, 'player-password-desktop');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Work e-mail').fill('grace@navy.example.org');
    await page.getByRole('button', { name: 'View demo' }).click();
    await page.getByText('That password is not correct').waitFor();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'player-password-wrong-desktop');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'View demo' }).click();
    await page.getByText('This address may not view this demo').waitFor();
    await shot(page, 'player-identify-refused-desktop');
    const email = `grace.${Date.now()}@example.com`;
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByRole('button', { name: 'View demo' }).click();

    await stepShown(page, 1);
    await page.waitForFunction(() => performance.getEntriesByName('demoshare:first-step').length > 0);
    // The screenshot really arrived through the gated asset route (a 401 would leave it broken).
    expect(await page.locator('img.ds-shot').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
    await page.getByText('Start here: your dashboard').waitFor();
    await shot(page, 'player-step1-desktop');

    await page.getByRole('button', { name: 'Open the dashboard' }).click();
    await stepShown(page, 2);
    await page.keyboard.press('ArrowRight');
    await stepShown(page, 3);
    await page.keyboard.press('ArrowLeft');
    await stepShown(page, 2);
    await shot(page, 'player-step2-desktop');
    await page.getByRole('button', { name: 'Open reports' }).click();
    await stepShown(page, 3);
    const cta = page.getByRole('link', { name: CTA.label }).first();
    expect(await cta.getAttribute('href')).toBe(CTA.url);
    expect(await cta.getAttribute('rel')).toContain('noopener');
    await page.getByRole('button', { name: 'Share a report' }).click();
    await page.getByRole('heading', { name: 'You have reached the end' }).waitFor();
    expect(await page.locator('.ds-end').getByRole('link', { name: CTA.label }).getAttribute('target')).toBe('_blank');
    await shot(page, 'player-end-desktop');

    const view = await viewOf(email, (v) => v.completed);
    expect(dropped).toBeGreaterThan(1);
    expect(view.viewer).toMatchObject({ email, name: 'Grace Hopper' });
    expect([...view.steps_viewed].sort()).toEqual([1, 2, 3]);
    expect(view.step_times.map((s) => s.number).sort()).toEqual([1, 2, 3]);
    // Step 1 was on screen through a screenshot and several waits: it cannot have taken no time.
    expect(view.step_times.find((s) => s.number === 1)!.seconds).toBeGreaterThan(0);
    expect(view.completed_at).not.toBeNull();

    const kinds = await server.ctx.database.db
      .select({ kind: eventsTable.kind, data: eventsTable.data })
      .from(eventsTable)
      .where(inArray(eventsTable.kind, ['demo.viewed', 'demo.completed']));
    const mine = kinds.filter((e) => e.data.demo_id === demoId && (e.data.viewer_email === email || e.kind === 'demo.viewed'));
    expect(mine.filter((e) => e.kind === 'demo.completed' && e.data.viewer_email === email)).toHaveLength(1);
    expect(mine.some((e) => e.kind === 'demo.viewed')).toBe(true);

    const shares = await api('GET', `/demos/${demoId}/shares`);
    expect(shares.find((s: { id: string }) => s.id === share.id).view_count).toBeGreaterThanOrEqual(1);
  });

  it('fits a phone screen: gates and steps at 375 px', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, { password: PASSWORD, require_identification: true });
    const page = await open(PHONE);
    await page.goto(server.url + pathOf(share.url));
    await page.getByRole('heading', { name: /shared a demo with you/ }).waitFor();
    await shot(page, 'player-password-phone');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Work e-mail').fill('ada@example.com');
    await shot(page, 'player-identify-phone');
    await page.getByRole('button', { name: 'View demo' }).click();
    await stepShown(page, 1);
    await page.getByText('Start here: your dashboard').waitFor();
    await shot(page, 'player-step1-phone');

    // Nothing sticks out of the page sideways (the zoomed picture pans inside its frame), and the hotspot
    // sits where its fractions say on the zoomed picture.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const img = (await page.locator('img.ds-shot').boundingBox())!;
    const spot = (await page.getByRole('button', { name: 'Open the dashboard' }).boundingBox())!;
    expect((await page.locator('.ds-fit').boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    expect(img.width).toBeGreaterThanOrEqual(0.65 * 1280);
    expect(Math.abs(spot.x - (img.x + 0.2 * img.width))).toBeLessThan(2);
    expect(Math.abs(spot.y - (img.y + 0.12 * img.height))).toBeLessThan(2);
    expect(Math.abs(spot.width - 0.12 * img.width)).toBeLessThan(2);
    const tip = (await page.locator('.ds-tip').boundingBox())!;
    expect(tip.x).toBeGreaterThanOrEqual(0);
    expect(tip.x + tip.width).toBeLessThanOrEqual(PHONE.width);

    await page.getByRole('button', { name: 'Next' }).click();
    await stepShown(page, 2);
    await page.getByText('Reports live down here').waitFor();
    await shot(page, 'player-step2-phone');
    const tip2 = (await page.locator('.ds-tip').boundingBox())!;
    expect(tip2.x + tip2.width).toBeLessThanOrEqual(PHONE.width);
  });

  it('says what is wrong with expired, unpublished and rate-limited links (375 px)', async () => {
    const page = await open(PHONE);

    // Expired: the API refuses a past expiry, so the clock of this link is turned back in the database
    // before anyone has opened it (nothing of it is cached yet).
    const expiring = await api('POST', `/demos/${demoId}/shares`, { expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    await server.ctx.database.db.update(sharesTable).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(sharesTable.id, expiring.id));
    await page.goto(server.url + pathOf(expiring.url));
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await shot(page, 'player-expired-phone');

    const draft = await api('POST', '/demos', { title: 'Work in progress', type: 'interactive' });
    await api('POST', `/demos/${draft.id}/steps`, makeMockupPng(320, 200), { 'content-type': 'image/png' });
    const early = await api('POST', `/demos/${draft.id}/shares`, {});
    await page.goto(server.url + pathOf(early.url));
    await page.getByRole('heading', { name: 'This demo is not published yet' }).waitFor();
    await shot(page, 'player-unpublished-phone');

    const guarded = await api('POST', `/demos/${demoId}/shares`, { password: PASSWORD });
    await page.goto(server.url + pathOf(guarded.url));
    const field = page.getByLabel('Password', { exact: true });
    const submit = page.getByRole('button', { name: 'View demo' });
    const limit = server.ctx.config.SHARE_PASSWORD_ATTEMPTS;
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length <= limit) {
      await field.fill(`guess ${statuses.length + 1}`);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/access')), submit.click()]);
      statuses.push(response.status());
    }
    expect(statuses).toEqual([...Array(limit).fill(401), 429]);
    await page.getByText(/Too many attempts\. Try again in \d+ (seconds|minutes)\./).waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'player-password-limited-phone');
  });

  it('tells the host page where the viewer is when embedded, and shows revoked links as unavailable', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'Website embed' });
    const host: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Host</title><h1>Our product</h1>
<div style="position:relative;width:100%;max-width:900px;aspect-ratio:16/10"><iframe src="${server.url}${pathOf(share.embed_url)}" title="Demo" style="position:absolute;inset:0;width:100%;height:100%;border:0"></iframe></div>
<script>window.received = []; addEventListener('message', (e) => { if (e.data && e.data.source === 'demoshare') window.received.push(e.data); });</script>`);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const page = await open(DESKTOP);
      await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/`);
      const frame = page.frameLocator('iframe');
      await frame.getByRole('button', { name: 'Open the dashboard' }).click();
      await frame.getByRole('button', { name: 'Open reports' }).click();
      await frame.getByRole('button', { name: 'Share a report' }).click();
      await frame.getByRole('heading', { name: 'You have reached the end' }).waitFor();
      await page.waitForFunction(() => (window as unknown as { received: { type: string }[] }).received.some((m) => m.type === 'completed'));
      await shot(page, 'player-embed-desktop');
      const received = (await page.evaluate(() => (window as unknown as { received: unknown[] }).received)) as Record<string, unknown>[];
      expect(received.filter((m) => m.type === 'step_reached').map((m) => m.step_number)).toEqual([1, 2, 3]);
      expect(received.filter((m) => m.type === 'hotspot_clicked').map((m) => [m.step_number, m.action])).toEqual([
        [1, 'next'],
        [2, 'goto'],
        [3, 'next'],
      ]);
      expect(received.filter((m) => m.type === 'completed')).toHaveLength(1);
      // Nothing about the viewer crosses to the host page.
      expect(JSON.stringify(received)).not.toMatch(/@|token/);

      await api('DELETE', `/shares/${share.id}`);
      const direct = await open(PHONE);
      await direct.goto(server.url + pathOf(share.url));
      await direct.getByRole('heading', { name: 'This demo is not available' }).waitFor();
      await shot(direct, 'player-not-found-phone');
    } finally {
      host.close();
    }
  });
  it('creates, copies, embeds, audits and revokes share links from the Share dialog', async () => {
    const session = await server.signUp();
    const ownKey = await server.apiKey('all', session);
    const own: Api = (...args) => call(ownKey, ...args);
    const id = await createDemo(own);
    const context = await browser!.newContext({ viewport: DESKTOP });
    contexts.push(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await context.addCookies(sessionCookies(session, server.url));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);

    await page.goto(`${server.url}/demos`);
    await page.getByRole('button', { name: 'Share Acme analytics tour' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share “Acme analytics tour”' });
    await dialog.getByText('No links yet').waitFor();
    await dialog.getByRole('button', { name: 'New link' }).click();
    await dialog.getByRole('textbox', { name: 'Name (optional)' }).fill('Sent to Acme');
    await dialog.getByRole('textbox', { name: 'Password (optional)' }).fill(PASSWORD);
    await dialog.getByLabel('Expires').selectOption('7');
    await dialog.getByLabel('Ask viewers for their name and e-mail').check();
    await dialog.getByLabel('Allowed domains').fill('not-a-domain');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    // The server's validation message lands under the list it is about.
    await dialog.getByText(/Entry 1: Must be a domain/).waitFor();
    await dialog.getByLabel('Allowed domains').fill('acme.com, example.com');
    await dialog.getByLabel('Allowed e-mail addresses').fill('ceo@partner.org');
    await shot(page, 'share-dialog-new-desktop');
    await dialog.getByRole('button', { name: 'Create link' }).click();

    await dialog.getByText('Link created').waitFor();
    const link = await dialog.getByLabel('Link', { exact: true }).inputValue();
    expect(link).toMatch(/\/s\/[A-Za-z0-9_-]{16,}$/);
    await dialog.getByRole('button', { name: 'Copy' }).first().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const code = await dialog.getByLabel('Embed code').inputValue();
    expect(code).toContain(`src="${link.replace('/s/', '/embed/')}"`);
    expect(code).toMatch(/^<div style="position:relative;width:100%;aspect-ratio:16\/10[^"]*"><iframe /);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const [created] = await own('GET', `/demos/${id}/shares`);
    expect(created).toMatchObject({
      name: 'Sent to Acme',
      has_password: true,
      require_identification: true,
      allowed_domains: ['acme.com', 'example.com'],
      allowed_emails: ['ceo@partner.org'],
    });
    const days = (new Date(created.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);

    const row = dialog.getByRole('listitem').filter({ hasText: 'Sent to Acme' });
    for (const badge of ['Password', 'Identification', 'Allow-list: 3', /^Expires /]) await row.getByText(badge).first().waitFor();
    await row.getByText('0 views').waitFor();
    await shot(page, 'share-dialog-list-desktop');

    // A visit, refused at the password: it shows in the access log.
    const visitor = await context.newPage();
    await visitor.goto(server.url + pathOf(link));
    await visitor.getByRole('heading', { name: /shared a demo with you/ }).waitFor();
    await visitor.getByLabel('Password', { exact: true }).fill('wrong');
    await visitor.getByLabel('Your name').fill('Ada');
    await visitor.getByLabel('Work e-mail').fill('ada@example.com');
    await visitor.getByRole('button', { name: 'View demo' }).click();
    await visitor.getByText('That password is not correct').waitFor();
    await visitor.close();

    await row.getByRole('button', { name: 'Access log of Sent to Acme' }).click();
    const log = page.getByRole('dialog', { name: 'Access log: Sent to Acme' });
    await log.getByText('Wrong password').waitFor();
    await log.getByText('Asked for password').first().waitFor();
    await shot(page, 'share-access-log-desktop');
    await log.getByRole('button', { name: 'Close', exact: true }).click();

    await row.getByRole('button', { name: 'Embed code for Sent to Acme' }).click();
    const embed = page.getByRole('dialog', { name: 'Embed this demo' });
    expect(await embed.getByLabel('Embed code').inputValue()).toBe(code);
    await embed.getByRole('button', { name: 'Done', exact: true }).click();

    // Edit: a new name, the password removed, the expiry kept as it was.
    await row.getByRole('button', { name: 'Edit Sent to Acme' }).click();
    const editor = dialog.getByRole('form', { name: 'Edit share link' });
    expect(await editor.getByRole('textbox', { name: 'Name (optional)' }).inputValue()).toBe('Sent to Acme');
    expect(await editor.getByLabel('Allowed domains').inputValue()).toBe('acme.com\nexample.com');
    await editor.getByRole('textbox', { name: 'Name (optional)' }).fill('Acme Q4');
    await editor.getByLabel('Remove the password').check();
    await shot(page, 'share-dialog-edit-desktop');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Link “Acme Q4” saved').waitFor();
    const [edited] = await own('GET', `/demos/${id}/shares`);
    expect(edited).toMatchObject({ id: created.id, name: 'Acme Q4', has_password: false, expires_at: created.expires_at, allowed_domains: ['acme.com', 'example.com'] });
    const editedRow = dialog.getByRole('listitem').filter({ hasText: 'Acme Q4' });
    await editedRow.getByText('Identification').waitFor();
    expect(await editedRow.getByText('Password', { exact: true }).count()).toBe(0);

    await editedRow.getByRole('button', { name: 'Revoke Acme Q4' }).click();
    await page.getByRole('dialog', { name: 'Revoke “Acme Q4”?' }).getByRole('button', { name: 'Revoke link' }).click();
    await page.getByText('Link “Acme Q4” revoked').waitFor();
    await dialog.getByText('No links yet').waitFor();
    expect(await own('GET', `/demos/${id}/shares`)).toEqual([]);
    const gone = await fetch(`${server.url}/v1/viewer/${pathOf(link).split('/s/')[1]}`);
    expect(gone.status).toBe(404);

    await page.setViewportSize(PHONE);
    await dialog.getByRole('button', { name: 'New link' }).click();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await dialog.getByText('Link created').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.getByRole('listitem').filter({ hasText: 'Untitled link' }).waitFor();
    await shot(page, 'share-dialog-list-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
