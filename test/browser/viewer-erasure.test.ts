import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, playView } from '../helpers/shares';
import { bearer, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// An admin erases a viewer from Settings → Workspace → Viewer privacy: the confirm says what goes, the answer
// says how much went, and the views are gone from the API while another viewer's stay. The same erasure is on a
// demo's analytics viewer list. Editors see neither.
describe.skipIf(!browser)('viewer-data erasure in the web app (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let editor: TestSession;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({});
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    editor = await server.member(admin, 'editor');
    key = await server.apiKey('all', admin);
    demoId = await demoWithSteps(server, key, 3);
    const link = await createShare(server, key, demoId);
    await playView(server, link.token, { email: 'ana@globex.com', name: 'Ana Lytic', reached: 3, complete: true });
    await playView(server, link.token, { email: 'ana@globex.com', name: 'Ana Lytic', reached: 2 });
    await playView(server, link.token, { email: 'bo@initech.io', name: 'Bo', reached: 2 });
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
  const viewers = async () => {
    const res = await server.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: bearer(key) });
    return (res.json().data as Array<{ viewer: { email: string | null } }>).map((v) => v.viewer.email).sort();
  };

  it('erases a viewer after a confirm, and shows what went', async () => {
    expect(await viewers()).toEqual(['ana@globex.com', 'ana@globex.com', 'bo@initech.io']);
    const page = await open(admin);
    await page.goto(`${server.url}/settings/workspace`);
    const section = page.getByRole('region', { name: 'Viewer privacy' });
    await section.waitFor();

    // An address typed wrong is said in words, and nothing is asked.
    await section.getByRole('button', { name: 'Erase viewer data…' }).click();
    await section.getByText('Enter the viewer’s e-mail address').waitFor();

    await section.getByLabel('Viewer e-mail').fill('Ana@Globex.com');
    await section.getByRole('button', { name: 'Erase viewer data…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this viewer’s data?' });
    await dialog.getByText('Ana@Globex.com').waitFor();
    await dialog.getByText(/their views of every demo/).waitFor();
    await page.screenshot({ path: `${SHOTS}/viewer-erasure-confirm.png`, animations: 'disabled' });
    // Cancelling changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await viewers()).toHaveLength(3);

    await section.getByRole('button', { name: 'Erase viewer data…' }).click();
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    await page.getByText('Viewer data erased').waitFor();
    const result = section.getByRole('definition');
    await result.first().waitFor();
    const rows = section.locator('dl[aria-label="What was erased"] > div');
    const counts = Object.fromEntries(
      await rows.evaluateAll((divs) => divs.map((d) => [d.querySelector('dt')?.textContent ?? '', d.querySelector('dd')?.textContent ?? ''])),
    );
    expect(counts).toMatchObject({ Views: '2', 'Step times': '5', 'Viewer sessions': '2', 'Demos whose analytics were rebuilt': '1' });
    await section.screenshot({ path: `${SHOTS}/viewer-erasure-result.png`, animations: 'disabled' });

    expect(await viewers()).toEqual(['bo@initech.io']);
    const analytics = await server.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics`, headers: bearer(key) });
    expect(analytics.json().data).toMatchObject({ total_views: 1, unique_viewers: 1, completion_rate: 0 });
  });

  it('fits a phone, confirm dialog included', async () => {
    const page = await open(admin, { width: 390, height: 844 });
    await page.goto(`${server.url}/settings/workspace`);
    const section = page.getByRole('region', { name: 'Viewer privacy' });
    await section.getByLabel('Viewer e-mail').fill('someone.with.a.long.address@a-rather-long-company-name.example');
    await section.getByRole('button', { name: 'Erase viewer data…' }).click();
    await page.getByRole('dialog', { name: 'Erase this viewer’s data?' }).waitFor();
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/viewer-erasure-confirm-phone.png`, animations: 'disabled' });
  });

  it('erases a viewer from a demo’s analytics list, and only admins see the action', async () => {
    const demo = await demoWithSteps(server, key, 3);
    const link = await createShare(server, key, demo);
    await playView(server, link.token, { email: 'cy@umbrella.com', name: 'Cy Erased', reached: 3, complete: true });
    await playView(server, link.token, { email: 'cy@umbrella.com', name: 'Cy Erased', reached: 1 });
    await playView(server, link.token, { email: 'di@acme.org', name: 'Di Stays', reached: 2 });
    await playView(server, link.token, { reached: 1 });
    const viewsOf = async (email: string) => {
      const res = await server.app.inject({ method: 'GET', url: `/v1/demos/${demo}/views?viewer_email=${encodeURIComponent(email)}`, headers: bearer(key) });
      return (res.json().data as unknown[]).length;
    };
    expect(await viewsOf('cy@umbrella.com')).toBe(2);

    const page = await open(admin);
    await page.goto(`${server.url}/demos/${demo}/analytics`);
    const list = page.getByRole('table', { name: 'Recent viewers' });
    const row = (name: string) => list.locator('tbody tr', { hasText: name });
    const figure = (label: string) => page.locator('.figure', { has: page.locator('dt', { hasText: label }) }).locator('.figure-value');
    await row('Di Stays').waitFor();
    expect(await figure('Views').textContent()).toBe('4');
    // Identified rows have the action; the anonymous one has none.
    expect(await list.getByRole('button', { name: 'Erase cy@umbrella.com' }).count()).toBe(2);
    expect(await row('Di Stays').getByRole('button', { name: 'Erase di@acme.org' }).count()).toBe(1);
    expect(await row('Anonymous viewer').getByRole('button', { name: /^Erase/ }).count()).toBe(0);
    await page.getByRole('region', { name: 'Recent viewers' }).screenshot({ path: `${SHOTS}/viewer-erasure-analytics-list.png`, animations: 'disabled' });

    await row('Cy Erased').first().getByRole('button', { name: 'Erase cy@umbrella.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this viewer’s data?' });
    await dialog.getByText('cy@umbrella.com').waitFor();
    await dialog.getByText(/their views of every demo/).waitFor();
    await dialog.getByText(/cannot be undone/).waitFor();
    await page.screenshot({ path: `${SHOTS}/viewer-erasure-analytics-confirm.png`, animations: 'disabled' });
    // Cancelling changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await viewsOf('cy@umbrella.com')).toBe(2);

    await row('Cy Erased').first().getByRole('button', { name: 'Erase cy@umbrella.com' }).click();
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    const toast = page.locator('.toast', { hasText: 'Erased cy@umbrella.com' });
    await toast.waitFor();
    expect(await toast.locator('span').first().textContent()).toBe('Erased cy@umbrella.com: 2 views, 4 step times, 2 access-log entries');
    await expect.poll(() => row('Cy Erased').count()).toBe(0);
    await expect.poll(() => figure('Views').textContent()).toBe('2');
    expect(await row('Di Stays').count()).toBe(1);
    expect(await row('Anonymous viewer').count()).toBe(1);
    expect(await viewsOf('cy@umbrella.com')).toBe(0);
    expect(await viewsOf('di@acme.org')).toBe(1);

    // At phone width the rows become cards and the action stays inside them.
    const phone = await open(admin, { width: 390, height: 844 });
    await phone.goto(`${server.url}/demos/${demo}/analytics`);
    await phone.getByRole('button', { name: 'Erase di@acme.org' }).waitFor();
    expect(await overflowing(phone)).toEqual([]);
    await phone.getByRole('region', { name: 'Recent viewers' }).screenshot({ path: `${SHOTS}/viewer-erasure-analytics-list-phone.png`, animations: 'disabled' });

    const editorPage = await open(editor);
    await editorPage.goto(`${server.url}/demos/${demo}/analytics`);
    await editorPage.getByRole('table', { name: 'Recent viewers' }).locator('tbody tr', { hasText: 'Di Stays' }).waitFor();
    expect(await editorPage.getByRole('button', { name: /^Erase/ }).count()).toBe(0);
  });

  it('shows editors no erasure form', async () => {
    const page = await open(editor);
    await page.goto(`${server.url}/settings/workspace`);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(await page.getByRole('region', { name: 'Viewer privacy' }).count()).toBe(0);
  });
});
