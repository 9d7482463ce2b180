import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { type ChatServer, startChatServer } from '../helpers/chat-server';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('Settings → AI and the editor’s Rewrite in Chromium, against a local chat server', () => {
  let server: TestServer;
  let chat: ChatServer;
  let admin: TestSession;
  let editor: TestSession;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    chat = await startChatServer();
    // The chat server runs on this machine: opened as an operator would for a local model.
    server = await startTestServer({ config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' } });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    editor = await server.member(admin, 'editor');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await chat?.close();
  });

  async function open(session: TestSession, path: string): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, session, { width: 1280, height: 900 });
    contexts.push(context);
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it('an admin sets up a model: tests it before saving, saves it, and sees a refused key in words', async () => {
    const page = await open(admin, '/settings/workspace');
    await page.getByRole('link', { name: 'AI', exact: true }).click();
    await page.waitForURL('**/settings/ai');
    await page.getByText('AI writing is off').waitFor();

    await page.getByRole('textbox', { name: 'Base URL' }).fill(chat.baseUrl);
    await page.getByRole('textbox', { name: 'Model' }).fill('good');
    await page.getByRole('textbox', { name: 'API key' }).fill('sk-good');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/good-2026-01-01 answered in \d+ ms\./).waitFor();
    // Nothing was saved by the test.
    expect((await admin.inject({ method: 'GET', url: '/v1/workspace/ai' })).json().data.source).toBe('none');
    await page.screenshot({ path: `${SHOTS}/ai-settings-tested.png`, fullPage: true, animations: 'disabled' });

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('AI writing is on').waitFor();
    expect(await page.getByRole('textbox', { name: 'API key' }).inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: 'API key' }).getAttribute('placeholder')).toBe('Saved key ending in good');
    expect((await admin.inject({ method: 'GET', url: '/v1/workspace/ai' })).json().data).toMatchObject({ source: 'workspace', model: 'good', key_last4: 'good' });

    await page.getByRole('textbox', { name: 'API key' }).fill('sk-wrong');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('The model did not answer').waitFor();
    await page.getByText(/The API refused the key \(HTTP 401: “Incorrect API key provided/).waitFor();
    await page.screenshot({ path: `${SHOTS}/ai-settings-refused-key.png`, fullPage: true, animations: 'disabled' });
  });

  it('an editor has no AI tab, and the page itself says who can set it up', async () => {
    const page = await open(editor, '/settings/workspace');
    await page.getByRole('link', { name: 'API keys' }).waitFor();
    expect(await page.getByRole('link', { name: 'AI', exact: true }).count()).toBe(0);
    await page.goto(`${server.url}/settings/ai`);
    await page.getByText('Only admins of this workspace can set up AI writing.').waitFor();
  });

  it('Rewrite suggests a step’s words; Apply saves them as an edit that Undo takes back', async () => {
    const demo = (await editor.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Acme tour' } })).json().data;
    await editor.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps`, payload: { title: 'Pricing', description: 'Prices.' } });
    const page = await open(editor, `/demos/${demo.id}`);
    const title = page.getByRole('textbox', { name: 'Step title' });
    await title.waitFor();
    await page.getByRole('button', { name: 'Rewrite with AI' }).click();
    const suggestion = page.getByRole('region', { name: 'Suggested rewrite' });
    await suggestion.getByText('Rewritten: Pricing').waitFor();
    await suggestion.getByText('Suggested by good-2026-01-01').waitFor();
    await page.screenshot({ path: `${SHOTS}/ai-rewrite-suggestion.png`, animations: 'disabled' });
    // Shown, not saved.
    const stepOf = async () => (await editor.inject({ method: 'GET', url: `/v1/demos/${demo.id}` })).json().data.steps[0];
    expect((await stepOf()).title).toBe('Pricing');

    await suggestion.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await stepOf()).title).toBe('Rewritten: Pricing');
    expect((await stepOf()).description).toBe('Click “Pricing” to see it.');
    await expect.poll(() => title.inputValue()).toBe('Rewritten: Pricing');
    await page.screenshot({ path: `${SHOTS}/ai-rewrite-applied.png`, animations: 'disabled' });

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await stepOf()).title).toBe('Pricing');
    await expect.poll(() => title.inputValue()).toBe('Pricing');

    // Without a model, the button says how to get one.
    await admin.inject({ method: 'DELETE', url: '/v1/workspace/ai' });
    await page.getByRole('button', { name: 'Rewrite with AI' }).click();
    await page.getByText('AI writing is not set up for this workspace: an admin can add a model in Settings → AI.').waitFor();
    await page.screenshot({ path: `${SHOTS}/ai-rewrite-not-set-up.png`, animations: 'disabled' });
  });
});
