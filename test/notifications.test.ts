import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { createSmtpMailer } from '../src/mail/mailer';
import { createShare, demoWithSteps, playView, viewerClient } from './helpers/shares';
import { decodeBody, type ReceivedMail, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { type TestApp, type TestSession, createTestApp, uniqueEmail } from './helpers/test-app';

const APP_URL = 'https://demos.example.test';

describe('viewer notifications', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: TestSession;
  let editor: TestSession;
  let key: string;
  const clock = manualClock('2026-11-23T09:00:00.000Z');
  const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>');
    t = await createTestApp({ mailer, smtp, clock, jobs: true, config: { APP_URL } });
    admin = await t.signUp();
    editor = await t.member(admin, 'editor');
    key = await t.apiKey('all', admin);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailsTo = (email: string, subject: RegExp) =>
    smtp.messages.filter((m) => m.to.includes(email) && subject.test(decodeBody(m.raw)));
  const waitMail = (email: string, subject: RegExp) =>
    smtp.waitFor((m: ReceivedMail) => m.to.includes(email) && subject.test(decodeBody(m.raw)), 20_000);

  async function identify(token: string, email: string, name = 'Jane Doe', ip = '203.0.113.9') {
    const v = viewerClient(t, token, ip);
    await v.call('GET', '');
    const res = await v.call('POST', '/identify', { name, email });
    expect(res.statusCode, res.body).toBe(200);
    return v;
  }

  it('is off until a member asks, and validates what they ask for', async () => {
    const res = await admin.inject({ method: 'GET', url: '/v1/account/notifications' });
    expect(res.json().data).toEqual({ mode: 'off', scope: 'all' });
    const bad = await admin.inject({ method: 'PATCH', url: '/v1/account/notifications', payload: { mode: 'weekly' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('mode');
    const extra = await admin.inject({ method: 'PATCH', url: '/v1/account/notifications', payload: { often: true } });
    expect(extra.statusCode).toBe(400);
    // A key is not a person: notification settings are the web session's.
    const byKey = await t.app.inject({ method: 'GET', url: '/v1/account/notifications', headers: { authorization: `Bearer ${key}` } });
    expect(byKey.statusCode).toBe(403);
    expect((await admin.inject({ method: 'GET', url: '/v1/account/notifications' })).json().data.mode).toBe('off');
  });

  it('e-mails an instant subscriber once per viewer, link and day, and never about a member', async () => {
    const set = await admin.inject({ method: 'PATCH', url: '/v1/account/notifications', payload: { mode: 'instant' } });
    expect(set.json().data).toEqual({ mode: 'instant', scope: 'all' });
    const demoId = await demoWithSteps(t, key, 2);
    const link = await createShare(t, key, demoId, { require_identification: true, name: 'Sent to Globex' });

    const jane = uniqueEmail('jane').replace('@example.com', '@globex.test');
    await identify(link.token, jane);
    const mail = decodeBody((await waitMail(admin.email, /opened/)).raw);
    expect(mail).toContain(`Jane Doe (${jane}) opened “Secret roadmap tour” through the link “Sent to Globex” at 09:00 UTC.`);
    expect(mail).toContain(`${APP_URL}/demos/${demoId}/analytics`);
    expect(mail).toContain(`${APP_URL}/account#notifications`);

    // The same viewer again (another browser), and a member of the workspace: no message. Then someone new,
    // whose message, queued after the others, proves they were handled.
    await identify(link.token, jane, 'Jane Doe', '203.0.113.10');
    await identify(link.token, editor.email, 'Ed Itor', '203.0.113.11');
    const bob = uniqueEmail('bob').replace('@example.com', '@initech.test');
    await identify(link.token, bob, 'Bob');
    await waitMail(admin.email, new RegExp(`Bob \\(${bob.replace(/[.+]/g, '\\$&')}\\) opened`));
    expect(mailsTo(admin.email, new RegExp(jane.replace(/[.+]/g, '\\$&')))).toHaveLength(1);
    expect(mailsTo(admin.email, /Ed Itor/)).toHaveLength(0);
    // The editor asked for nothing and got nothing.
    expect(mailsTo(editor.email, /opened/)).toHaveLength(0);

    // The next day the same viewer is news again.
    clock.advance(24 * 3_600_000);
    await identify(link.token, jane, 'Jane Doe', '203.0.113.12');
    await smtp.waitFor(() => mailsTo(admin.email, new RegExp(jane.replace(/[.+]/g, '\\$&'))).length === 2, 20_000);
  });

  it('sends a daily digest of yesterday: views, completions, new companies, and nothing twice', async () => {
    await admin.inject({ method: 'PATCH', url: '/v1/account/notifications', payload: { mode: 'off' } });
    const set = await editor.inject({ method: 'PATCH', url: '/v1/account/notifications', payload: { mode: 'daily', scope: 'all' } });
    expect(set.statusCode).toBe(200);
    const demoId = await demoWithSteps(t, key, 2);
    const link = await createShare(t, key, demoId, { require_identification: true });
    const day = clock.now().toISOString().slice(0, 10);

    const acme = uniqueEmail('ann').replace('@example.com', '@acme-digest.test');
    const a = await identify(link.token, acme, 'Ann', '203.0.113.20');
    await a.call('POST', '/events', { events: [ev('view_started'), ev('step_reached', { step_number: 2, seconds_on_previous: 3 }), ev('completed', { seconds_on_previous: 2 })] });
    const free = await identify(link.token, `someone.${randomUUID().slice(0, 8)}@gmail.com`, 'Sam', '203.0.113.21');
    await free.call('POST', '/events', { events: [ev('view_started')] });
    const own = await identify(link.token, admin.email, 'Admin', '203.0.113.22');
    await own.call('POST', '/events', { events: [ev('view_started')] });
    // A member trying the link while signed in to the app, under another address: the team's own view.
    await playView(t, link.token, { email: 'tester@outside-digest.test', reached: 2, member: admin, ip: '203.0.113.23' });

    const { notifications } = t.ctx.services.notifications;
    expect(await notifications.sendDigests(day)).toBeGreaterThanOrEqual(1);
    const digest = decodeBody((await waitMail(editor.email, new RegExp(`On ${day} \\(UTC\\)`))).raw);
    expect(digest).toContain('had 2 views; 1 viewer reached the end.');
    expect(digest).toContain('acme-digest.test (1 viewer)');
    expect(digest).not.toContain('gmail.com (');
    expect(digest).toContain(`Ann (${acme}) on “Secret roadmap tour”, to the end`);
    expect(digest).not.toContain(admin.email);
    expect(digest).not.toContain('outside-digest.test');
    // The job may run again (a retry, a second worker): the digest of a day goes once.
    expect(await notifications.sendDigests(day)).toBe(0);
    // A quiet day sends nothing.
    expect(await notifications.sendDigests('2020-01-01')).toBe(0);
  });

  it('keeps to the demos a member created when they ask for `mine`', async () => {
    await editor.inject({ method: 'PATCH', url: '/v1/account/notifications', payload: { mode: 'instant', scope: 'mine' } });
    const adminsDemo = await demoWithSteps(t, key, 1);
    const link = await createShare(t, key, adminsDemo, { require_identification: true });
    const editorKey = await t.apiKey('all', editor);
    const editorsDemo = await demoWithSteps(t, editorKey, 1);
    const own = await createShare(t, editorKey, editorsDemo, { require_identification: true });
    const carol = uniqueEmail('carol').replace('@example.com', '@umbrella.test');
    await identify(link.token, carol, 'Carol', '203.0.113.30');
    await identify(own.token, carol, 'Carol', '203.0.113.31');
    await waitMail(editor.email, /Carol .* opened/);
    const got = mailsTo(editor.email, /Carol .* opened/).map((m) => decodeBody(m.raw));
    expect(got).toHaveLength(1);
    expect(got[0]).toContain(`/demos/${editorsDemo}/analytics`);
  });
});
