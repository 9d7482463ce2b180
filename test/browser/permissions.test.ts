import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/permissions';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 860 };

const browser: Browser | null = await launchBrowser();

/**
 * What each role is offered in the web app follows the session's permissions: an admin (the control, so
 * that an absence below means something) sees every action, an editor edits and shares but neither deletes
 * demos nor manages the team, webhooks or OAuth apps, and a viewer only reads.
 */
describe.skipIf(!browser)('actions shown per role in Chromium', () => {
  let server: TestServer;
  const sessions = {} as Record<Role, TestSession>;
  const contexts: BrowserContext[] = [];
  let demoId: string;
  const DEMO = 'Pricing tour';

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    sessions.admin = await server.signUp();
    sessions.editor = await server.member(sessions.admin, 'editor');
    sessions.viewer = await server.member(sessions.admin, 'viewer');
    const created = await sessions.admin.inject({ method: 'POST', url: '/v1/demos', payload: { title: DEMO } });
    expect(created.statusCode).toBe(201);
    demoId = created.json().data.id;
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  /** A browser signed in as `role` in the admin's workspace (the session cookies the API gave that member). */
  async function signedIn(role: Role): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, sessions[role], DESKTOP);
    contexts.push(context);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
  const count = (page: Page, role: 'button' | 'link', name: string | RegExp) => page.getByRole(role, { name, exact: typeof name === 'string' }).count();

  async function offered(role: Role) {
    const page = await signedIn(role);
    await page.goto(`${server.url}/demos`);
    // Present for everyone: the list has loaded before anything is judged absent.
    await page.getByRole('link', { name: new RegExp(DEMO) }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const navLinks = await nav.getByRole('link').allTextContents();
    const newDemo = await count(page, 'button', 'New demo');
    const shareInList = await count(page, 'button', `Share ${DEMO}`);

    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: 'Preview', exact: true }).waitFor();
    // Archive and Delete are in the header's "More" menu (when the role has anything to put there).
    const more = page.getByRole('button', { name: /^More/ });
    if ((await more.count()) > 0) await more.click();
    const menuItem = (name: string) => page.getByRole('menuitem', { name, exact: true }).count();
    const editor = {
      share: await count(page, 'button', `Share ${DEMO}`),
      publish: await count(page, 'button', 'Publish'),
      archive: await menuItem('Archive'),
      delete: await menuItem('Delete'),
      titleEditable: (await page.getByLabel('Demo title').getAttribute('readonly')) === null,
    };
    await shot(page, `permissions-editor-page-${role}`);

    await page.goto(`${server.url}/team`);
    await page.getByRole('table', { name: 'Team members' }).waitFor();
    const invite = await count(page, 'button', 'Invite member');
    const roleSelects = await page.getByRole('combobox').count();
    await shot(page, `permissions-team-${role}`);

    await page.goto(`${server.url}/settings/workspace`);
    const settingsNav = page.getByRole('navigation', { name: 'Settings' });
    await settingsNav.getByRole('link', { name: 'Workspace' }).waitFor();
    const tabs = await settingsNav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('aria-label') ?? a.textContent));

    // An address typed by hand still explains rather than loading and failing with a 403.
    await page.goto(`${server.url}/settings/webhooks`);
    const explanation = page.getByText('Only admins manage webhooks.');
    await explanation.or(page.getByRole('heading', { name: 'No webhooks yet' })).waitFor();
    const webhooksPage = (await explanation.count()) > 0 ? 'explained' : 'shown';
    await page.close();
    return { navLinks, newDemo, shareInList, editor, invite, roleSelects, tabs, webhooksPage };
  }

  it('offers an admin every action', async () => {
    expect(await offered('admin')).toEqual({
      navLinks: ['Demos', 'Hubs', 'Analytics', 'Leads', 'Team', 'Settings'],
      newDemo: 1,
      shareInList: 1,
      editor: { share: 1, publish: 1, archive: 1, delete: 1, titleEditable: true },
      invite: 1,
      roleSelects: 3,
      tabs: ['Workspace', 'AI', 'API keys', 'OAuth apps', 'Webhooks', 'Slack', 'HubSpot', 'Audit log'],
      webhooksPage: 'shown',
    });
  });

  it('offers an editor editing and sharing, but no demo deletion, team, webhook or OAuth app management', async () => {
    expect(await offered('editor')).toEqual({
      navLinks: ['Demos', 'Hubs', 'Analytics', 'Leads', 'Team', 'Settings'],
      newDemo: 1,
      shareInList: 1,
      editor: { share: 1, publish: 1, archive: 1, delete: 0, titleEditable: true },
      invite: 0,
      roleSelects: 0,
      tabs: ['Workspace', 'API keys'],
      webhooksPage: 'explained',
    });
  });

  it('offers a viewer reading only', async () => {
    expect(await offered('viewer')).toEqual({
      navLinks: ['Demos', 'Hubs', 'Analytics', 'Leads', 'Team', 'Settings'],
      newDemo: 0,
      shareInList: 0,
      editor: { share: 0, publish: 0, archive: 0, delete: 0, titleEditable: false },
      invite: 0,
      roleSelects: 0,
      tabs: ['Workspace', 'API keys'],
      webhooksPage: 'explained',
    });
  });
});
