// Settings → HubSpot in Chromium against a local HubSpot: connect, a refused token, the sync log, a pause and re-sync, at 1280 and 390 px.
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '../../src/events/outbox';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { HubSpotServer, rateLimited, unauthorized } from '../helpers/hubspot-server';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, playView } from '../helpers/shares';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const GOOD = 'pat-na1-good-token-1234';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('Settings → HubSpot in Chromium, against a local HubSpot', () => {
  let server: TestServer;
  let hubspot: HubSpotServer;
  let admin: TestSession;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    hubspot = await new HubSpotServer().start();
    server = await startTestServer({
      jobs: true,
      config: { HUBSPOT_API_URL: hubspot.url, WEBHOOK_RETRY_DELAYS: [500, 500], WEBHOOK_POLL_INTERVAL: 100 },
    });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await hubspot?.close();
  });

  async function open(session: TestSession, path: string, width = 1280): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, session, { width, height: width > 500 ? 900 : 844 });
    contexts.push(context);
    await page.goto(`${server.url}${path}`);
    return page;
  }
  const viewed = (email: string, name: string | null = null) =>
    server.ctx.database.db.transaction((tx) =>
      emitEvent(tx, server.ctx.clock, {
        workspaceId: admin.workspaceId,
        kind: 'demo.viewed',
        data: { demo_id: 'demo_none', view_id: 'view_x', share_id: 'shr_x', viewer_email: email, viewer_name: name, started_at: new Date().toISOString() },
      }),
    );

  it('an admin connects HubSpot, sees a refused token in words, and follows the sync in the log', async () => {
    const page = await open(admin, '/settings/workspace');
    await page.getByRole('link', { name: 'HubSpot', exact: true }).click();
    await page.waitForURL('**/settings/hubspot');
    await page.getByText('HubSpot is not connected').waitFor();

    await page.getByLabel('Access token').fill('pat-na1-revoked');
    await page.getByRole('button', { name: 'Connect HubSpot' }).click();
    await page.getByText(/Authentication credentials not found/).waitFor();
    await page.screenshot({ path: `${SHOTS}/hubspot-refused-token.png`, fullPage: true, animations: 'disabled' });
    expect((await admin.inject({ method: 'GET', url: '/v1/crm/hubspot' })).json().data.status).toBe('not_connected');

    await page.getByLabel('Access token').fill(GOOD);
    await page.getByRole('button', { name: 'Connect HubSpot' }).click();
    await page.getByText('HubSpot is connected').waitFor();
    expect(await page.getByLabel('Access token').getAttribute('placeholder')).toBe('Saved token ending in 1234');

    // The first batch meets HubSpot's rate limit; the page follows the wait and the sync on its own.
    hubspot.script(rateLimited(1), '/crm/v3/objects/contacts/batch/upsert');
    await viewed('ada@example.com', 'Ada Lovelace');
    await viewed('grace.hopper.with.a.long.address@navy.example.com', 'Grace Hopper');
    const log = page.getByRole('list', { name: 'Sync log' });
    await expect.poll(() => log.getByText('Synced').count(), { timeout: 20_000 }).toBe(2);
    await log.getByText('contact created · note added').first().waitFor();
    expect(hubspot.contactByEmail('ada@example.com')?.properties).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace' });
    await page.getByText('2 synced, 0 waiting, 0 failed', { exact: false }).waitFor();
    await page.screenshot({ path: `${SHOTS}/hubspot-connected-1280.png`, fullPage: true, animations: 'disabled' });
  });

  it('shows a revoked token as a paused sync, resumes with a new one, and re-syncs a contact without a second note', async () => {
    hubspot.script(unauthorized(), '/crm/v3/objects/contacts/batch/upsert');
    await viewed('ada@example.com');
    const page = await open(admin, '/settings/hubspot');
    await page.getByText('Sync paused').waitFor({ timeout: 20_000 });
    await page.getByText(/HubSpot refused the token \(HTTP 401/).first().waitFor();
    await page.screenshot({ path: `${SHOTS}/hubspot-paused-1280.png`, fullPage: true, animations: 'disabled' });

    await page.getByLabel('Access token').fill(GOOD);
    await page.getByRole('button', { name: 'Replace token' }).click();
    await page.getByText('HubSpot is connected').waitFor();
    await page.getByText('3 synced, 0 waiting, 0 failed', { exact: false }).waitFor({ timeout: 20_000 });
    expect(hubspot.notesOf('ada@example.com')).toHaveLength(2);

    await page.getByLabel('Contact e-mail').fill('ada@example.com');
    await page.getByRole('button', { name: 'Re-sync' }).click();
    await page.getByText('2 items queued for HubSpot').waitFor();
    await page.getByText('3 synced, 0 waiting, 0 failed', { exact: false }).waitFor({ timeout: 20_000 });
    expect(hubspot.notesOf('ada@example.com')).toHaveLength(2);
  });

  it('sends the activity from before the connection: one contact per earlier viewer, shown as earlier activity in the log', async () => {
    const owner = await server.signUp();
    const key = await server.apiKey('all', owner);
    const link = await createShare(server, key, await demoWithSteps(server, key, 2), { require_identification: true });
    await playView(server, link.token, { email: 'early.bird@example.com', name: 'Early Bird', reached: 2, complete: true });
    const page = await open(owner, '/settings/hubspot');
    await page.getByLabel('Access token').fill(GOOD);
    await page.getByRole('button', { name: 'Connect HubSpot' }).click();
    await page.getByText('HubSpot is connected').waitFor();
    const section = page.getByRole('region', { name: 'Earlier activity' });
    await section.getByRole('button', { name: 'Send earlier activity' }).click();
    await page.getByText('1 contact queued for HubSpot').waitFor();
    const log = page.getByRole('list', { name: 'Sync log' });
    await expect.poll(() => log.getByText('Synced').count(), { timeout: 20_000 }).toBe(1);
    await log.getByText('Earlier activity').waitFor();
    expect(hubspot.notesOf('early.bird@example.com')[0]!.properties.hs_note_body).toContain('to the end');
    await page.screenshot({ path: `${SHOTS}/hubspot-backfill-1280.png`, fullPage: true, animations: 'disabled' });
    // Again: nothing new to send.
    await section.getByRole('button', { name: 'Send earlier activity' }).click();
    await page.getByText('All 1 contacts were sent by an earlier backfill').waitFor();
  });

  it('fits a 390 px phone: the tabs scroll, the form and the log stay inside the screen', async () => {
    const page = await open(admin, '/settings/hubspot', 390);
    await page.getByText('HubSpot is connected').waitFor();
    await page.getByRole('list', { name: 'Sync log' }).getByText('Synced').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/hubspot-390.png`, fullPage: true, animations: 'disabled' });
  });
});
