import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/mail/mailer';
import { accountMail } from './helpers/account-mail';
import { startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { createTestApp, sessionFrom, type TestApp, type TestSession, uniqueEmail } from './helpers/test-app';

const APP_URL = 'https://links.example.test';
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a different long passphrase';

/**
 * A link e-mailed earlier must not outlive what the account's holder does to lock others out: someone who
 * once knew the password and started a change of address to their own must not be able to finish it after
 * the password was reset or changed, or every session signed out.
 */
describe('account links end with a new password or signing out everywhere', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let mailbox: ReturnType<typeof accountMail>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailbox = accountMail(smtp, APP_URL);
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@links.example.test>');
    t = await createTestApp({ mailer, smtp, jobs: true, config: { APP_URL } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });
  const verify = (token: string) => t.app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token } });

  /** The attacker, signed in with the known password, starts moving the account to their own address. */
  async function pendingTakeover(victim: TestSession) {
    const attacker = sessionFrom(t.app, victim.email, await login(victim.email, PASSWORD));
    const theirs = uniqueEmail('attacker');
    const started = await attacker.inject({ method: 'POST', url: '/v1/account/email', payload: { email: theirs, current_password: PASSWORD } });
    expect(started.statusCode).toBe(202);
    const token = mailbox.tokenIn(await mailbox.next(theirs, /Confirm your e-mail address/), 'verify-email');
    return { theirs, token };
  }

  /** The link is dead, and the account stayed where it was. */
  async function expectTakeoverFailed(victim: TestSession, takeover: { theirs: string; token: string }, password: string) {
    const late = await verify(takeover.token);
    expect(late.statusCode).toBe(404);
    expect(late.json().error.code).toBe('not_found');
    expect((await login(takeover.theirs, password)).statusCode).toBe(401);
    expect((await login(victim.email, password)).statusCode).toBe(200);
  }

  const auditOf = async (session: TestSession, action: string) =>
    (await session.inject({ method: 'GET', url: `/v1/audit-log?action=${action}` })).json().data;

  it('a password reset ends a pending change of address', async () => {
    const victim = await t.signUp();
    const takeover = await pendingTakeover(victim);

    await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: victim.email } });
    const reset = mailbox.tokenIn(await mailbox.next(victim.email, /Reset your Demoshare password/), 'reset-password');
    const done = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset/complete', payload: { token: reset, password: NEW_PASSWORD } });
    expect(done.statusCode).toBe(204);

    await expectTakeoverFailed(victim, takeover, NEW_PASSWORD);
    const fresh = sessionFrom(t.app, victim.email, await login(victim.email, NEW_PASSWORD));
    const [entry] = await auditOf(fresh, 'user.password_reset');
    // The change of address had replaced the sign-up verification link: one link ended, its address named.
    expect(entry.changes).toMatchObject({ ended_links: 1, cancelled_email_change: takeover.theirs });
  });

  it('a password change ends a pending change of address and any reset link', async () => {
    const victim = await t.signUp();
    const takeover = await pendingTakeover(victim);
    await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: victim.email } });
    const reset = mailbox.tokenIn(await mailbox.next(victim.email, /Reset your Demoshare password/), 'reset-password');

    const changed = await victim.inject({ method: 'PUT', url: '/v1/account/password', payload: { current_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(changed.statusCode).toBe(200);

    await expectTakeoverFailed(victim, takeover, NEW_PASSWORD);
    const lateReset = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset/complete', payload: { token: reset, password: `${NEW_PASSWORD}!` } });
    expect(lateReset.statusCode).toBe(404);
    expect((await login(victim.email, NEW_PASSWORD)).statusCode).toBe(200);
    const [entry] = await auditOf(victim, 'user.password_changed');
    expect(entry.changes).toMatchObject({ ended_sessions: 1, ended_links: 2, cancelled_email_change: takeover.theirs });
  });

  it('signing out everywhere ends a pending change of address, recorded in the audit log', async () => {
    const victim = await t.signUp();
    const takeover = await pendingTakeover(victim);

    const out = await victim.inject({ method: 'DELETE', url: '/v1/account/sessions' });
    expect(out.json().data).toEqual({ ended_sessions: 1 });

    await expectTakeoverFailed(victim, takeover, PASSWORD);
    const [entry] = await auditOf(victim, 'user.links_ended');
    expect(entry).toMatchObject({
      actor: expect.objectContaining({ type: 'user', id: victim.userId }),
      target: { type: 'user', id: victim.userId, label: victim.email },
      changes: { ended_links: 1, cancelled_email_change: takeover.theirs },
    });
  });

  it('an ended verification link can be asked for again, and the new one verifies', async () => {
    const user = await t.signUp();
    const first = mailbox.tokenIn(await mailbox.next(user.email, /Confirm your e-mail address/), 'verify-email');
    expect((await user.inject({ method: 'DELETE', url: '/v1/account/sessions' })).statusCode).toBe(200);
    expect((await verify(first)).statusCode).toBe(404);

    const again = await user.inject({ method: 'POST', url: '/v1/account/email-verification' });
    expect(again.statusCode).toBe(202);
    const second = mailbox.tokenIn(await mailbox.next(user.email, /Confirm your e-mail address/), 'verify-email');
    const verified = await verify(second);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data).toMatchObject({ email: user.email, email_verified: true });
  });

  it('signing out everywhere with no link outstanding records no ended links', async () => {
    const user = await t.signUp();
    await mailbox.next(user.email, /Confirm your e-mail address/);
    await user.inject({ method: 'DELETE', url: '/v1/account/sessions' });
    await user.inject({ method: 'DELETE', url: '/v1/account/sessions' });
    expect(await auditOf(user, 'user.links_ended')).toHaveLength(1);
  });
});
