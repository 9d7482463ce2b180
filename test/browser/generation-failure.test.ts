import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../../src/core/net/address-policy';
import { SafeFetch } from '../../src/core/net/safe-fetch';
import { createGenerator } from '../../src/generation';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { waitForDemo } from '../helpers/demos';
import { testDocumentPool } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// A real refused generation (a loopback address, no allow-list) as people see it: in words, with Retry
// and Delete, the setting named for an admin and "ask an admin" for an editor; and, without SMTP, a
// verify banner and notification settings that promise no e-mail.
describe.skipIf(!browser)('failed generations and mail without SMTP, in the web app (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let editor: TestSession;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];
  const net = new SafeFetch(AddressPolicy.fromList(undefined));
  const documents = testDocumentPool();
  const generator = createGenerator({ net, documents, chromiumPath: null });

  beforeAll(async () => {
    server = await startTestServer({ jobs: true, generator: (options) => generator.generate(options) });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    editor = await server.member(admin, 'editor');
    key = await server.apiKey('all', admin);
    const created = await server.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: 'http://127.0.0.1:9/', type: 'interactive', generate_with_ai: true },
    });
    demoId = created.json().data.id;
    await waitForDemo(server, key, demoId, (d) => d.generation.status === 'failed');
  }, 180_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await generator.close();
    await net.close();
    await documents.close();
  });

  async function open(session: TestSession): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, session);
    contexts.push(context);
    return page;
  }

  it('shows the failed attempt in words with Retry and Delete, the setting to an admin and "ask an admin" to an editor', async () => {
    const page = await open(admin);
    await page.goto(`${server.url}/demos`);
    const row = page.locator('table tbody tr', { hasText: '127.0.0.1' });
    await row.getByText('Generation failed', { exact: true }).waitFor();
    expect(await row.getByText('Draft', { exact: true }).count()).toBe(0);
    await row.getByText(/ALLOW_PRIVATE_NETWORK_CIDRS/).waitFor();
    expect(await row.getByRole('button', { name: /Retry/ }).count()).toBe(1);
    expect(await row.getByRole('button', { name: /Delete/ }).count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/generation-failure-list.png`, animations: 'disabled' });

    await page.goto(`${server.url}/demos/${demoId}`);
    const notice = page.locator('.alert', { hasText: 'Generation failed: this demo has no steps yet' });
    await notice.waitFor();
    await notice.getByText(/127\.0\.0\.1 is a loopback address.*adding 127\.0\.0\.1\/32 to the ALLOW_PRIVATE_NETWORK_CIDRS setting/).waitFor();
    await page.screenshot({ path: `${SHOTS}/generation-failure-editor-admin.png`, animations: 'disabled' });

    const theirs = await open(editor);
    await theirs.goto(`${server.url}/demos/${demoId}`);
    const seen = theirs.locator('.alert', { hasText: 'Generation failed: this demo has no steps yet' });
    await seen.getByText(/Ask an admin of this Demoshare server to allow this address/).waitFor();
    expect(await seen.getByText(/ALLOW_PRIVATE_NETWORK_CIDRS/).count()).toBe(0);
    expect(await seen.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await seen.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await theirs.screenshot({ path: `${SHOTS}/generation-failure-editor-member.png`, animations: 'disabled' });

    await notice.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/demos$/);
    const gone = await server.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) });
    expect(gone.statusCode).toBe(404);
  });

  it('promises no e-mail without SMTP: the banner and notification settings say so, and tell an admin the settings', async () => {
    const page = await open(admin);
    await page.goto(`${server.url}/account`);
    const banner = page.locator('.banner');
    await banner.getByText(/this server cannot send e-mail yet/).waitFor();
    expect(await banner.getByText(/follow the link we sent/).count()).toBe(0);
    await banner.getByText('SMTP_URL').waitFor();
    expect(await page.getByText('Follow the link we e-mailed to this address').count()).toBe(0);
    const section = page.locator('#notifications');
    await section.getByText('This server cannot send e-mail').waitFor();
    const mode = section.getByLabel('E-mail me');
    expect(await mode.isDisabled()).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/mail-without-smtp-admin.png`, animations: 'disabled', fullPage: true });

    const theirs = await open(editor);
    // An invited member proved their address through the invitation link: no banner, but the same settings.
    await theirs.goto(`${server.url}/account`);
    const theirSection = theirs.locator('#notifications');
    await theirSection.getByText('Ask an admin of this server to set up e-mail.').waitFor();
    expect(await theirSection.getByText('SMTP_URL').count()).toBe(0);
    await theirSection.scrollIntoViewIfNeeded();
    await theirs.screenshot({ path: `${SHOTS}/mail-without-smtp-member.png`, animations: 'disabled' });
  });
});
