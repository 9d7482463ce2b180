import { expect } from 'vitest';
import { decodeBody, type ReceivedMail, type TestSmtpServer } from './smtp';

/**
 * Reads the account e-mails (verification, reset, notices) a test SMTP server received, each once: workers
 * deliver in parallel, so messages to one address may arrive in any order.
 */
export function accountMail(smtp: TestSmtpServer, appUrl: string) {
  const taken = new Set<ReceivedMail>();
  return {
    /** The oldest e-mail to `email` with `subject` not taken by an earlier call. */
    async next(email: string, subject: RegExp): Promise<ReceivedMail> {
      const match = (m: ReceivedMail) => m.to.includes(email) && !taken.has(m) && subject.test(decodeBody(m.raw));
      const mail = await smtp.waitFor(match, 20_000);
      taken.add(mail);
      return mail;
    },
    /** The token of the `{appUrl}/{page}/{token}` link in `mail`. */
    tokenIn(mail: ReceivedMail, page: string): string {
      const token = new RegExp(`${appUrl}/${page}/([A-Za-z0-9_-]{43})`).exec(decodeBody(mail.raw))?.[1];
      expect(token, `a /${page}/ link in the e-mail`).toBeDefined();
      return token!;
    },
  };
}
