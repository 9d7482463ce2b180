import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { makeMockupPng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer, type TestSession, uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

type HotspotRead = { id: string; step_id: string; label: string; action: { type: string; target: number | string | null } };
type DemoRead = { steps: { id: string; number: number; title: string }[]; hotspots: HotspotRead[] };

// The editor's flow view: the story as a graph, a branch drawn and retargeted by mouse and from the
// keyboard, undone with the editor's Undo, problems shown, at 1280 and 390 px.
describe.skipIf(!browser)('the editor’s flow view (Chromium)', () => {
  let server: TestServer;
  let editor: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    editor = await server.signUp(uniqueEmail('ada'));
    key = await server.apiKey('all', editor);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
  });

  const api = async (method: string, url: string, payload?: object) => {
    const res = await server.app.inject({ method: method as 'GET', url: `/v1${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });
    if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : res.json().data;
  };
  const read = async (id: string) => (await api('GET', `/demos/${id}`)) as DemoRead;
  const actionOf = async (id: string, hotspotId: string) => (await read(id)).hotspots.find((h) => h.id === hotspotId)!.action;

  async function until<T>(get: () => Promise<T>, ok: (value: T) => boolean, tries = 150): Promise<T> {
    let value = await get();
    for (let i = 0; i < tries && !ok(value); i++) {
      await new Promise((r) => setTimeout(r, 100));
      value = await get();
    }
    if (!ok(value)) throw new Error(`condition never held: ${JSON.stringify(value)}`);
    return value;
  }

  /**
   * Without the player's Next:
   * 1 Welcome: "Take the tour" (next) and "See pricing" (goto 3) — a branch.
   * 2 Dashboard: "Skip ahead" (next).
   * 3 Pricing: "Start a trial" (url): nothing goes on from it, so
   * 4 Invoices is unreachable.
   */
  async function branchingDemo() {
    const demo = await api('POST', '/demos', { title: 'Ledgerly tour', type: 'interactive' });
    // Hotspots only (no player Next): a step goes on only where one of its hotspots leads.
    await api('PATCH', `/demos/${demo.id}`, { configuration: { navigation: { buttons: false, keyboard: false } } });
    const titles = ['Welcome to Ledgerly', 'Your dashboard', 'Pricing plans', 'Send an invoice'];
    const steps: string[] = [];
    for (const [i, title] of titles.entries()) {
      const res = await server.app.inject({
        method: 'POST',
        url: `/v1/demos/${demo.id}/steps`,
        headers: { ...bearer(key), 'content-type': 'image/png' },
        payload: makeMockupPng(1280, 800, [40 + 50 * i, 90, 200 - 40 * i]),
      });
      steps.push(res.json().data.id);
      await api('PATCH', `/demos/${demo.id}/steps/${steps[i]}`, { title });
    }
    const hotspot = (step: number, label: string, action: object, y = 0.3) =>
      api('POST', `/demos/${demo.id}/steps/${steps[step - 1]}/hotspots`, { x: 0.1, y, width: 0.2, height: 0.08, label, action }) as Promise<HotspotRead>;
    const tour = await hotspot(1, 'Take the tour', { type: 'next' });
    const pricing = await hotspot(1, 'See pricing', { type: 'goto', target: 3 }, 0.5);
    const skip = await hotspot(2, 'Skip ahead', { type: 'next' });
    await hotspot(3, 'Start a trial', { type: 'url', target: 'https://ledgerly.example/signup' });
    return { id: demo.id as string, steps, tour, pricing, skip };
  }

  async function openFlow(id: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, editor, viewport);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${id}`);
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    await page.getByRole('button', { name: 'Flow', exact: true }).click();
    await page.locator('.flow-view svg').waitFor();
    return page;
  }

  const node = (page: Page, stepId: string) => page.locator(`[data-flow-node="${stepId}"]`);
  const centre = async (locator: Locator) => {
    const b = (await locator.boundingBox())!;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  /** Presses on `from`, moves in steps (as a hand does) and lets go over `to`; both in view first. */
  async function drag(page: Page, from: Locator, to: Locator) {
    await to.scrollIntoViewIfNeeded();
    await from.scrollIntoViewIfNeeded();
    const start = await centre(from);
    const end = await centre(to);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 6 });
    await page.mouse.move(end.x, end.y, { steps: 6 });
    await page.mouse.up();
  }

  it('shows the story, draws a branch by mouse, retargets it, undoes both and redoes, at 1280 px', async () => {
    const demo = await branchingDemo();
    const page = await openFlow(demo.id);

    // Four nodes; the branch and its label; the url as an outbound marker; step 4 greyed as unreachable.
    await expect.poll(() => page.locator('[data-flow-node]').count()).toBe(4);
    const pricingEdge = page.locator(`[data-flow-edge="${demo.steps[0]}:${demo.pricing.id}"]`);
    await pricingEdge.waitFor();
    await expect.poll(() => pricingEdge.textContent()).toContain('See pricing');
    expect(await page.locator('.flow-outbound-url').count()).toBe(1);
    expect(await node(page, demo.steps[3]!).getAttribute('class')).toContain('flow-node-unreachable');
    await page.locator('.flow-problems', { hasText: 'Step 4' }).waitFor();
    // The implicit "next" of step 2 runs to step 3, drawn lighter.
    expect(await page.locator(`[data-flow-edge="${demo.steps[1]}:next"]`).getAttribute('class')).toContain('flow-edge-next');
    await page.screenshot({ path: `${SHOTS}/editor-flow-1280.png`, fullPage: true });
    // Zoomed out, the whole story is in view: the drags below go from one step to any other.
    await page.getByRole('button', { name: 'Zoom the flow out' }).click();
    await page.getByRole('button', { name: 'Zoom the flow out' }).click();

    // Draw: from the port of step 2's "Skip ahead" to step 4.
    const port = page.locator(`[data-flow-port="${demo.steps[1]}:${demo.skip.id}"] .flow-port-dot`);
    await drag(page, port, node(page, demo.steps[3]!));
    await until(
      () => actionOf(demo.id, demo.skip.id),
      (a) => a.type === 'goto' && a.target === 4,
    );
    // Step 4 is reachable now: no longer greyed.
    await expect.poll(async () => (await node(page, demo.steps[3]!).getAttribute('class')) ?? '').not.toContain('flow-node-unreachable');
    const skipEdge = page.locator(`[data-flow-edge="${demo.steps[1]}:${demo.skip.id}"]`);
    await skipEdge.waitFor();

    // Retarget: the arrow's head dragged from step 4 to step 1 (a loop back).
    const handle = page.locator(`[data-flow-handle="${demo.steps[1]}:${demo.skip.id}"]`);
    await drag(page, handle, node(page, demo.steps[0]!));
    await until(
      () => actionOf(demo.id, demo.skip.id),
      (a) => a.type === 'goto' && a.target === 1,
    );
    await page.screenshot({ path: `${SHOTS}/editor-flow-retargeted.png`, fullPage: true });

    // Undo takes back the retarget, then the branch; redo draws it again.
    const undo = page.getByRole('button', { name: 'Undo' });
    await undo.click();
    await until(
      () => actionOf(demo.id, demo.skip.id),
      (a) => a.type === 'goto' && a.target === 4,
    );
    await page.keyboard.press('Control+z');
    await until(
      () => actionOf(demo.id, demo.skip.id),
      (a) => a.type === 'next',
    );
    await page.getByRole('button', { name: 'Redo' }).click();
    await until(
      () => actionOf(demo.id, demo.skip.id),
      (a) => a.type === 'goto' && a.target === 4,
    );

    // A drag let go on empty space changes nothing.
    const before = await read(demo.id);
    const stray = await centre(page.locator(`[data-flow-port="${demo.steps[0]}:${demo.tour.id}"] .flow-port-dot`));
    await page.mouse.move(stray.x, stray.y);
    await page.mouse.down();
    await page.mouse.move(stray.x + 90, stray.y - 20, { steps: 5 });
    await page.mouse.up();
    await new Promise((r) => setTimeout(r, 300));
    expect((await read(demo.id)).hotspots).toEqual(before.hotspots);

    // Clicking a node opens that step in the editor.
    await node(page, demo.steps[2]!).click({ position: { x: 100, y: 40 } });
    await expect.poll(() => page.locator('.flow-view').count()).toBe(0);
    await expect.poll(() => page.getByLabel('Step title').inputValue()).toBe('Pricing plans');
  });

  it('branches from the keyboard: a hotspot selected, its target picked from the menu, undone with Ctrl+Z', async () => {
    const demo = await branchingDemo();
    const page = await openFlow(demo.id);
    // Tab goes through a step, then its hotspots, then the next step.
    await node(page, demo.steps[0]!).focus();
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-flow-element') ?? document.activeElement?.getAttribute('data-flow-node'));
    expect(await focused()).toBe(`${demo.steps[0]}:${demo.tour.id}`);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`${demo.steps[0]}:${demo.pricing.id}`);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(demo.steps[1]);
    const row = page.locator(`[data-flow-element="${demo.steps[0]}:${demo.pricing.id}"]`);
    await row.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByLabel(/See pricing.*goes to/);
    await expect.poll(() => menu.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await menu.inputValue()).toBe(`step:${demo.steps[2]}`);
    await menu.selectOption({ label: 'Step 4: Send an invoice' });
    await until(
      () => actionOf(demo.id, demo.pricing.id),
      (a) => a.type === 'goto' && a.target === 4,
    );
    await page.screenshot({ path: `${SHOTS}/editor-flow-menu.png` });
    // Undo from the keyboard (outside the menu, which keeps its own keys).
    await page.locator('.flow-hint').click();
    await page.keyboard.press('Control+z');
    await until(
      () => actionOf(demo.id, demo.pricing.id),
      (a) => a.type === 'goto' && a.target === 3,
    );
  });

  it('draws a dangling target as a broken arrow, and one drag repairs it', async () => {
    const demo = await branchingDemo();
    // "See pricing" points at step 3; deleting step 3 leaves it pointing nowhere.
    await api('DELETE', `/demos/${demo.id}/steps/${demo.steps[2]}`);
    const page = await openFlow(demo.id);
    const broken = page.locator(`.flow-edge-broken[data-flow-edge="${demo.steps[0]}:${demo.pricing.id}"]`);
    await broken.waitFor();
    await page.locator('.flow-problems').waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-flow-broken.png`, fullPage: true });
    await drag(page, broken.locator('.flow-broken-end'), node(page, demo.steps[3]!));
    await until(
      () => actionOf(demo.id, demo.pricing.id),
      (a) => a.type === 'goto' && a.target === 3,
    );
    await expect.poll(() => page.locator('.flow-edge-broken').count()).toBe(0);
  });

  it('draws a story with chapters and buttons, and branches a chapter menu’s button by mouse (undone)', async () => {
    const demo = await api('POST', '/demos', { title: 'Ledgerly story', type: 'interactive' });
    const invoicing = await api('POST', `/demos/${demo.id}/chapters`, { title: 'Invoicing' });
    const reporting = await api('POST', `/demos/${demo.id}/chapters`, { title: 'Reporting' });
    const add = (body: object) => api('POST', `/demos/${demo.id}/steps`, body) as Promise<{ id: string }>;
    const cover = await add({ title: 'Welcome to Ledgerly', kind: 'cover', content: { buttons: [{ id: 'start', label: 'Start the tour', action: { type: 'next' } }] } });
    const menu = await add({
      title: 'What would you like to see?',
      kind: 'chapter_menu',
      content: {
        buttons: [
          { id: 'inv', label: 'Invoicing', action: { type: 'chapter', target: invoicing.id } },
          { id: 'rep', label: 'Reporting', action: { type: 'chapter', target: reporting.id } },
        ],
      },
    });
    await add({ title: 'Create an invoice', chapter_id: invoicing.id });
    await add({ title: 'Send it', chapter_id: invoicing.id });
    await add({ title: 'See your reports', chapter_id: reporting.id });
    const end = await add({
      title: 'Ready to try it?',
      kind: 'end',
      content: {
        buttons: [
          { id: 'book', label: 'Book a demo', cta: 'book_meeting', action: { type: 'url', target: 'https://ledgerly.example/book' } },
          { id: 'again', label: 'Start over', style: 'secondary', action: { type: 'restart' } },
        ],
      },
    });
    const page = await openFlow(demo.id);
    await expect.poll(() => page.locator('[data-flow-node]').count()).toBe(6);
    const chapterEdge = page.locator(`[data-flow-edge="${menu.id}:rep"]`);
    await expect.poll(() => chapterEdge.getAttribute('class')).toContain('flow-edge-chapter');
    await page.locator('.flow-legend', { hasText: 'Reporting' }).waitFor();
    expect(await page.locator(`[data-flow-node="${cover.id}"]`).getAttribute('aria-label')).toContain('Cover');
    await page.screenshot({ path: `${SHOTS}/editor-flow-story.png`, fullPage: true });

    await page.getByRole('button', { name: 'Zoom the flow out' }).click();
    await page.getByRole('button', { name: 'Zoom the flow out' }).click();
    await drag(page, page.locator(`[data-flow-port="${menu.id}:rep"] .flow-port-dot`), node(page, end.id));
    const buttonAction = async () =>
      ((await api('GET', `/demos/${demo.id}`)) as { steps: { id: string; content: { buttons: { id: string; action: object }[] } }[] }).steps
        .find((st) => st.id === menu.id)!
        .content.buttons.find((b) => b.id === 'rep')!.action as { type: string; target: unknown };
    await until(buttonAction, (a) => a.type === 'goto' && a.target === 6);
    // The other button of the step is as it was.
    const steps = ((await api('GET', `/demos/${demo.id}`)) as { steps: { id: string; content: { buttons: { id: string; label: string }[] } }[] }).steps;
    expect(steps.find((st) => st.id === menu.id)!.content.buttons.map((b) => b.label)).toEqual(['Invoicing', 'Reporting']);
    await page.getByRole('button', { name: 'Undo' }).click();
    await until(buttonAction, (a) => a.type === 'chapter' && a.target === reporting.id);
    // The same story on a phone: the graph fits its width and scrolls down.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Fit the flow to the view' }).click();
    await page.locator('.flow-scroll').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-flow-story-390.png` });
  });

  it('fits a phone (390 px): no sideways overflow, zoom and scroll, and a branch can still be drawn', async () => {
    const demo = await branchingDemo();
    const page = await openFlow(demo.id, { width: 390, height: 844 });
    await page.locator('.flow-view').scrollIntoViewIfNeeded();
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/editor-flow-390.png`, fullPage: true });
    const scroller = page.locator('.flow-scroll');
    const fit = (await page.locator('.flow-svg').boundingBox())!.width;
    await page.getByRole('button', { name: 'Zoom the flow in' }).click();
    await page.getByRole('button', { name: 'Zoom the flow in' }).click();
    await expect.poll(async () => (await page.locator('.flow-svg').boundingBox())!.width).toBeGreaterThan(fit * 1.2);
    // Zoomed in, the graph scrolls inside its frame, not the page.
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('button', { name: 'Fit the flow to the view' }).click();
    await page.locator('.flow-view').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/editor-flow-390-fit.png` });
    const port = page.locator(`[data-flow-port="${demo.steps[1]}:${demo.skip.id}"] .flow-port-dot`);
    await drag(page, port, node(page, demo.steps[3]!));
    await until(
      () => actionOf(demo.id, demo.skip.id),
      (a) => a.type === 'goto' && a.target === 4,
    );
  });
});
