import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/oauth-callback';
import { startTestServer, type TestServer } from '../helpers/server';
import { uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('OAuth in Chromium', () => {
  let server: TestServer;
  let client: CallbackReceiver;
  let callback: string;
  let received: URL[] = [];

  beforeAll(async () => {
    server = await startTestServer({ config: { RATE_LIMIT_LOGIN_PER_MINUTE: 100 } });
    mkdirSync(SHOTS, { recursive: true });
    client = await startCallbackReceiver();
    ({ url: callback, received } = client);
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await server?.close();
  });

  async function signUp(page: Page) {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Work e-mail').fill(uniqueEmail('oauth'));
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/demos');
  }

  it('registers an app, asks for consent, and hands a code the client exchanges for a working token', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signUp(page);

    await page.goto(`${server.url}/settings/api/oauth`);
    await page.getByRole('heading', { name: 'No OAuth apps yet' }).waitFor();
    await page.getByRole('button', { name: 'Register app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register an OAuth app' });
    await dialog.getByLabel('Name').fill('Acme CRM');
    await dialog.getByLabel('Redirect URIs').fill(callback);
    await dialog.getByRole('checkbox', { name: /team:read/ }).check();
    await dialog.getByRole('button', { name: 'Register app' }).click();
    const reveal = page.getByRole('dialog', { name: 'Acme CRM is registered' });
    const clientId = await reveal.getByLabel('Client ID').inputValue();
    const clientSecret = await reveal.getByLabel('Client secret').inputValue();
    expect(clientSecret).toMatch(/^dss_/);
    await reveal.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Delete Acme CRM' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/oauth-apps.png`, fullPage: true });

    const query = new URLSearchParams({ client_id: clientId, redirect_uri: callback, response_type: 'code', scope: 'team:read', state: 's-123' });
    await page.goto(`${server.url}/oauth/authorize?${query}`);
    await page.getByRole('heading', { name: 'Allow Acme CRM to access your workspace?' }).waitFor();
    await page.getByText('List team members').waitFor();
    await page.screenshot({ path: `${SHOTS}/oauth-consent.png`, fullPage: true });
    await page.getByRole('button', { name: 'Allow access' }).click();
    await page.waitForURL(`${callback}?**`);

    const back = received.at(-1)!;
    expect(back.searchParams.get('state')).toBe('s-123');
    const code = back.searchParams.get('code')!;
    const tokenRes = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: callback }),
    });
    expect(tokenRes.status).toBe(200);
    const tokens = (await tokenRes.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe('team:read');
    const members = await fetch(`${server.url}/v1/team/members`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(members.status).toBe(200);

    // Denying sends the user back with access_denied and no code.
    await page.goto(`${server.url}/oauth/authorize?${query}`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${callback}?**`);
    expect(received.at(-1)!.searchParams.get('error')).toBe('access_denied');
    expect(received.at(-1)!.searchParams.get('code')).toBeNull();
    await context.close();
  });
});
