import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { createSmtpMailer } from '../src/mail/mailer';
import { accountMail } from './helpers/account-mail';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { bearer, createTestApp, sessionFrom, type TestApp, uniqueEmail } from './helpers/test-app';

const APP_URL = 'https://demos.example.test';
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a different long passphrase';
const HOUR = 3_600_000;

describe('account security', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let mailbox: ReturnType<typeof accountMail>;
  const clock = manualClock('2026-11-23T09:00:00.000Z');

  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailbox = accountMail(smtp, APP_URL);
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>');
    // Workers run: account e-mail is a durable job, delivered by them.
    t = await createTestApp({ mailer, smtp, clock, jobs: true, config: { APP_URL, LOGIN_FAILURES_PER_ADDRESS: 10 } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

  const nextMail = (email: string, subject: RegExp) => mailbox.next(email, subject);
  const tokenIn = (received: ReceivedMail, page: string) => mailbox.tokenIn(received, page);

  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });

  it('e-mails a verification link on sign-up; following it verifies the address, once', async () => {
    const session = await t.signUp();
    const account = await session.inject({ method: 'GET', url: '/v1/account' });
    expect(account.json().data).toMatchObject({ email: session.email, email_verified: false });
    const mail = await nextMail(session.email, /Confirm your e-mail address/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    const token = tokenIn(mail, 'verify-email');

    const verified = await t.app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token } });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data).toMatchObject({ email: session.email, email_verified: true });
    const again = await t.app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token } });
    expect(again.statusCode).toBe(404);
    const resend = await session.inject({ method: 'POST', url: '/v1/account/email-verification' });
    expect(resend.statusCode).toBe(409);
  });

  it('a resent verification link replaces the earlier one; an expired one is 410', async () => {
    const session = await t.signUp();
    const first = tokenIn(await nextMail(session.email, /Confirm/), 'verify-email');
    const resend = await session.inject({ method: 'POST', url: '/v1/account/email-verification' });
    expect(resend.statusCode).toBe(202);
    const second = tokenIn(await nextMail(session.email, /Confirm/), 'verify-email');
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token: first } })).statusCode).toBe(404);
    clock.advance(4 * 24 * HOUR);
    try {
      const late = await t.app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token: second } });
      expect(late.statusCode).toBe(410);
      expect(late.json().error.code).toBe('gone');
    } finally {
      clock.advance(-4 * 24 * HOUR);
    }
  });

  it('password reset: the same answer for known and unknown addresses, a single-use link, every session ended', async () => {
    const session = await t.signUp();
    const other = sessionFrom(t.app, session.email, await login(session.email, PASSWORD));
    const unknown = uniqueEmail('nobody');

    const known = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: session.email.toUpperCase() } });
    const stranger = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: unknown } });
    expect(known.statusCode).toBe(202);
    expect(stranger.statusCode).toBe(202);
    expect(stranger.json().data).toEqual(known.json().data);

    const mail = await nextMail(session.email, /Reset your Demoshare password/);
    const token = tokenIn(mail, 'reset-password');
    // The stranger's address got nothing (give the workers the time the known one needed, and more).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailsTo(unknown)).toHaveLength(0);

    const weak = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset/complete', payload: { token, password: 'short' } });
    expect(weak.statusCode).toBe(400);
    const reset = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset/complete', payload: { token, password: NEW_PASSWORD } });
    expect(reset.statusCode).toBe(204);
    const reused = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset/complete', payload: { token, password: `${NEW_PASSWORD}!` } });
    expect(reused.statusCode).toBe(404);

    for (const s of [session, other]) expect((await s.inject({ method: 'GET', url: '/v1/auth/session' })).statusCode).toBe(401);
    expect((await login(session.email, PASSWORD)).statusCode).toBe(401);
    const fresh = await login(session.email, NEW_PASSWORD);
    expect(fresh.statusCode).toBe(200);
    // The link reached the address: it is verified now.
    expect(fresh.json().data.user.email_verified).toBe(true);
    // The user's workspace records the reset, by the holder of the link, with the sessions it ended.
    const audit = await sessionFrom(t.app, session.email, fresh).inject({ method: 'GET', url: '/v1/audit-log?action=user.password_reset' });
    expect(audit.json().data).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'user', id: session.userId }),
        target: { type: 'user', id: session.userId, label: session.email },
        // The sign-up verification link was still outstanding: the reset ended it too.
        changes: { ended_sessions: 2, ended_links: 1 },
      }),
    ]);
  });

  it('a reset link expires after an hour, and a newer one replaces it', async () => {
    const session = await t.signUp();
    await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: session.email } });
    const first = tokenIn(await nextMail(session.email, /Reset/), 'reset-password');
    await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: session.email } });
    const second = tokenIn(await nextMail(session.email, /Reset/), 'reset-password');
    const complete = (token: string) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/password-reset/complete', payload: { token, password: NEW_PASSWORD } });
    expect((await complete(first)).statusCode).toBe(404);
    clock.advance(HOUR + 1000);
    try {
      expect((await complete(second)).statusCode).toBe(410);
    } finally {
      clock.advance(-(HOUR + 1000));
    }
    expect((await login(session.email, PASSWORD)).statusCode).toBe(200);
  });

  it('changing the password needs the current one and signs out the other sessions only', async () => {
    const session = await t.signUp();
    const other = sessionFrom(t.app, session.email, await login(session.email, PASSWORD));
    const wrong = await session.inject({
      method: 'PUT',
      url: '/v1/account/password',
      payload: { current_password: 'not the password at all', new_password: NEW_PASSWORD },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details).toEqual([{ field: 'current_password', message: 'is wrong' }]);
    const changed = await session.inject({
      method: 'PUT',
      url: '/v1/account/password',
      payload: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toEqual({ ended_sessions: 1 });
    expect((await session.inject({ method: 'GET', url: '/v1/auth/session' })).statusCode).toBe(200);
    expect((await other.inject({ method: 'GET', url: '/v1/auth/session' })).statusCode).toBe(401);
    expect((await login(session.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('changing the address: verified at the new one, the old one told; a taken address is not revealed', async () => {
    const session = await t.signUp();
    const holder = await t.signUp();
    const target = uniqueEmail('moved');

    const attempt = await session.inject({ method: 'POST', url: '/v1/account/email', payload: { email: holder.email, current_password: PASSWORD } });
    const real = await session.inject({ method: 'POST', url: '/v1/account/email', payload: { email: target, current_password: PASSWORD } });
    expect(attempt.statusCode).toBe(202);
    expect(real.statusCode).toBe(202);
    await nextMail(holder.email, /Someone tried to move a Demoshare account/);

    const link = await nextMail(target, /Confirm your e-mail address/);
    // Until the link is followed, nothing changes.
    expect((await session.inject({ method: 'GET', url: '/v1/account' })).json().data.email).toBe(session.email);
    const verified = await t.app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token: tokenIn(link, 'verify-email') } });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data).toMatchObject({ email: target, email_verified: true });
    await nextMail(session.email, /Your Demoshare e-mail address was changed/);

    expect((await login(target, PASSWORD)).statusCode).toBe(200);
    expect((await login(session.email, PASSWORD)).statusCode).toBe(401);
    const members = (await session.inject({ method: 'GET', url: '/v1/team/members' })).json().data;
    expect(members.map((m: { email: string }) => m.email)).toEqual([target]);
    const audit = await session.inject({ method: 'GET', url: '/v1/audit-log?action=user.email_changed' });
    expect(audit.json().data).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'user', id: session.userId, label: target }),
        changes: { email: { from: session.email, to: target } },
      }),
    ]);
  });

  it('lists the sessions with device and address; signs out one, then every other', async () => {
    const session = await t.signUp();
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
    const signIn = async (ua: string) =>
      sessionFrom(t.app, session.email, await t.app.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'user-agent': ua }, payload: { email: session.email, password: PASSWORD } }));
    const laptop = await signIn(firefox);
    const mobile = await signIn(phone);

    const listed = await laptop.inject({ method: 'GET', url: '/v1/account/sessions' });
    expect(listed.statusCode).toBe(200);
    const rows = listed.json().data as Array<{ id: string; device: string; current: boolean; ip: string }>;
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.current)).toHaveLength(1);
    expect(rows.map((r) => r.device)).toEqual(expect.arrayContaining(['Firefox on Linux', 'Safari on iOS']));
    expect(rows.every((r) => r.ip === '127.0.0.1')).toBe(true);

    const mobileId = rows.find((r) => r.device === 'Safari on iOS')!.id;
    expect((await laptop.inject({ method: 'DELETE', url: `/v1/account/sessions/${mobileId}` })).statusCode).toBe(204);
    expect((await mobile.inject({ method: 'GET', url: '/v1/auth/session' })).statusCode).toBe(401);
    expect((await laptop.inject({ method: 'DELETE', url: `/v1/account/sessions/${mobileId}` })).statusCode).toBe(404);
    // Another user's session is not yours to end.
    const stranger = await t.signUp();
    expect((await stranger.inject({ method: 'DELETE', url: `/v1/account/sessions/${rows.find((r) => r.current)!.id}` })).statusCode).toBe(404);

    const others = await laptop.inject({ method: 'DELETE', url: '/v1/account/sessions' });
    expect(others.json().data).toEqual({ ended_sessions: 1 });
    expect((await session.inject({ method: 'GET', url: '/v1/auth/session' })).statusCode).toBe(401);
    expect((await laptop.inject({ method: 'GET', url: '/v1/account/sessions' })).json().data).toHaveLength(1);
  });

  it('limits wrong passwords per address, from any IP, known or not, with the same answer', async () => {
    const session = await t.signUp();
    const unknown = uniqueEmail('ghost');
    for (const [i, email] of [session.email, unknown].entries()) {
      for (let n = 0; n < 10; n++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/auth/login',
          remoteAddress: `10.0.${i}.${n + 1}`,
          payload: { email, password: 'wrong password here' },
        });
        expect(res.statusCode).toBe(401);
      }
    }
    const blocked = await t.app.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: '10.9.9.9', payload: { email: session.email, password: PASSWORD } });
    const ghost = await t.app.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: '10.9.9.8', payload: { email: unknown, password: PASSWORD } });
    expect(blocked.statusCode).toBe(429);
    expect(ghost.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    for (const res of [blocked, ghost]) expect(res.json().error.message).toMatch(/^Too many requests: try again in \d+ s$/);
  });

  it('is for web sessions: an API key with every scope gets 403 on the account routes', async () => {
    const key = await t.apiKey('all');
    for (const [method, url] of [
      ['GET', '/v1/account'],
      ['GET', '/v1/account/sessions'],
      ['DELETE', '/v1/account/sessions'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(key) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const session = await t.signUp();
    const cases = [
      ['POST', '/v1/auth/password-reset/complete', { token: 'x', password: NEW_PASSWORD }],
      ['POST', '/v1/auth/verify-email', { token: 'a'.repeat(42) }],
      ['POST', '/v1/auth/password-reset', { email: 'a\u0000b@example.com' }],
      ['PATCH', '/v1/account', { name: 'x'.repeat(121) }],
      ['POST', '/v1/account/email', { email: 'not an address', current_password: PASSWORD }],
      ['POST', '/v1/account/email', { email: session.email, current_password: PASSWORD }],
      ['PUT', '/v1/account/password', { current_password: PASSWORD, new_password: PASSWORD }],
    ] as const;
    for (const [method, url, payload] of cases) {
      const res = await session.inject({ method, url, payload });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    }
    const renamed = await session.inject({ method: 'PATCH', url: '/v1/account', payload: { name: '  Ada Lovelace ' } });
    expect(renamed.json().data.name).toBe('Ada Lovelace');
    expect((await login(session.email, PASSWORD)).statusCode).toBe(200);
  });
});
