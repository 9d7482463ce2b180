// A custom domain in a real browser: Chromium resolves demos.example.test to this machine
// (--host-resolver-rules), so the share link is opened on the domain by its Host, as a viewer would.
import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BASE_ARGS } from '../../src/generation/chromium';
import { CHROMIUM, launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps } from '../helpers/shares';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const DOMAIN = 'demos.example.test';
/** A second domain of the same workspace, which its links move to. */
const NEW_DOMAIN = 'links.example.test';
// launchBrowser says loudly when there is no Chromium; this test needs its own flags.
const browser: Browser | null = (await launchBrowser().then((b) => b?.close().then(() => b)))
  ? await chromium.launch({ executablePath: CHROMIUM.path as string, args: [...CHROMIUM_BASE_ARGS, `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1,MAP ${NEW_DOMAIN} 127.0.0.1`] })
  : null;

describe.skipIf(!browser)('a custom domain in Chromium', () => {
  let server: TestServer;
  let dns: TestDnsServer;
  let admin: TestSession;
  let mine: { id: string; token: string; url: string };
  let theirs: { token: string };
  let origin: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dns = await startDnsServer();
    server = await startTestServer({ selfUrl: true, config: { DNS_SERVERS: [dns.address] } });
    origin = `http://${DOMAIN}:${new URL(server.url).port}`;
    admin = await server.signUp();
    const key = await server.apiKey('all', admin);
    await admin.inject({ method: 'PATCH', url: '/v1/workspace', payload: { name: 'Acme', branding: { brand_color: '#b45309' } } });
    const added = (await admin.inject({ method: 'POST', url: '/v1/domains', payload: { hostname: DOMAIN } })).json().data;
    const txt = added.records.find((r: { type: string }) => r.type === 'TXT');
    dns.txt.set(txt.name, [txt.value]);
    expect((await admin.inject({ method: 'POST', url: `/v1/domains/${added.id}/verify` })).json().data.status).toBe('verified');
    mine = await createShare(server, key, await demoWithSteps(server, key, 2), { password: 'open-sesame' });
    const other = await server.signUp();
    theirs = await createShare(server, await server.apiKey('all', other), await demoWithSteps(server, await server.apiKey('all', other), 1));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await dns?.close();
  });

  async function open(path: string, width: number, at = origin): Promise<{ page: Page; status: number | undefined }> {
    const context = await browser!.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const res = await page.goto(`${at}${path}`);
    return { page, status: res?.status() };
  }

  it('opens the workspace’s link on its domain, in its brand, with a cookie for that host only', async () => {
    // The link the API hands out names the domain (http: APP_URL here, so http:, and the test's port added).
    expect(mine.url).toBe(`http://${DOMAIN}/s/${mine.token}`);
    for (const width of [1280, 390]) {
      const { page, status } = await open(`/s/${mine.token}`, width);
      expect(status).toBe(200);
      await page.getByRole('heading', { name: 'Acme shared a demo with you' }).waitFor();
      const accent = await page.getByRole('button', { name: 'View demo' }).evaluate((b) => getComputedStyle(b).backgroundColor);
      expect(accent).toBe('rgb(180, 83, 9)');
      await page.getByLabel('Password').fill('open-sesame');
      await page.getByRole('button', { name: 'View demo' }).click();
      await page.locator('.ds-count', { hasText: 'Step 1 of 2' }).waitFor();
      expect(new URL(page.url()).host).toBe(new URL(origin).host);
      await page.screenshot({ path: `${SHOTS}/custom-domain-${width}.png` });
      const cookies = await page.context().cookies();
      const viewer = cookies.filter((c) => c.name.startsWith('ds_view_'));
      expect(viewer).toHaveLength(1);
      // Host-only: the cookie belongs to demos.example.test exactly, not to a parent domain.
      expect(viewer[0]?.domain).toBe(DOMAIN);
      expect(cookies.some((c) => c.name === 'ds_session')).toBe(false);
      await page.context().close();
    }
  });

  it('shows nothing of another workspace there, nor the app', async () => {
    const { page, status } = await open(`/s/${theirs.token}`, 1280);
    expect(status).toBe(404);
    expect(await page.locator('body').innerText()).not.toContain('Secret roadmap');
    await page.screenshot({ path: `${SHOTS}/custom-domain-other-workspace.png` });
    const app = await page.goto(`${origin}/demos`);
    expect(app?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Nothing here');
    await page.context().close();
  });

  it('lets an admin add a domain, read the records to create and verify it in Settings → Workspace (1280 and 390 px)', async () => {
    for (const [width, name] of [[1280, 'wide.example.test'], [390, 'phone.example.test']] as const) {
      const { context, page } = await signedInPage(browser!, server.url, admin, { width, height: 900 });
      await page.goto(`${server.url}/settings/workspace`);
      const verified = page.getByRole('region', { name: DOMAIN });
      await verified.getByText('Verified').waitFor();
      await page.getByLabel('Domain', { exact: true }).fill(name.toUpperCase());
      await page.getByRole('button', { name: 'Add domain' }).click();
      const card = page.getByRole('region', { name });
      await card.getByText('Not verified yet').waitFor();
      expect(await card.getByText(`_demoshare.${name}`).isVisible()).toBe(true);
      await card.getByRole('button', { name: 'Verify now' }).click();
      await card.getByText(/no TXT record found/).waitFor();
      expect(await overflowing(page)).toEqual([]);
      await page.locator("#domains").screenshot({ path: `${SHOTS}/settings-domains-${width}.png` });
      // A name that cannot be one is refused on its field.
      await page.getByLabel('Domain', { exact: true }).fill('https://x.example.test/path');
      await page.getByRole('button', { name: 'Add domain' }).click();
      await page.getByText(/host name only/).waitFor();
      await context.close();
    }
  });

  it('lets an admin choose where the domain itself leads: a hub, another address, or nothing (1280 and 390 px)', async () => {
    const hub = (await admin.inject({ method: 'POST', url: '/v1/hubs', payload: { name: 'Demo center', title: 'See Acme at work' } })).json().data as { url: string };
    const domainRoot = async () =>
      ((await admin.inject({ method: 'GET', url: '/v1/domains?per_page=100' })).json().data as Array<{ hostname: string; root_url: string | null }>).find(
        (d) => d.hostname === DOMAIN,
      )!.root_url;
    for (const width of [1280, 390]) {
      const { context, page } = await signedInPage(browser!, server.url, admin, { width, height: 900 });
      await page.goto(`${server.url}/settings/workspace`);
      const card = page.getByRole('region', { name: DOMAIN });
      const choice = card.getByLabel(`When someone opens ${DOMAIN} itself`);
      await card.getByText('Verified').waitFor();
      // The hub, at its address on this domain.
      await choice.selectOption({ label: 'Open the hub “Demo center”' });
      await card.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`${DOMAIN} now leads to ${hub.url}`).waitFor();
      expect(await domainRoot()).toBe(hub.url);
      expect(await choice.inputValue()).not.toBe('nothing');
      // Another address: refused on its field until it is one, then saved.
      await choice.selectOption({ label: 'Send to another address…' });
      await card.getByLabel('Address').fill('www.acme.test');
      await card.getByRole('button', { name: 'Save' }).click();
      await card.getByText('Enter an address starting with https://').waitFor();
      await card.getByLabel('Address').fill(`${origin}/s/${mine.token}`);
      // The notice names the hub's whole address: it wraps within the window.
      expect(await overflowing(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/settings-domain-root-${width}.png` });
      await card.getByRole('button', { name: 'Save' }).click();
      await expect.poll(domainRoot).toBe(`${origin}/s/${mine.token}`);
      await context.close();
    }
    // A visitor who types the domain lands on the link.
    const { page, status } = await open('/', 1280);
    expect(status).toBe(200);
    expect(page.url()).toBe(`${origin}/s/${mine.token}`);
    await page.getByRole('heading', { name: 'Acme shared a demo with you' }).waitFor();
    // Back to nothing: the "Nothing here" page again.
    const { context, page: settings } = await signedInPage(browser!, server.url, admin, { width: 1280, height: 900 });
    await settings.goto(`${server.url}/settings/workspace`);
    const card = settings.getByRole('region', { name: DOMAIN });
    await card.getByLabel(`When someone opens ${DOMAIN} itself`).selectOption({ label: 'Show “Nothing here”' });
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(domainRoot).toBeNull();
    expect((await page.goto(`${origin}/`))?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Nothing here');
    await context.close();
    await page.context().close();
  });

  it('lets an admin choose the domain links use, while the old one keeps serving the links already sent (1280 and 390 px)', async () => {
    const added = (await admin.inject({ method: 'POST', url: '/v1/domains', payload: { hostname: NEW_DOMAIN } })).json().data;
    const txt = added.records.find((r: { type: string }) => r.type === 'TXT');
    dns.txt.set(txt.name, [txt.value]);
    expect((await admin.inject({ method: 'POST', url: `/v1/domains/${added.id}/verify` })).json().data).toMatchObject({ status: 'verified', primary: false });
    const linkUrl = async () => (await admin.inject({ method: 'GET', url: `/v1/shares/${mine.id}` })).json().data.url;
    expect(await linkUrl()).toBe(`http://${DOMAIN}/s/${mine.token}`);
    // At 1280 px the links move to the new domain; at 390 px back to the old one, then to the new one again.
    for (const [width, moves] of [[1280, [NEW_DOMAIN]], [390, [DOMAIN, NEW_DOMAIN]]] as const) {
      const { context, page } = await signedInPage(browser!, server.url, admin, { width, height: 900 });
      await page.goto(`${server.url}/settings/workspace`);
      for (const to of moves) {
        const from = to === NEW_DOMAIN ? DOMAIN : NEW_DOMAIN;
        const [target, previous] = [page.getByRole('region', { name: to }), page.getByRole('region', { name: from })];
        await previous.getByText('Used for links').waitFor();
        expect(await target.getByText('Used for links').count()).toBe(0);
        await target.getByRole('button', { name: 'Use for links' }).click();
        await page.getByText(`Links now use ${to}; ${from} keeps serving the links already sent`).waitFor();
        await target.getByText('Used for links').waitFor();
        await previous.getByRole('button', { name: 'Use for links' }).waitFor();
        expect(await target.getByText(`Your links use http://${to}`).isVisible()).toBe(true);
        expect(await previous.getByText(`Serves the links opened on it; your links use http://${to}`).isVisible()).toBe(true);
        expect(await linkUrl()).toBe(`http://${to}/s/${mine.token}`);
        expect(await overflowing(page)).toEqual([]);
      }
      // The two cards, without the notices over them: the one links use and the one that only serves.
      const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
      while ((await dismiss.count()) > 0) await dismiss.first().click();
      // Scrolled to the card's bottom: a screenshot of the element itself would slide it under the sticky header.
      for (const [name, shot] of [[NEW_DOMAIN, 'links'], [DOMAIN, 'serving']] as const) {
        await page.getByRole('region', { name }).evaluate((card) => card.scrollIntoView({ block: 'end' }));
        await page.screenshot({ path: `${SHOTS}/settings-domain-${shot}-${width}.png` });
      }
      await context.close();
    }
    // The link already sent, on the old domain, still opens in a browser; its unfurl names the new one.
    const newOrigin = `http://${NEW_DOMAIN}:${new URL(server.url).port}`;
    for (const at of [origin, newOrigin]) {
      const { page, status } = await open(`/s/${mine.token}`, 1280, at);
      expect(status, at).toBe(200);
      expect(new URL(page.url()).origin).toBe(at);
      await page.getByRole('heading', { name: 'Acme shared a demo with you' }).waitFor();
      expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(`http://${NEW_DOMAIN}/s/${mine.token}`);
      await page.getByLabel('Password').fill('open-sesame');
      await page.getByRole('button', { name: 'View demo' }).click();
      await page.locator('.ds-count', { hasText: 'Step 1 of 2' }).waitFor();
      await page.context().close();
    }
  });
});
