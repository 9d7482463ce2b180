import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends e-mail. SMTP when SMTP_URL is set; otherwise messages are written to the log. */
export interface Mailer {
  /**
   * False when messages only reach the log: flows that e-mail a link (invitations) then show the link to
   * the person who asked for it, since nobody else will see it.
   */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/** Without SMTP the whole plain-text message is logged, links included, so a self-hoster can pass it on. */
export function createLogMailer(log: Pick<FastifyBaseLogger, 'info'>): Mailer {
  return {
    delivers: false,
    async send(mail) {
      log.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'e-mail not sent (SMTP_URL is not set)');
    },
    async close() {},
  };
}

export async function createSmtpMailer(url: string, from: string): Promise<Mailer> {
  const nodemailer = await import('nodemailer');
  // Bounded waits: an invitation is sent while the admin's request waits for the outcome.
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    async close() {
      transport.close();
    },
  };
}
