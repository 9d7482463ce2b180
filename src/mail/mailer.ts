import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends e-mail. SMTP when SMTP_URL is set; otherwise messages are written to the log. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

export function createLogMailer(log: Pick<FastifyBaseLogger, 'info'>): Mailer {
  return {
    async send(mail) {
      log.info({ to: mail.to, subject: mail.subject }, 'e-mail not sent (SMTP_URL is not set)');
    },
    async close() {},
  };
}

export async function createSmtpMailer(url: string, from: string): Promise<Mailer> {
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    async close() {
      transport.close();
    },
  };
}
