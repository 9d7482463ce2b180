// Members who asked for instant notices hear of a hub's visitors: e-mail through a real SMTP server, Slack through a local receiver.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/mail/mailer';
import { hubClient } from './helpers/hubs';
import { demoWithSteps } from './helpers/shares';
import { allText, SlackReceiver } from './helpers/slack-receiver';
import { decodeBody, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { bearer, createTestApp, type TestApp, type TestSession, uniqueEmail } from './helpers/test-app';
import { eventually } from './helpers/webhook-receiver';

const APP_URL = 'https://demos.example.test';
const escapeRegExp = (s: string) => s.replace(/[.+*?()[\]\\]/g, '\\$&');
/** A message's Subject header, unfolded and its encoded words (RFC 2047, as nodemailer writes them) decoded. */
function subjectOf(raw: string): string {
  const folded = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return folded
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?UTF-8\?([QB])\?(.*?)\?=\s*/gi, (_, how: string, word: string) =>
      how.toUpperCase() === 'B' ? Buffer.from(word, 'base64').toString('utf8') : decodeBody(word.replace(/_/g, ' ')),
    );
}

describe('notices of a hub’s visitors', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let slack: SlackReceiver;
  let admin: TestSession;
  let editor: TestSession;
  let analyst: TestSession;
  let adminKey: string;
  let editorKey: string;
  let demoId: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    slack = await new SlackReceiver().start();
    t = await createTestApp({
      jobs: true,
      mailer: await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>'),
      smtp,
      config: { APP_URL, ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_DELAYS: [300, 300], WEBHOOK_POLL_INTERVAL: 200 },
    });
    admin = await t.signUp();
    editor = await t.member(admin, 'editor');
    analyst = await t.member(admin, 'viewer');
    adminKey = await t.apiKey('all', admin);
    editorKey = await t.apiKey('all', editor);
    demoId = await demoWithSteps(t, adminKey, 2);
    // The admin hears of everything, the editor only of what they created, the analyst reads a digest.
    const choose = async (who: TestSession, payload: object) =>
      expect((await who.inject({ method: 'PATCH', url: '/v1/account/notifications', payload })).statusCode).toBe(200);
    await choose(admin, { mode: 'instant', scope: 'all' });
    await choose(editor, { mode: 'instant', scope: 'mine' });
    await choose(analyst, { mode: 'daily' });
    const ws = await admin.inject({ method: 'PUT', url: '/v1/workspace/slack', payload: { url: `${slack.url}/team`, alerts: ['lead_captured'] } });
    expect(ws.statusCode, ws.body).toBe(200);
    const own = await editor.inject({ method: 'PUT', url: '/v1/account/slack', payload: { url: `${slack.url}/editor`, alerts: ['lead_captured'], scope: 'mine' } });
    expect(own.statusCode, own.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await slack?.close();
  });
  beforeEach(() => slack.reset());

  async function hubBy(key: string, body: object) {
    const created = await t.app.inject({ method: 'POST', url: '/v1/hubs', headers: bearer(key), payload: body });
    expect(created.statusCode, created.body).toBe(201);
    const hub = created.json().data as { id: string; url: string };
    const collection = await t.app.inject({ method: 'POST', url: `/v1/hubs/${hub.id}/collections`, headers: bearer(key), payload: { name: 'All' } });
    await t.app.inject({ method: 'POST', url: `/v1/hubs/${hub.id}/entries`, headers: bearer(key), payload: { demo_id: demoId, collection_id: collection.json().data.id } });
    return { id: hub.id, token: hub.url.split('/h/')[1]! };
  }

  const mailsAbout = (to: string, email: string) =>
    smtp.messages.filter((m) => m.to.includes(to) && decodeBody(m.raw).includes(email) && subjectOf(m.raw).startsWith('New visitor on the hub'));
  /** The notices the job recorded as sent about `email` on `hubId`'s visits, by member: each is one message queued. */
  const told = async (email: string) =>
    (
      await t.db.database.executeSql(
        'select m.id as member from notifications_sent s join members m on m.id = s.member_id where s.subject like $1 order by 1',
        [`hub:%:${email.toLowerCase()}`],
      )
    ).rows.map((r) => String(r.member));
  /** Every hub notice job has run (none waiting, running or to be retried): what was not told by now never will be. */
  const noticesDone = () =>
    eventually(
      async () => {
        const { rows } = await t.db.database.executeSql(
          "select count(*)::int as n from pgboss.job where name = 'notifications.hub' and state in ('created', 'retry', 'active')",
        );
        return Number(rows[0]!.n) === 0;
      },
      20_000,
      'the hub notices sent',
    );
  /** Every event of the hub fanned out (Slack's messages are made then): what has no message by now never will. */
  const eventsDispatched = (hubId: string) =>
    eventually(
      async () => {
        const { rows } = await t.db.database.executeSql(
          "select count(*) filter (where dispatched_at is null)::int as waiting, count(*)::int as n from events where kind = 'viewer.identified' and data->>'hub_id' = $1",
          [hubId],
        );
        return Number(rows[0]!.n) > 0 && Number(rows[0]!.waiting) === 0;
      },
      20_000,
      'the hub’s events dispatched',
    );
  const slackAbout = (path: string, email: string) => slack.messages(path).filter((m) => allText(m).includes(email));

  it('e-mails and posts a lead-form visitor once per visit: who, which hub, the answers, the Visitors card', async () => {
    const hub = await hubBy(adminKey, { name: 'Partner demos', lead_fields: ['company', 'job_title', 'phone'] });
    const grace = uniqueEmail('grace').replace('@example.com', '@remington.test');
    const v = hubClient(t, hub.token);
    const form = { name: 'Grace Hopper', email: grace, company: 'Remington Rand', job_title: 'Rear admiral', phone: '+1 555 0100' };
    expect((await v.call('GET', '')).json().data.gate).toBe('identification');
    // A double click: one identification, one notice.
    const [a, b] = await Promise.all([v.call('POST', '/access', form), v.call('POST', '/access', form)]);
    expect([a.statusCode, b.statusCode], a.body).toEqual([200, 200]);
    // Sent again past the gate: nothing is asked, nothing is told.
    expect((await v.call('POST', '/access', form)).json().data.gate).toBe('ready');

    const mail = await smtp.waitFor((m) => m.to.includes(admin.email) && decodeBody(m.raw).includes(grace), 20_000);
    const text = decodeBody(mail.raw);
    expect(subjectOf(mail.raw)).toBe('New visitor on the hub “Partner demos”: Grace Hopper');
    expect(text).toMatch(new RegExp(`Grace Hopper \\(${escapeRegExp(grace)}\\) filled in the form of the hub “Partner demos” at \\d\\d:\\d\\d UTC\\.`));
    expect(text).toContain('Company: Remington Rand; Job title: Rear admiral; Phone: +1 555 0100');
    expect(text).toContain(`See the hub’s visitors: ${APP_URL}/hubs/${hub.id}#visitors`);
    expect(text).toContain(`${APP_URL}/account#notifications`);
    expect(text).toContain(`<a href="${APP_URL}/hubs/${hub.id}#visitors"`);

    await noticesDone();
    // The admin (every demo and hub) once; the editor asked for their own, and this hub is the admin's; the analyst for a digest.
    expect(await told(grace)).toEqual([admin.memberId]);
    expect(mailsAbout(admin.email, grace)).toHaveLength(1);
    expect(mailsAbout(editor.email, grace)).toHaveLength(0);
    expect(mailsAbout(analyst.email, grace)).toHaveLength(0);

    // Slack: the workspace's channel, once, with the company, the answers and the button to the Visitors card.
    await eventsDispatched(hub.id);
    const [posted, ...more] = await eventually(async () => {
      const found = slackAbout('/team', grace);
      return found.length > 0 ? found : undefined;
    }, 20_000, 'the Slack alert');
    expect(more).toHaveLength(0);
    const all = allText(posted!);
    expect(posted!.text).toBe('Grace Hopper from Remington Rand sent the form of the hub “Partner demos”');
    expect(all).toContain('*Job title*\nRear admiral');
    expect(all).toContain('*Phone*\n+1 555 0100');
    expect(all).toContain(`<${APP_URL}/hubs/${hub.id}#visitors|Partner demos>`);
    expect(posted!.blocks.find((x) => x.type === 'actions')!.elements![0]).toMatchObject({ url: `${APP_URL}/hubs/${hub.id}#visitors` });
    expect(slackAbout('/editor', grace)).toHaveLength(0);
    const log = (await admin.inject({ method: 'GET', url: '/v1/workspace/slack/messages' })).json().data as Array<{ alert: string; summary: string }>;
    expect(log.filter((m) => m.summary.includes('Partner demos'))).toEqual([expect.objectContaining({ alert: 'lead_captured' })]);

    // Another browser session of the same person is another visit in the visitors list: told again.
    const again = hubClient(t, hub.token, { ip: '203.0.113.44' });
    expect((await again.call('POST', '/access', { ...form, company: 'Sperry' })).statusCode).toBe(200);
    await smtp.waitFor((m) => m.to.includes(admin.email) && decodeBody(m.raw).includes('Company: Sperry'), 20_000);
    await noticesDone();
    expect(await told(grace)).toEqual([admin.memberId, admin.memberId]);

    // Erasing the person forgets that they were told, as for a link's viewers.
    expect((await admin.inject({ method: 'POST', url: '/v1/viewer-erasures', payload: { email: grace } })).statusCode).toBe(200);
    expect(await told(grace)).toEqual([]);
  });

  it('tells a member who chose their own of the hubs they created', async () => {
    const hub = await hubBy(editorKey, { name: 'Editor’s hub', require_identification: true });
    const ada = uniqueEmail('ada').replace('@example.com', '@engines.test');
    expect((await hubClient(t, hub.token).call('POST', '/access', { name: 'Ada', email: ada })).json().data.gate).toBe('ready');
    const mail = decodeBody((await smtp.waitFor((m) => m.to.includes(editor.email) && decodeBody(m.raw).includes(ada), 20_000)).raw);
    expect(mail).toContain(`Ada (${ada}) filled in the form of the hub “Editor’s hub”`);
    // No answers asked: no line of them.
    expect(mail).not.toContain('Company:');
    await noticesDone();
    expect((await told(ada)).sort()).toEqual([admin.memberId, editor.memberId].sort());

    await eventsDispatched(hub.id);
    await eventually(async () => slackAbout('/editor', ada).length === 1 && slackAbout('/team', ada).length === 1, 20_000, 'both channels');
    expect(slackAbout('/editor', ada)[0]!.text).toBe('Ada from engines.test sent the form of the hub “Editor’s hub”');
  });

  it('tells nobody of a member’s own visit, nor of a member’s address', async () => {
    const hub = await hubBy(adminKey, { name: 'Quiet hub', require_identification: true, lead_fields: ['company'] });
    // Signed in to the web app (the app's session cookie reaches the hub): an internal visit, whatever address is typed.
    const trying = uniqueEmail('trying').replace('@example.com', '@outside.test');
    const inside = hubClient(t, hub.token, { ip: '198.51.100.9', cookie: admin.cookie });
    expect((await inside.call('POST', '/access', { name: 'Admin trying', email: trying, company: 'Us' })).json().data.gate).toBe('ready');
    // Not signed in, but with a member's address.
    const member = hubClient(t, hub.token, { ip: '198.51.100.10' });
    expect((await member.call('POST', '/access', { name: 'Ed', email: editor.email, company: 'Us' })).json().data.gate).toBe('ready');
    // Both fired viewer.identified (the webhook's contract) and neither was told anywhere.
    await eventsDispatched(hub.id);
    await noticesDone();
    const { rows } = await t.db.database.executeSql("select count(*)::int as n from events where kind = 'viewer.identified' and data->>'hub_id' = $1", [hub.id]);
    expect(Number(rows[0]!.n)).toBe(2);
    expect(await told(trying)).toEqual([]);
    expect(await told(editor.email)).toEqual([]);
    const { rows: queued } = await t.db.database.executeSql("select count(*)::int as n from pgboss.job where name = 'notifications.hub' and data->>'hubId' = $1", [hub.id]);
    expect(Number(queued[0]!.n)).toBe(1);
    expect(smtp.messages.filter((m) => decodeBody(m.raw).includes('Quiet hub'))).toHaveLength(0);
    const { rows: alerts } = await t.db.database.executeSql('select count(*)::int as n from slack_messages where summary like $1', ['%Quiet hub%']);
    expect(Number(alerts[0]!.n)).toBe(0);
  });
});
