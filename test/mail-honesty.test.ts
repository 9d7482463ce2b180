import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/mail/mailer';
import { startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';

// No e-mail is promised that cannot leave the server: the API says whether mail is delivered (the web
// app's banner, notification settings and reset page read it), and its answers to "send me a link" say
// where the link went. Once without SMTP, once with a real SMTP server.
describe('e-mail is only promised when it can be sent', () => {
  describe('without SMTP', () => {
    let t: TestApp;
    let user: TestSession;
    beforeAll(async () => {
      t = await createTestApp();
      user = await t.signUp();
    }, 120_000);
    afterAll(() => t?.close());

    it('the session and the sign-up policy say that no mail is delivered', async () => {
      const session = await user.inject({ method: 'GET', url: '/v1/auth/session' });
      expect(session.json().data.email_delivery).toBe(false);
      const policy = await t.app.inject({ method: 'GET', url: '/v1/auth/signup-policy' });
      expect(policy.json().data.email_delivery).toBe(false);
    });

    it('asking for a reset or verification link says it went to the server log, not to an inbox', async () => {
      const reset = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: user.email } });
      expect(reset.statusCode).toBe(202);
      expect(reset.json().data.message).toMatch(/^This server cannot send e-mail \(SMTP is not set up\): .*server's log/);
      expect(reset.json().data.message).not.toContain('on its way');
      const resend = await user.inject({ method: 'POST', url: '/v1/account/email-verification' });
      expect(resend.statusCode).toBe(202);
      expect(resend.json().data.message).toContain("the new verification link was written to the server's log");
    });
  });

  describe('with SMTP', () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    let user: TestSession;
    beforeAll(async () => {
      smtp = await startSmtpServer();
      const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@mail.example.test>');
      t = await createTestApp({ mailer, smtp, jobs: true });
      user = await t.signUp();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('says mail is delivered, and the link really arrives', async () => {
      expect((await user.inject({ method: 'GET', url: '/v1/auth/session' })).json().data.email_delivery).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: '/v1/auth/signup-policy' })).json().data.email_delivery).toBe(true);
      const reset = await t.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email: user.email } });
      expect(reset.json().data.message).toContain('a link to reset its password is on its way');
      const mail = await smtp.waitFor((m) => m.to.includes(user.email) && /reset/i.test(m.raw));
      expect(mail.raw).toContain('reset-password');
    });
  });
});
