// What every notification step is given: the database, the clock, the job and mail queues, the app's address.
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { MailQueue } from '../mail/mail-queue';

/** The one log line the notifications write (how many digests a run queued). */
export interface NotificationsLog {
  info(obj: object, msg: string): void;
}

/**
 * The notifications service's dependencies, as `notifications.module.ts` builds them from the kernel.
 *
 * @example
 * ```ts
 * createNotificationsService({ ...kernel, appUrl: kernel.config.APP_URL.replace(/\/+$/, '') });
 * ```
 */
export interface NotificationsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  queue: Pick<JobQueue, 'send'>;
  mailQueue: MailQueue;
  /** The web app's address without a trailing slash: the e-mails link to it. */
  appUrl: string;
  log: NotificationsLog;
}

/** The context each step function takes first (each names the part it uses with `Pick`). */
export interface NotificationsContext extends Omit<NotificationsDeps, 'database'> {
  db: Database['db'];
}

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;
/** The UTC date of an instant: what the once-a-day claims are keyed by. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
