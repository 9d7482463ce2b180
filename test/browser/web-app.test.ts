import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { createSmtpMailer } from '../../src/mail/mailer';
import { startTestServer, type TestServer } from '../helpers/server';
import { decodeBody, startSmtpServer } from '../helpers/smtp';
import { uniqueEmail } from '../helpers/test-app';
import { SCOPES } from '../../src/auth/permissions';

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 812 };
const PHONE_390 = { width: 390, height: 844 };

const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('web app in Chromium', () => {
  let server: TestServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // Every test signs up or in from 127.0.0.1; the default budget of 10 a minute is for real clients.
    server = await startTestServer({ config: { RATE_LIMIT_LOGIN_PER_MINUTE: 100 } });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser!.newContext({ viewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.url}/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  const mask = (key: string) => `${key.slice(0, 8)}…${key.slice(-4)}`;

  async function signUpThroughUi(page: Page, email: string) {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Workspace name').fill('Acme Analytics');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/demos');
  }

  it('signs up, creates, uses, rotates and revokes an API key, and manages the team', async () => {
    const page = await open(DESKTOP);
    const email = uniqueEmail('ada');

    await page.goto(`${server.url}/signup`);
    await shot(page, 'signup-desktop');
    // The server's validation details land under the field they name.
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Must be at least 10 characters').waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');

    await signUpThroughUi(page, email);
    await page.getByRole('heading', { name: 'Demos', exact: true }).waitFor();
    await page.getByRole('button', { name: /Admin · Acme Analytics/ }).waitFor();

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/api/keys');
    await page.getByRole('heading', { name: 'No API keys yet' }).waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();

    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('CRM sync');
    await create.getByLabel('Select all').check();
    expect(await create.locator('input[name=scopes]:checked').count()).toBe(SCOPES.length);
    await create.getByLabel('Select all').uncheck();
    expect(await create.locator('input[name=scopes]:checked').count()).toBe(0);
    await create.getByRole('button', { name: 'Create key' }).click();
    await create.getByText('Choose at least one scope').waitFor();
    await create.getByLabel('team:read', { exact: true }).check();
    await create.getByLabel('demos:read', { exact: true }).check();
    await create.getByLabel('Expires').selectOption('30');
    await shot(page, 'create-key-desktop');
    await create.getByRole('button', { name: 'Create key' }).click();

    const reveal = page.getByRole('dialog', { name: 'API key created' });
    await reveal.getByText('You will not see it again').waitFor();
    const key = await reveal.getByLabel('API key').inputValue();
    expect(key).toMatch(/^dsk_[0-9A-Za-z]{49}$/);
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await reveal.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(page, 'key-dialog-desktop');
    await reveal.getByRole('button', { name: 'Done' }).click();
    await reveal.waitFor({ state: 'detached' });

    const members = await api('/team/members', key);
    expect(members.status).toBe(200);
    const body = await members.json();
    expect(body.meta.total).toBe(1);
    expect(body.data[0]).toMatchObject({ email, role: 'admin', status: 'active', name: 'Ada Lovelace' });
    // Only the ticked scopes were granted.
    const invite = await api('/team/members', key, { method: 'POST', body: JSON.stringify({ email: uniqueEmail('x'), role: 'viewer' }) });
    expect(invite.status).toBe(403);
    expect((await invite.json()).error.code).toBe('insufficient_scope');

    const row = page.getByRole('row', { name: new RegExp(`CRM sync.*${mask(key).replace('…', '.')}`) });
    await row.waitFor();
    expect(await row.getByText('team:read').isVisible()).toBe(true);
    expect(await row.getByText('demos:read').isVisible()).toBe(true);
    expect(await overflows(page)).toBe(false);
    await shot(page, 'keys-list-desktop');

    await page.getByRole('button', { name: `Rotate CRM sync (${mask(key)})` }).click();
    await page.getByRole('dialog', { name: 'Rotate “CRM sync”?' }).getByRole('button', { name: 'Rotate key' }).click();
    const rotated = page.getByRole('dialog', { name: 'Key rotated' });
    await rotated.getByText(/keeps working for 24 hours, until/).waitFor();
    const newKey = await rotated.getByLabel('API key').inputValue();
    expect(newKey).not.toBe(key);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Rotated', { exact: true }).waitFor();
    await shot(page, 'keys-rotated-desktop');
    expect((await api('/team/members', key)).status).toBe(200);
    expect((await api('/team/members', newKey)).status).toBe(200);

    await page.getByRole('button', { name: `Revoke CRM sync (${mask(newKey)})` }).click();
    await page.getByRole('dialog', { name: 'Revoke “CRM sync”?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key “CRM sync” revoked').waitFor();
    await page.getByRole('button', { name: `Revoke CRM sync (${mask(newKey)})` }).waitFor({ state: 'detached' });
    const revoked = await api('/team/members', newKey);
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).error.code).toBe('unauthorized');

    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('row', { name: /Ada Lovelace.*You/ }).waitFor();
    const invitee = uniqueEmail('grace');
    await page.getByRole('button', { name: 'Invite member' }).click();
    const inviteDialog = page.getByRole('dialog', { name: 'Invite a team member' });
    await inviteDialog.getByLabel('E-mail').fill(invitee);
    await inviteDialog.getByRole('button', { name: 'Send invitation' }).click();
    // This server has no SMTP: the link comes back to the admin, once, to pass on.
    const linkDialog = page.getByRole('dialog', { name: 'Send this invitation link' });
    await linkDialog.getByText(`nothing was sent to ${invitee}`).waitFor();
    const link = await linkDialog.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    await linkDialog.getByRole('button', { name: 'Copy invitation link' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shot(page, 'invitation-link-desktop');
    await linkDialog.getByRole('button', { name: 'Done' }).click();
    await linkDialog.waitFor({ state: 'detached' });
    const inviteeRow = page.getByRole('row', { name: new RegExp(invitee.replaceAll('.', '\\.')) });
    await inviteeRow.getByText('Invited').waitFor();
    expect(await overflows(page)).toBe(false);
    await shot(page, 'team-desktop');

    await page.getByLabel(`Role of ${invitee}`).selectOption('viewer');
    await page.getByText(`${invitee} is now a viewer`).waitFor();
    const afterRole = await (await api('/team/members', key)).json();
    expect(afterRole.data.find((m: { email: string }) => m.email === invitee)).toMatchObject({ role: 'viewer', status: 'invited' });

    await page.getByRole('button', { name: `Revoke the invitation to ${invitee}` }).click();
    await page.getByRole('dialog', { name: `Revoke the invitation to ${invitee}?` }).getByRole('button', { name: 'Revoke invitation' }).click();
    await inviteeRow.waitFor({ state: 'detached' });
    expect((await fetch(`${server.url}/v1/invitations/${link.split('/invite/')[1]}`)).status).toBe(404);
    const afterRemove = await (await api('/team/members', key)).json();
    expect(afterRemove.data.map((m: { email: string }) => m.email)).toEqual([email]);
  });

  it('signs out and back in, and sends signed-out visitors to the login page', async () => {
    const page = await open(DESKTOP);
    const email = uniqueEmail('lin');
    const signup = await fetch(`${server.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, name: 'Lin Chen', workspace_name: 'Northwind' }),
    });
    expect(signup.status).toBe(201);

    await page.goto(`${server.url}/team`);
    await page.waitForURL('**/login?next=%2Fteam');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter your e-mail address').waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Wrong e-mail address or password').waitFor();
    await shot(page, 'login-error-desktop');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/team');
    await page.getByRole('row', { name: /Lin Chen.*You/ }).waitFor();

    // A session that ends behind the app's back: the next API call's 401 brings the login page back.
    await page.evaluate(() =>
      fetch('/v1/auth/logout', { method: 'POST', headers: { 'x-csrf-token': document.cookie.replace(/.*ds_csrf=([^;]*).*/, '$1') } }),
    );
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/login?next=%2Fsettings%2Fapi%2Fkeys&expired=1');
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/settings/api/keys');

    await page.getByRole('button', { name: /Admin · Northwind/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => fetch('/v1/auth/session').then((r) => r.status))).toBe(401);
    await page.goto(`${server.url}/settings/api/keys`);
    await page.waitForURL('**/login?next=%2Fsettings%2Fapi%2Fkeys');
  });

  it('works at phone width: the navigation collapses into a drawer and nothing overflows', async () => {
    const page = await open(PHONE);

    await page.goto(`${server.url}/signup`);
    await shot(page, 'signup-phone');
    expect(await overflows(page)).toBe(false);
    await signUpThroughUi(page, uniqueEmail('phone'));

    const teamLink = page.getByRole('link', { name: 'Team' });
    expect(await teamLink.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await teamLink.waitFor();
    await shot(page, 'nav-drawer-phone');
    await teamLink.click();
    await page.waitForURL('**/team');
    await teamLink.waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /Ada Lovelace/ }).waitFor();
    expect(await overflows(page)).toBe(false);
    await shot(page, 'team-phone');

    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.keyboard.press('Escape');
    await teamLink.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/api/keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('Phone key');
    await create.getByLabel('Select all').check();
    await create.getByRole('button', { name: 'Create key' }).click();
    const reveal = page.getByRole('dialog', { name: 'API key created' });
    await reveal.getByText('You will not see it again').waitFor();
    await shot(page, 'key-dialog-phone');
    await page.keyboard.press('Escape');
    await reveal.waitFor({ state: 'detached' });
    await page.getByText('All scopes').waitFor();
    expect(await overflows(page)).toBe(false);
    await shot(page, 'keys-list-phone');
  });

  // Two sign-ups, a sign-in and some thirty page steps on a server of its own: on a loaded CI machine this
  // ran past the suite's 120 s (it takes 5 s alone), so it gets twice that.
  it('lets an invited viewer join from the link in the e-mail, switch workspace and see why team changes are not theirs', async () => {
    // A server of its own that really e-mails, with APP_URL its own origin so the link in the mail opens it.
    const smtp = await startSmtpServer();
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@localhost>');
    const mailing = await startTestServer({ selfUrl: true, mailer, smtp, config: { RATE_LIMIT_LOGIN_PER_MINUTE: 100 } });
    const openedBefore = contexts.length;
    try {
      const page = await open(DESKTOP);
      await page.goto(`${mailing.url}/signup`);
      await page.getByLabel('Your name').fill('Ada Admin');
      await page.getByLabel('Work e-mail').fill(uniqueEmail('ada'));
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Workspace name').fill('Globex Labs');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL('**/demos');
      await page.getByRole('link', { name: 'Team' }).click();
      const invitee = uniqueEmail('vic');
      await page.getByRole('button', { name: 'Invite member' }).click();
      const inviteDialog = page.getByRole('dialog', { name: 'Invite a team member' });
      await inviteDialog.getByLabel('E-mail').fill(invitee);
      await inviteDialog.getByLabel('Role').selectOption('viewer');
      await inviteDialog.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${invitee}`).waitFor();
      await page.getByRole('row', { name: new RegExp(invitee.replaceAll('.', '\\.')) }).getByText('Invited').waitFor();

      const mail = await smtp.waitFor((m) => m.to.includes(invitee));
      const link = new RegExp(`${mailing.url}/invite/[A-Za-z0-9_-]{43}`).exec(decodeBody(mail.raw))?.[0];
      expect(link).toBeDefined();

      // Signing up with the invited address without the link joins nothing: only the link does.
      const visitor = await open(DESKTOP);
      await visitor.goto(link!);
      await visitor.getByRole('heading', { name: 'Join Globex Labs' }).waitFor();
      await visitor.getByText(`Ada Admin invited ${invitee} to join as a viewer`).waitFor();
      expect(await visitor.getByLabel('E-mail').inputValue()).toBe(invitee);
      expect(await overflows(visitor)).toBe(false);
      await shot(visitor, 'accept-invitation-desktop');
      await visitor.getByLabel('Your name').fill('Vic Viewer');
      await visitor.getByLabel('Password').fill(PASSWORD);
      await visitor.getByRole('button', { name: 'Create account and join Globex Labs' }).click();
      await visitor.waitForURL('**/demos');
      await visitor.getByRole('button', { name: /Viewer · Globex Labs/ }).waitFor();

      // The link worked once.
      const again = await open(DESKTOP);
      await again.goto(link!);
      await again.getByRole('heading', { name: 'This invitation link is not valid' }).waitFor();
      await shot(again, 'invitation-used-desktop');

      await visitor.getByRole('button', { name: /Vic Viewer.*Globex Labs/ }).click();
      await shot(visitor, 'user-menu-desktop');
      const own = visitor.getByRole('button', { name: /workspace.*Admin/ });
      await own.click();
      await visitor.getByText(/Switched to/).waitFor();
      await visitor.getByRole('button', { name: /Vic Viewer.*Admin/ }).click();
      await visitor.getByRole('button', { name: /Globex Labs.*Viewer/ }).click();
      await visitor.getByText('Switched to Globex Labs').waitFor();

      await visitor.getByRole('link', { name: 'Team' }).click();
      await visitor.getByRole('row', { name: /Vic Viewer.*You/ }).waitFor();
      await visitor.getByRole('row', { name: /Ada Admin/ }).waitFor();
      await visitor.getByText('Only admins can invite people, change roles or remove members.').waitFor();
      expect(await visitor.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
      expect(await visitor.getByRole('combobox').count()).toBe(0);
      expect(await visitor.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      await shot(visitor, 'team-viewer-desktop');

      await visitor.getByRole('link', { name: 'Settings' }).click();
      await visitor.getByText('You see the keys you created.').waitFor();

      // The admin's list shows the newcomer as active.
      await page.reload();
      await page.getByRole('row', { name: /Vic Viewer.*Active/ }).waitFor();
    } finally {
      // Its pages first: a page still talking to the server would hold its close open (a CI run once timed
      // out here after 240 s, cause not found).
      const opened = contexts.splice(openedBefore);
      await Promise.all(opened.map((c) => c.close().catch(() => {})));
      await mailing.close();
      await smtp.close();
    }
  }, 240_000);

  it('runs the sidebar down the whole of a page taller than the window, its user menu at the foot of the window', async () => {
    const page = await open(DESKTOP);
    await signUpThroughUi(page, uniqueEmail('long'));
    // Enough keys that the list runs well past the window.
    const statuses = await page.evaluate(async () => {
      const csrf = document.cookie.replace(/.*ds_csrf=([^;]*).*/, '$1');
      const out: number[] = [];
      for (let i = 1; i <= 24; i++) {
        const res = await fetch('/v1/api-keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ name: `Key ${i}`, scopes: ['demos:read'] }),
        });
        out.push(res.status);
      }
      return out;
    });
    expect(statuses.every((s) => s === 201)).toBe(true);
    await page.goto(`${server.url}/settings/api/keys`);
    await page.getByRole('row', { name: /Key 24/ }).waitFor();

    const geometry = () =>
      page.evaluate(() => {
        const sidebar = document.querySelector('.sidebar')!.getBoundingClientRect();
        const user = document.querySelector('.user-button')!.getBoundingClientRect();
        const nav = document.querySelector('.nav')!.getBoundingClientRect();
        return {
          documentHeight: document.documentElement.scrollHeight,
          windowHeight: window.innerHeight,
          sidebarTop: sidebar.top + window.scrollY,
          sidebarHeight: sidebar.height,
          navTop: nav.top,
          userBottom: user.bottom,
        };
      });
    await shot(page, 'long-page-desktop');
    const top = await geometry();
    expect(top.documentHeight).toBeGreaterThan(top.windowHeight + 300);
    // The sidebar's surface and border go from the top of the document to its foot, not just one window down.
    expect(top.sidebarTop).toBe(0);
    expect(Math.round(top.sidebarHeight)).toBe(top.documentHeight);
    // What is in it stays in view: the navigation at the top of the window, the user menu at its foot.
    expect(top.navTop).toBeGreaterThanOrEqual(0);
    expect(top.userBottom).toBeLessThanOrEqual(top.windowHeight);
    expect(top.userBottom).toBeGreaterThan(top.windowHeight - 40);

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.screenshot({ path: `${SHOTS}/long-page-scrolled-desktop.png`, animations: 'disabled' });
    const bottom = await geometry();
    expect(bottom.navTop).toBeGreaterThanOrEqual(0);
    expect(bottom.navTop).toBeLessThan(bottom.windowHeight / 2);
    expect(bottom.userBottom).toBeLessThanOrEqual(bottom.windowHeight);
    expect(bottom.userBottom).toBeGreaterThan(bottom.windowHeight - 40);

    // The user menu still opens upwards, over the page, from the foot of the window.
    await page.getByRole('button', { name: /Admin · Acme Analytics/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
  });

  it('shows every settings tab at phone width, the first one whole when the last one is active', async () => {
    const page = await open(PHONE_390);
    await signUpThroughUi(page, uniqueEmail('tabs'));
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/api/keys');
    const tabs = page.getByRole('navigation', { name: 'Settings' });

    /** Each tab's left and right edge, and the part of the bar that shows. */
    const layout = () =>
      tabs.evaluate((bar) => {
        const box = bar.getBoundingClientRect();
        return {
          bar: { left: box.left, right: box.right, scrollLeft: bar.scrollLeft },
          tabs: [...bar.querySelectorAll('a')].map((a) => {
            const r = a.getBoundingClientRect();
            return { name: a.getAttribute('aria-label') ?? a.textContent, left: r.left, right: r.right, top: r.top, active: a.classList.contains('active') };
          }),
        };
      });
    const expectAllShown = async () => {
      const { bar, tabs: shown } = await layout();
      expect(shown.map((t) => t.name)).toEqual(['Workspace', 'AI', 'API keys', 'OAuth apps', 'Webhooks', 'Slack', 'HubSpot', 'Audit log']);
      for (const tab of shown) {
        expect(tab.left, `${tab.name} starts inside the bar`).toBeGreaterThanOrEqual(Math.max(0, bar.left) - 0.5);
        expect(tab.right, `${tab.name} ends inside the bar`).toBeLessThanOrEqual(Math.min(page.viewportSize()!.width, bar.right) + 0.5);
      }
      expect(bar.scrollLeft).toBe(0);
      expect(await overflows(page)).toBe(false);
    };
    await expectAllShown();

    // Tapped, as a finger would, then reached by a fresh page load: the first tab stays whole.
    await tabs.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL('**/settings/audit-log');
    await shot(page, 'settings-tabs-phone');
    await expectAllShown();
    await page.reload();
    await tabs.getByRole('link', { name: 'Audit log' }).waitFor();
    await expectAllShown();
    expect((await layout()).tabs.find((t) => t.active)?.name).toBe('Audit log');

    // From the keyboard: every tab takes focus in order, shows a focus ring and is followed with Enter.
    await tabs.getByRole('link', { name: 'Workspace' }).focus();
    for (const name of ['AI', 'API keys', 'OAuth apps', 'Webhooks', 'Slack', 'HubSpot', 'Audit log']) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent)).toBe(name);
      await expectAllShown();
    }
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).boxShadow)).not.toBe('none');
    await page.screenshot({ path: `${SHOTS}/settings-tab-focus-phone.png`, animations: 'disabled' });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/settings/hubspot');
    await expectAllShown();
    await page.setViewportSize(PHONE);
    await expectAllShown();

    // Narrower than any tab bar can fit: the bar scrolls, and shows the active tab whole.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${server.url}/settings/webhooks`);
    await tabs.getByRole('link', { name: 'Webhooks' }).waitFor();
    const narrow = await layout();
    const active = narrow.tabs.find((t) => t.active)!;
    expect(active.name).toBe('Webhooks');
    expect(active.left).toBeGreaterThanOrEqual(narrow.bar.left - 0.5);
    expect(active.right).toBeLessThanOrEqual(narrow.bar.right + 0.5);
    expect(await overflows(page)).toBe(false);
    await shot(page, 'settings-tabs-narrow-phone');
  });

  it('is usable from the keyboard: dialogs take focus, keep it, close on Escape and give it back', async () => {
    const page = await open(DESKTOP);
    await signUpThroughUi(page, uniqueEmail('kbd'));
    await page.goto(`${server.url}/settings/api/keys`);
    const opener = page.getByRole('button', { name: 'Create key' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('name');

    const focusInDialog = () => page.evaluate(() => Boolean(document.querySelector('dialog[open]')?.contains(document.activeElement)));
    const controls = await dialog.locator('button, input, select').count();
    for (let i = 0; i < controls + 3; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog()).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await focusInDialog()).toBe(true);

    // Space toggles a focused checkbox: the scope list works without a mouse.
    await dialog.getByLabel('Select all').focus();
    await page.keyboard.press('Space');
    expect(await dialog.locator('input[name=scopes]:checked').count()).toBe(SCOPES.length);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
