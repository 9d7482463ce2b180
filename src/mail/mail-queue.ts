// E-mail sent through the job queue (retried, off the request path), the message sealed at rest since its links are credentials.
import { seal, unseal } from '../core/crypto';
import type { Executor } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { Mail, Mailer } from './mailer';
import type { WarningLog } from '../core/log';

export const MAIL_QUEUE = 'mail.send';

/** What a mail job holds: the message sealed, since password-reset and verification links are credentials. */
interface MailJob {
  sealed: string;
}

/**
 * Account e-mail (verification, password reset, address change) as durable jobs: queued in the transaction
 * that creates the link, so the link and its message commit together, and retried until the SMTP server
 * takes it. The request never waits on SMTP, so how long it takes says nothing about whether an account exists.
 */
export interface MailQueue {
  send(mail: Mail, tx?: Executor): Promise<void>;
}

export function createMailQueue(queue: JobQueue, sealingKey: Buffer): MailQueue {
  return {
    async send(mail, tx) {
      const job: MailJob = { sealed: seal(sealingKey, JSON.stringify(mail)) };
      await queue.send(MAIL_QUEUE, job, {}, tx);
    },
  };
}

/** Defines the mail queue (every process sends into it) and delivers from it where workers run. */
export async function registerMailJobs(deps: {
  queue: JobQueue;
  mailer: Mailer;
  secrets: { sealing: Buffer };
  log: WarningLog;
}) {
  // About 2 days of retries with backoff: an SMTP outage of an afternoon loses nothing.
  await deps.queue.define({ name: MAIL_QUEUE, retryLimit: 12, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 });
  await deps.queue.work<MailJob>(MAIL_QUEUE, { concurrency: 2, pollingIntervalSeconds: 1 }, async (job) => {
    const mail = JSON.parse(unseal(deps.secrets.sealing, job.sealed)) as Mail;
    try {
      await deps.mailer.send(mail);
    } catch (error) {
      deps.log.warn({ err: error, subject: mail.subject }, 'e-mail not delivered; it will be retried');
      throw error;
    }
  });
}
