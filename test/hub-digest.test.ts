// The daily digest's hub section: a day's visits and identified visitors per hub, for the members whose setting covers the hub; through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { createSmtpMailer } from '../src/mail/mailer';
import { hubClient } from './helpers/hubs';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import { decodeBody, type ReceivedMail, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually } from './helpers/webhook-receiver';

const APP_URL = 'https://demos.example.test';
const DAY1 = '2026-11-23';
const DAY2 = '2026-11-24';

/** A message's Subject header, unfolded and its encoded words (RFC 2047, as nodemailer writes them) decoded. */
function subjectOf(raw: string): string {
  const folded = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return folded
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?UTF-8\?([QB])\?(.*?)\?=\s*/gi, (_, how: string, word: string) =>
      how.toUpperCase() === 'B' ? Buffer.from(word, 'base64').toString('utf8') : decodeBody(word.replace(/_/g, ' ')),
    );
}

/** The message's text and HTML, decoded, with the text's lines ending in \n. */
const bodyOf = (mail: ReceivedMail) => decodeBody(mail.raw).replace(/\r\n/g, '\n');

describe('the daily digest’s hubs', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: TestSession;
  let editor: TestSession;
  let analyst: TestSession;
  let adminKey: string;
  let demoId: string;
  const clock = manualClock(`${DAY1}T09:00:00.000Z`);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>');
    t = await createTestApp({ mailer, smtp, clock, jobs: true, config: { APP_URL } });
    admin = await t.signUp();
    editor = await t.member(admin, 'editor');
    analyst = await t.member(admin, 'viewer');
    adminKey = await t.apiKey('all', admin);
    expect((await admin.inject({ method: 'PATCH', url: '/v1/workspace', payload: { name: 'Acme' } })).statusCode).toBe(200);
    demoId = await demoWithSteps(t, adminKey, 2);
    // The admin reads about every demo and hub, the editor about what they created; the analyst asked for nothing.
    for (const [who, payload] of [
      [admin, { mode: 'daily', scope: 'all' }],
      [editor, { mode: 'daily', scope: 'mine' }],
    ] as const) {
      expect((await who.inject({ method: 'PATCH', url: '/v1/account/notifications', payload })).statusCode).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function hubBy(key: string, body: object) {
    const created = await t.app.inject({ method: 'POST', url: '/v1/hubs', headers: bearer(key), payload: body });
    expect(created.statusCode, created.body).toBe(201);
    const hub = created.json().data as { id: string; url: string };
    const collection = await t.app.inject({ method: 'POST', url: `/v1/hubs/${hub.id}/collections`, headers: bearer(key), payload: { name: 'All' } });
    await t.app.inject({ method: 'POST', url: `/v1/hubs/${hub.id}/entries`, headers: bearer(key), payload: { demo_id: demoId, collection_id: collection.json().data.id } });
    return { id: hub.id, token: hub.url.split('/h/')[1]! };
  }
  /** A visit in a browser of its own; with `form`, passing the hub's form. */
  async function visit(token: string, form?: object, opts: { ip?: string; cookie?: string } = {}) {
    // A minute apart, so that a visitor's later identification is later.
    clock.advance(60_000);
    const v = hubClient(t, token, opts);
    expect((await v.call('GET', '')).statusCode).toBe(200);
    if (form) {
      const passed = await v.call('POST', '/access', form);
      expect(passed.statusCode, passed.body).toBe(200);
      expect(passed.json().data.gate).toBe('ready');
    }
  }
  const digestsTo = (email: string, day: string) =>
    smtp.messages.filter((m) => m.to.includes(email) && subjectOf(m.raw).startsWith(`Acme on ${day}:`));
  /** Every mail job has run: what was not delivered by now never will be. */
  const mailDone = () =>
    eventually(
      async () => {
        const { rows } = await t.db.database.executeSql("select count(*)::int as n from pgboss.job where name like 'mail%' and state in ('created', 'retry', 'active')");
        return Number(rows[0]!.n) === 0;
      },
      20_000,
      'the mail queue drained',
    );

  it('tells of a day with hub visits and no views: per hub the visits, who identified, and the Visitors card; members left out', async () => {
    const partner = await hubBy(adminKey, { name: 'Partner demos', lead_fields: ['company'] });
    const editorsHub = await hubBy(await t.apiKey('all', editor), { name: 'Editor’s hub', require_identification: true });
    await hubBy(adminKey, { name: 'Quiet hub', require_identification: true });
    const tried = await hubBy(adminKey, { name: 'Tried by the team', require_identification: true });

    // Partner demos: Grace in two browsers (one visitor, her later answer), two visits that stopped at the form.
    await visit(partner.token, { name: 'Grace Hopper', email: 'grace@remington.test', company: 'Remington Rand' }, { ip: '203.0.113.1' });
    await visit(partner.token, { name: 'Grace Hopper', email: 'grace@remington.test', company: 'Sperry' }, { ip: '203.0.113.2' });
    await visit(partner.token);
    await visit(partner.token);
    // Not news: a member's address typed into the form, and a member's own visit (signed in to the web app).
    await visit(partner.token, { name: 'Ed', email: editor.email, company: 'Us' }, { ip: '203.0.113.3' });
    await visit(tried.token, { name: 'Admin trying', email: 'admin.trying@outside.test' }, { cookie: admin.cookie });
    await visit(editorsHub.token, { name: 'Ada', email: 'ada@engines.test' }, { ip: '203.0.113.4' });

    const { notifications } = t.ctx.services.notifications;
    expect(await notifications.sendDigests(DAY1)).toBe(2);
    const mail = await smtp.waitFor((m: ReceivedMail) => m.to.includes(admin.email) && subjectOf(m.raw).startsWith(`Acme on ${DAY1}`), 20_000);
    const text = bodyOf(mail);
    expect(subjectOf(mail.raw)).toBe(`Acme on ${DAY1}: 5 hub visits, 2 visitors identified`);
    expect(text).toContain(`On ${DAY1} (UTC), your demos in Acme had no views; your hubs had visitors.`);
    expect(text).toContain(
      [
        'Hubs',
        '“Partner demos”: 4 visits, 1 visitor identified: Grace Hopper (grace@remington.test, Sperry).',
        `See the hub’s visitors: ${APP_URL}/hubs/${partner.id}#visitors`,
        '“Editor’s hub”: 1 visit, 1 visitor identified: Ada (ada@engines.test).',
        `See the hub’s visitors: ${APP_URL}/hubs/${editorsHub.id}#visitors`,
      ].join('\n'),
    );
    expect(text).toContain(`Open your hubs: ${APP_URL}/hubs`);
    expect(text).toContain(`<a href="${APP_URL}/hubs/${partner.id}#visitors">See the hub’s visitors</a>`);
    expect(text).toContain(`<a href="${APP_URL}/hubs/${editorsHub.id}#visitors">See the hub’s visitors</a>`);
    for (const absent of ['Quiet hub', 'Tried by the team', 'admin.trying@outside.test', editor.email, 'Remington Rand']) expect(text).not.toContain(absent);

    // The editor chose their own: the hub they created, not the admin's.
    const own = bodyOf(await smtp.waitFor((m) => m.to.includes(editor.email) && subjectOf(m.raw).startsWith(`Acme on ${DAY1}`), 20_000));
    expect(own).toContain('“Editor’s hub”: 1 visit, 1 visitor identified: Ada (ada@engines.test).');
    expect(own).not.toContain('Partner demos');

    // Once a day: a second run sends nothing; the analyst asked for nothing and got nothing.
    expect(await notifications.sendDigests(DAY1)).toBe(0);
    await mailDone();
    expect(digestsTo(admin.email, DAY1)).toHaveLength(1);
    expect(digestsTo(editor.email, DAY1)).toHaveLength(1);
    expect(digestsTo(analyst.email, DAY1)).toHaveLength(0);
  });

  it('adds the hubs to a day with views, and leaves them out of a day without hub activity', async () => {
    clock.set(`${DAY2}T10:00:00.000Z`);
    const link = await createShare(t, adminKey, demoId, { require_identification: true });
    await playView(t, link.token, { email: 'bob@globex.test', name: 'Bob', reached: 2, complete: true, ip: '203.0.113.20' });
    const partner = await hubBy(adminKey, { name: 'Second partner hub' });
    await visit(partner.token);
    // Only a member's own visit on the editor's side: nothing for them (their demos had no views either).
    const editorsHub = await hubBy(await t.apiKey('all', editor), { name: 'Editor’s quiet day', require_identification: true });
    await visit(editorsHub.token, { name: 'Ed', email: editor.email }, { cookie: editor.cookie });

    const { notifications } = t.ctx.services.notifications;
    expect(await notifications.sendDigests(DAY2)).toBe(1);
    const mail = await smtp.waitFor((m) => m.to.includes(admin.email) && subjectOf(m.raw).startsWith(`Acme on ${DAY2}`), 20_000);
    const text = bodyOf(mail);
    expect(subjectOf(mail.raw)).toBe(`Acme on ${DAY2}: 1 view, 1 completed; 1 hub visit`);
    expect(text).toContain('had 1 view; 1 viewer reached the end.');
    expect(text).toContain(`Who: Bob (bob@globex.test) on “Secret roadmap tour”, to the end.`);
    expect(text).toContain(['Hubs', '“Second partner hub”: 1 visit.', `See the hub’s visitors: ${APP_URL}/hubs/${partner.id}#visitors`].join('\n'));
    expect(text).toContain(`Open analytics: ${APP_URL}/analytics`);
    await mailDone();
    expect(digestsTo(editor.email, DAY2)).toHaveLength(0);

    // A day with views and no hub activity: the digest as it always was, without a Hubs section.
    clock.set('2026-11-25T10:00:00.000Z');
    await playView(t, link.token, { email: 'carol@initech.test', name: 'Carol', reached: 1, ip: '203.0.113.21' });
    expect(await notifications.sendDigests('2026-11-25')).toBe(1);
    const plain = await smtp.waitFor((m) => m.to.includes(admin.email) && subjectOf(m.raw).startsWith('Acme on 2026-11-25'), 20_000);
    expect(subjectOf(plain.raw)).toBe('Acme on 2026-11-25: 1 view, 0 completed');
    expect(bodyOf(plain)).not.toContain('Hubs');
    expect(bodyOf(plain)).not.toContain('#visitors');
    // A quiet day sends nothing.
    expect(await notifications.sendDigests('2026-11-26')).toBe(0);
  });
});
