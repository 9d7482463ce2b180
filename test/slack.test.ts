import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events } from '../src/events/events.tables';
import { createSmtpMailer } from '../src/mail/mailer';
import { slackDestinations, slackMessages } from '../src/slack/slack.tables';
import { engine } from './helpers/database';
import { createShare, demoWithSteps, playView, viewerClient } from './helpers/shares';
import { hubClient, seedHub } from './helpers/hubs';
import { allText, type SlackMessageIn, SlackReceiver } from './helpers/slack-receiver';
import { decodeBody, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually } from './helpers/webhook-receiver';

const APP_URL = 'https://demos.example.test';

describe('Slack alerts against a local receiver', () => {
  let t: TestApp;
  let admin: TestSession;
  let editor: TestSession;
  let key: string;
  let slack: SlackReceiver;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    slack = await new SlackReceiver().start();
    smtp = await startSmtpServer();
    t = await createTestApp({
      jobs: true,
      mailer: await createSmtpMailer(smtp.url, 'Demoshare <no-reply@localhost>'),
      smtp,
      config: {
        APP_URL,
        ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
        WEBHOOK_RETRY_DELAYS: [300, 300],
        WEBHOOK_TIMEOUT: 5000,
        WEBHOOK_POLL_INTERVAL: 200,
      },
    });
    admin = await t.signUp();
    editor = await t.member(admin, 'editor');
    key = await t.apiKey('all', admin);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await slack?.close();
    await smtp?.close();
  });
  beforeEach(() => slack.reset());

  const ws = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object, who = admin) =>
    who.inject({ method, url: `/v1/workspace/slack${url}`, ...(payload ? { payload } : {}) });
  const own = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object, who = editor) =>
    who.inject({ method, url: `/v1/account/slack${url}`, ...(payload ? { payload } : {}) });
  const messagesOf = async (call: typeof ws, query = '') => (await call('GET', `/messages${query}`)).json().data as Array<Record<string, unknown>>;
  const settled = (call: typeof ws, n: number, what: string) =>
    eventually(
      async () => {
        const list = await messagesOf(call);
        return list.length >= n && list.every((m) => m.status !== 'pending' && m.status !== 'sending') ? list : undefined;
      },
      20_000,
      what,
    );

  it('checks a URL by a test message when it is saved, keeps it sealed, and shows only a hint', async () => {
    expect((await ws('GET', '')).json().data).toMatchObject({ connected: false, status: 'not_connected', alerts: [] });
    // No URL yet: 400. A URL Slack refuses: 422 with its answer, nothing saved.
    expect((await ws('PUT', '', { alerts: ['lead_captured'] })).statusCode).toBe(400);
    slack.answer((req) => (req.path === '/services/dead' ? { status: 404, body: 'no_service' } : undefined));
    const refused = await ws('PUT', '', { url: `${slack.url}/services/dead`, alerts: ['lead_captured'] });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.message).toContain('no_service');
    expect(refused.json().error.details).toEqual([{ field: 'url', message: 'Slack answered 404 no_service' }]);
    expect((await ws('GET', '')).json().data.connected).toBe(false);
    // Bad input: unknown fields, unknown alerts, `mine` on the workspace's, a non-http URL: 400, nothing sent.
    const before = slack.received.length;
    expect((await ws('PUT', '', { url: `${slack.url}/x`, alerts: [], extra: 1 })).statusCode).toBe(400);
    expect((await ws('PUT', '', { url: `${slack.url}/x`, alerts: ['everything'] })).statusCode).toBe(400);
    expect((await ws('PUT', '', { url: `${slack.url}/x`, alerts: [], scope: 'mine' })).statusCode).toBe(400);
    expect((await ws('PUT', '', { url: 'ftp://hooks.slack.com/x', alerts: [] })).statusCode).toBe(400);
    expect(slack.received.length).toBe(before);

    const url = `${slack.url}/services/T1/B1/secretTokenAbCd`;
    const saved = await ws('PUT', '', { url, alerts: ['viewer_opened', 'demo_finished', 'lead_captured'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ connected: true, status: 'active', url_hint: expect.stringMatching(/…AbCd$/) });
    expect(saved.body).not.toContain('secretToken');
    const [test] = slack.messages('/services/T1/B1/secretTokenAbCd');
    expect(test!.text).toContain('Demoshare is connected');
    expect(slack.received.at(-1)!.headers['content-type']).toContain('application/json');
    const [row] = await t.ctx.database.db.select().from(slackDestinations).where(eq(slackDestinations.workspaceId, admin.workspaceId));
    expect(row!.urlSealed).not.toContain('secretToken');
    // Changing the alerts alone keeps the URL and sends nothing.
    const n = slack.received.length;
    expect((await ws('PUT', '', { alerts: ['viewer_opened', 'demo_finished', 'lead_captured', 'daily_digest'] })).statusCode).toBe(200);
    expect(slack.received.length).toBe(n);
    const tried = await ws('POST', '/test');
    expect(tried.json().data).toEqual({ ok: true, status_code: 200, error: null });
    // The workspace's destination is the admins'; every member has their own.
    expect((await ws('GET', '', undefined, editor)).statusCode).toBe(403);
    expect((await own('GET', '')).json().data.connected).toBe(false);
    expect((await own('POST', '/test')).statusCode).toBe(404);
  });

  it('posts an identified viewer who opens and finishes, escaped, with the company and the journey; never twice', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const link = await createShare(t, key, demoId, { name: 'Q4 outreach' });
    // The editor's own alerts cover only the demos they created: this one is the admin's.
    expect((await own('PUT', '', { url: `${slack.url}/own`, alerts: ['viewer_opened', 'demo_finished'], scope: 'mine' })).statusCode).toBe(200);
    slack.reset();

    await playView(t, link.token, { email: 'jane@acme-corp.test', name: 'Jane <!channel> & Co', reached: 3, complete: true });
    const list = await settled(ws, 2, 'two alerts sent');
    expect(list.map((m) => [m.alert, m.status, m.attempts])).toEqual(
      expect.arrayContaining([
        ['viewer_opened', 'sent', 1],
        ['demo_finished', 'sent', 1],
      ]),
    );
    const msgs = slack.messages('/services/T1/B1/secretTokenAbCd');
    expect(msgs).toHaveLength(2);
    const opened = msgs.find((m) => m.text.includes('opened'))!;
    const text = allText(opened);
    expect(text).toContain('Jane &lt;!channel&gt; &amp; Co');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('acme-corp.test');
    expect(text).toContain('Secret roadmap tour');
    expect(text).toContain('Q4 outreach');
    expect(text).toContain('<mailto:jane@acme-corp.test|jane@acme-corp.test>');
    expect(text).toMatch(new RegExp(`${APP_URL}/demos/${demoId}/analytics\\?view=view_[0-9a-z]+`));
    const finished = allText(msgs.find((m) => m.text.includes('finished'))!);
    expect(finished).toMatch(/Finished all 3 steps in \d+ s/);
    // The completion's event carries only the address: the name comes from the view.
    expect(finished).toContain('Jane &lt;!channel&gt; &amp; Co from *acme-corp.test* finished');
    expect(slack.messages('/own')).toHaveLength(0);

    // An anonymous view is no "identified viewer opened"; a member's own view is no alert at all.
    await playView(t, link.token, { reached: 1 });
    await playView(t, link.token, { email: admin.email, name: 'Me', reached: 3, complete: true });
    // Replaying every event of the workspace through the consumer makes nothing new: one message per event and destination.
    const all = await t.ctx.database.db.select().from(events).where(eq(events.workspaceId, admin.workspaceId));
    await t.ctx.database.db.transaction((tx) => t.ctx.outbox.consume(tx, all, new Date()));
    const rows = await t.ctx.database.db.select().from(slackMessages).where(eq(slackMessages.workspaceId, admin.workspaceId));
    expect(rows.filter((r) => r.alert !== 'daily_digest')).toHaveLength(2);
    expect(new Set(rows.map((r) => `${r.destinationId}:${r.subject}`)).size).toBe(rows.length);
  });

  it('posts a lead with its answers and a button to the leads', async () => {
    const demoId = await demoWithSteps(t, key, 2, false);
    const api = (method: 'GET' | 'PATCH', url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
    const steps = (await api('GET', `/v1/demos/${demoId}`)).json().data.steps as { id: string; number: number }[];
    const form = { fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }, { name: 'name', label: 'Name', type: 'text' }, { name: 'company', label: 'Company', type: 'text' }], submit_label: 'Send' };
    expect((await api('PATCH', `/v1/demos/${demoId}/steps/${steps[1]!.id}`, { kind: 'form', title: 'Who are you', content: { buttons: [], form } })).statusCode).toBe(200);
    expect((await api('PATCH', `/v1/demos/${demoId}`, { status: 'published' })).statusCode).toBe(200);
    const link = await createShare(t, key, demoId);
    const v = viewerClient(t, link.token);
    expect((await v.call('GET', '')).statusCode).toBe(200);
    const sent = await v.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: { email: 'sam@gmail.com', name: 'Sam', company: 'Globex & Sons' } });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const m = await eventually(async () => slack.messages('/services/T1/B1/secretTokenAbCd').find((x) => x.text.includes('form')), 20_000, 'lead alert');
    const text = allText(m);
    expect(text).toContain('Globex &amp; Sons');
    expect(text).toContain('Sent the form on step 2 of 2');
    expect(text).toContain(`${APP_URL}/leads`);
    expect(m.blocks.length).toBeLessThanOrEqual(50);
  });

  it('retries 5xx and 429 (honouring Retry-After), and stops at a dead URL, which the settings show', async () => {
    const destination = (await t.ctx.database.db.select().from(slackDestinations).where(eq(slackDestinations.workspaceId, admin.workspaceId)))[0]!;
    const queue = (subject: string) =>
      t.ctx.database.db.transaction((tx) =>
        t.ctx.outbox.consume(
          tx,
          [{ id: subject, workspaceId: admin.workspaceId, kind: 'demo.completed', data: { demo_id: lastDemo, view_id: 'view_x', share_id: 'shr_x', viewer_email: 'a@b.test', completion_time: 61 }, occurredAt: new Date(), createdAt: new Date(), dispatchedAt: null }],
          new Date(),
        ),
      );
    const [lastDemoRow] = await t.ctx.database.db.select({ id: slackMessages.id }).from(slackMessages).limit(1);
    expect(lastDemoRow).toBeDefined();
    const lastDemo = await demoWithSteps(t, key, 1);

    // Two 500s, then ok: sent on the third attempt.
    slack.answer((_req, i) => (i < 2 ? { status: 500, body: 'rollup_error' } : undefined));
    await queue(`evt_${randomUUID().replace(/-/g, '').slice(0, 26)}`);
    const flaky = await settled(ws, 1, 'the flaky one');
    expect(flaky[0]).toMatchObject({ status: 'sent', attempts: 3 });

    // 429 with Retry-After: 1 → the retry waits a second, not the 300 ms of the schedule.
    slack.reset();
    slack.answer((_req, i) => (i === 0 ? { status: 429, body: 'rate_limited', headers: { 'retry-after': '1' } } : undefined));
    await queue(`evt_${randomUUID().replace(/-/g, '').slice(0, 26)}`);
    await slack.waitFor((r) => r.length >= 2, 20_000, 'the retry after 429');
    expect(slack.received[1]!.at - slack.received[0]!.at).toBeGreaterThanOrEqual(900);

    // 404 no_service: the message fails, the destination is disabled, waiting messages are cancelled.
    slack.reset();
    slack.answer(() => ({ status: 404, body: 'no_service' }));
    await queue(`evt_${randomUUID().replace(/-/g, '').slice(0, 26)}`);
    const state = await eventually(async () => {
      const s = (await ws('GET', '')).json().data;
      return s.status === 'disabled' ? s : undefined;
    });
    expect(state.disabled_reason).toBe('Slack answered 404 no_service');
    const failed = (await messagesOf(ws, '?status=failed'))[0]!;
    expect(failed).toMatchObject({ last_status_code: 404, last_error: 'Slack answered 404 no_service', attempts: 1 });
    // The admins are told by e-mail (not the editor), with the reason and where to save a new URL.
    const isNotice = (m: { raw: string }) => m.raw.includes('Subject: Demoshare alerts to Slack stopped');
    const notice = await smtp.waitFor(isNotice, 10_000);
    expect(notice.to).toEqual([admin.email]);
    expect(decodeBody(notice.raw)).toContain('Slack answered 404 no_service');
    expect(decodeBody(notice.raw)).toContain(`${APP_URL}/settings/slack`);
    expect(decodeBody(notice.raw)).not.toContain(slack.url);
    // Disabled: new events make no messages, a retry is refused.
    const count = slack.received.length;
    await queue(`evt_${randomUUID().replace(/-/g, '').slice(0, 26)}`);
    expect((await ws('POST', `/messages/${failed.id}/retry`)).statusCode).toBe(409);
    // A test message Slack takes turns it back on; the failed message can then be sent again.
    slack.reset();
    expect((await ws('POST', '/test')).json().data.ok).toBe(true);
    expect((await ws('GET', '')).json().data.status).toBe('active');
    const again = await ws('POST', `/messages/${failed.id}/retry`);
    expect(again.statusCode, again.body).toBe(200);
    await eventually(async () => ((await messagesOf(ws, '?status=sent')).some((m) => m.id === failed.id) ? true : undefined), 20_000, 'resent');
    expect(slack.received.length).toBe(2); // the test message and the resent one: nothing else was queued while disabled
    expect(smtp.messages.filter(isNotice)).toHaveLength(1);
    expect(count).toBeGreaterThan(0);
    expect((await ws('POST', `/messages/${failed.id}/retry`)).statusCode).toBe(409);
    expect(destination.id).toMatch(/^slk_/);
  });

  it('posts the daily digest once per day, with the hubs’ visits, and forgets everything on DELETE', async () => {
    const day = new Date().toISOString().slice(0, 10);
    // A hub visited twice, once by someone who gave their address; a hub nobody visited is not named.
    const { hub, token } = await seedHub(t, key, {
      hub: { name: 'Partner <portal>', lead_fields: ['company'] },
      collections: [{ name: 'Tours', entries: [{ title: 'Invoicing' }] }],
    });
    await seedHub(t, key, { hub: { name: 'Quiet hub' }, collections: [] });
    const visitor = hubClient(t, token, { ip: '203.0.113.77' });
    const access = await visitor.call('POST', '/access', { name: 'Hana Ito', email: 'hana@initech.test', company: 'Initech' });
    expect(access.statusCode, access.body).toBe(200);
    expect((await hubClient(t, token, { ip: '203.0.113.78' }).call('GET', '')).statusCode).toBe(200);
    // The editor's own digest (`mine`) tells of the hub they made, not the admin's, and of none of the admin's demos.
    expect((await own('PUT', '', { alerts: ['daily_digest'], scope: 'mine' })).statusCode).toBe(200);
    const mine = await seedHub(t, await t.apiKey('all', editor), { hub: { name: 'Editor’s hub' }, collections: [] });
    expect((await hubClient(t, mine.token, { ip: '203.0.113.79' }).call('GET', '')).statusCode).toBe(200);
    const queued = await t.ctx.services.slack.slack.queueDigests(day);
    expect(queued).toBe(2);
    const own_ = await eventually(async () => slack.messages('/own').find((x) => x.text.includes(`on ${day}`)), 20_000, 'the editor’s digest');
    expect(own_!.text.endsWith(` on ${day}: 1 hub visit`)).toBe(true);
    expect(allText(own_!)).toContain(`|Editor’s hub>: 1 visit`);
    expect(allText(own_!)).not.toContain('Partner');
    expect(await t.ctx.services.slack.slack.queueDigests(day)).toBe(0);
    const workspaceMessages = () => slack.received.filter((r) => r.path !== '/own').map((r) => JSON.parse(r.body.toString('utf8')) as SlackMessageIn);
    const m = await eventually(async () => workspaceMessages().find((x) => x.text.includes(`on ${day}`)), 20_000, 'digest');
    const text = allText(m);
    expect(text).toContain('Secret roadmap tour');
    expect(text).toContain('acme-corp.test');
    expect(text).toContain(`${APP_URL}/analytics`);
    expect(text).not.toContain(admin.email);
    // The workspace's digest tells of every hub: the editor's too.
    expect(m!.text).toMatch(/; 3 hub visits, 1 visitor identified$/);
    expect(text).toContain('|Editor’s hub>: 1 visit');
    expect(text).toContain(`• <${APP_URL}/hubs/${hub.id}#visitors|Partner &lt;portal&gt;>: 2 visits, 1 visitor identified: Hana Ito (hana@initech.test, Initech)`);
    expect(text).not.toContain('Quiet hub');

    expect((await ws('DELETE', '')).statusCode).toBe(204);
    expect((await ws('DELETE', '')).statusCode).toBe(204);
    expect((await ws('GET', '')).json().data.connected).toBe(false);
    const left = await t.ctx.database.db.select().from(slackMessages).where(inArray(slackMessages.workspaceId, [admin.workspaceId]));
    expect(left.every((r) => r.destinationId !== 'gone')).toBe(true);
    expect((await messagesOf(ws)).length).toBe(0);
    expect((await own('DELETE', '')).statusCode).toBe(204);
    expect((await messagesOf(own)).length).toBe(0);
  });
  // CI found it: DELETE answered 500 when it met a worker settling a message. The delete locks the
  // destination, then its messages by cascade; the worker locked the message, then the destination.
  // A trigger holds the worker between the two so the DELETE lands there every time.
  it.skipIf(engine !== 'postgres')('deletes a destination while a worker is settling one of its messages: no deadlock, nothing left', async () => {
    const db = t.ctx.database;
    expect((await ws('PUT', '', { url: `${slack.url}/services/settling`, alerts: ['demo_finished'] })).statusCode).toBe(200);
    slack.reset();
    const demoId = await demoWithSteps(t, key, 1);
    await db.executeSql(`create or replace function slack_settle_pause() returns trigger language plpgsql as $$ begin perform pg_sleep(0.6); return new; end $$`);
    await db.executeSql(`create trigger slack_settle_pause after update on slack_messages for each row when (new.status = 'sent') execute function slack_settle_pause()`);
    try {
      await t.ctx.database.db.transaction((tx) =>
        t.ctx.outbox.consume(
          tx,
          [{ id: `evt_${randomUUID().replace(/-/g, '').slice(0, 26)}`, workspaceId: admin.workspaceId, kind: 'demo.completed', data: { demo_id: demoId, view_id: 'view_x', share_id: 'shr_x', viewer_email: null, completion_time: 12 }, occurredAt: new Date(), createdAt: new Date(), dispatchedAt: null }],
          new Date(),
        ),
      );
      await slack.waitFor((r) => r.length >= 1, 20_000, 'the message');
      await new Promise((r) => setTimeout(r, 150)); // the worker is now inside its settling transaction
      const deleted = await ws('DELETE', '');
      expect(deleted.statusCode, deleted.body).toBe(204);
    } finally {
      await db.executeSql('drop trigger if exists slack_settle_pause on slack_messages');
      await db.executeSql('drop function if exists slack_settle_pause()');
    }
    expect((await ws('GET', '')).json().data.connected).toBe(false);
    const left = await db.db.select().from(slackMessages).where(eq(slackMessages.workspaceId, admin.workspaceId));
    expect(left).toHaveLength(0);
  });
});
