import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'correct horse battery staple';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 812 };

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
    expect(await create.locator('input[name=scopes]:checked').count()).toBe(8);
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
    await page.getByText(`Invitation sent to ${invitee}`).waitFor();
    const inviteeRow = page.getByRole('row', { name: new RegExp(invitee.replaceAll('.', '\\.')) });
    await inviteeRow.getByText('Invited').waitFor();
    expect(await overflows(page)).toBe(false);
    await shot(page, 'team-desktop');

    await page.getByLabel(`Role of ${invitee}`).selectOption('viewer');
    await page.getByText(`${invitee} is now a viewer`).waitFor();
    const afterRole = await (await api('/team/members', key)).json();
    expect(afterRole.data.find((m: { email: string }) => m.email === invitee)).toMatchObject({ role: 'viewer', status: 'invited' });

    await page.getByRole('button', { name: `Remove ${invitee}` }).click();
    await page.getByRole('dialog', { name: `Remove ${invitee}?` }).getByRole('button', { name: 'Remove member' }).click();
    await inviteeRow.waitFor({ state: 'detached' });
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

  it('lets an invited viewer join from the invitation link, switch workspace and see why team changes are not theirs', async () => {
    const admin = await server.signUp();
    const adminWorkspace = (await admin.inject({ method: 'GET', url: '/v1/auth/session' })).json().data.workspace.name as string;
    const invitee = uniqueEmail('vic');
    const invited = await admin.inject({ method: 'POST', url: '/v1/team/members', payload: { email: invitee, role: 'viewer' } });
    expect(invited.statusCode).toBe(201);

    const page = await open(DESKTOP);
    await page.goto(`${server.url}/signup?email=${encodeURIComponent(invitee)}`);
    expect(await page.getByLabel('Work e-mail').inputValue()).toBe(invitee);
    await page.getByLabel('Your name').fill('Vic Viewer');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/demos');

    await page.getByRole('button', { name: /Vic Viewer.*Admin/ }).click();
    await shot(page, 'user-menu-desktop');
    await page.getByRole('button', { name: new RegExp(`${adminWorkspace}.*Viewer`) }).click();
    await page.getByText(`Switched to ${adminWorkspace}`).waitFor();
    await page.getByRole('button', { name: new RegExp(`Viewer · ${adminWorkspace}`) }).waitFor();

    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('row', { name: /Vic Viewer.*You/ }).waitFor();
    await page.getByRole('row', { name: new RegExp(admin.email.replaceAll('.', '\\.')) }).waitFor();
    await page.getByText('Only admins can invite people, change roles or remove members.').waitFor();
    expect(await page.getByRole('button', { name: 'Invite member' }).isDisabled()).toBe(true);
    expect(await page.getByRole('combobox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await shot(page, 'team-viewer-desktop');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByText('You see the keys you created.').waitFor();
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
    expect(await dialog.locator('input[name=scopes]:checked').count()).toBe(8);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
