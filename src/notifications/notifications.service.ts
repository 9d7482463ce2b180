import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { emailDomain, isFreeMailDomain } from '../core/free-mail';
import type { Database, Executor } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { MailQueue } from '../mail/mail-queue';
import { type Digest, digestMail, viewerMail } from './notification-mail';
import * as repo from './notifications.repo';
import type { NotificationMode, NotificationScope } from './notifications.tables';
import type { IdentifiedViewer } from '../viewing/viewer-gates.identification';

export const VIEWER_QUEUE = 'notifications.viewer';
export const DIGEST_QUEUE = 'notifications.digest';

export interface NotificationsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  queue: Pick<JobQueue, 'send'>;
  mailQueue: MailQueue;
  appUrl: string;
  log: { info(obj: object, msg: string): void };
}

/** A viewer who just identified on a link: queued in the identification's transaction. */
export type IdentifiedJob = IdentifiedViewer;

export interface NotificationSettings {
  mode: NotificationMode;
  scope: NotificationScope;
}

const DAY_MS = 86_400_000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * E-mail to members about their viewers, opt-in per member: at once when an identified viewer opens a
 * link (at most one message per viewer, link and member a day), or one digest a day. Messages go through
 * the durable mail queue in the transaction that records them as sent, so a retry never sends twice and a
 * crash never loses one.
 */
export function createNotificationsService(deps: NotificationsDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  async function settings(auth: AuthContext): Promise<NotificationSettings> {
    const row = await repo.findSettings(db, auth.memberId);
    return row ? { mode: row.mode, scope: row.scope } : { mode: 'off', scope: 'all' };
  }

  async function update(auth: AuthContext, change: Partial<NotificationSettings>): Promise<NotificationSettings> {
    const current = await settings(auth);
    const next = { ...current, ...change };
    await repo.saveSettings(db, { memberId: auth.memberId, workspaceId: auth.workspaceId, ...next, updatedAt: clock.now() });
    return next;
  }

  /** Called by the viewer gates in their transaction: the notice commits with the identification. */
  async function viewerIdentified(tx: Executor, job: IdentifiedJob) {
    await deps.queue.send(VIEWER_QUEUE, job, {}, tx);
  }

  async function sendViewerNotices(job: IdentifiedJob) {
    if (await repo.isMemberEmail(db, job.workspaceId, job.email)) return 0;
    const people = await repo.recipients(db, job.workspaceId, 'instant', job.demoId);
    if (people.length === 0) return 0;
    const found = await repo.findShareWithDemo(db, job.shareId);
    if (!found) return 0;
    const at = new Date(job.at);
    let sent = 0;
    for (const person of people) {
      await db.transaction(async (tx) => {
        if (!(await repo.claim(tx, person.memberId, dayOf(at), `${job.shareId}:${job.email}`))) return;
        const mail = viewerMail(person.email, {
          appUrl: deps.appUrl,
          workspace: person.workspaceName,
          viewer: { email: job.email, name: job.name, at },
          demo: found.demo,
          link: found.share.name,
        });
        await deps.mailQueue.send(mail, tx);
        sent++;
      });
    }
    return sent;
  }

  /** One workspace's views of `day` as a member's digest tells them; null on a day without any. */
  async function digestFor(workspaceId: string, day: string, createdBy: string | undefined, isMember: (email: string) => boolean) {
    const from = new Date(`${day}T00:00:00.000Z`);
    const rows = (await repo.viewsOfDay(db, workspaceId, from, new Date(from.getTime() + DAY_MS), createdBy)).filter(
      (v) => !(v.email && isMember(v.email)),
    );
    if (rows.length === 0) return null;
    const demos = new Map<string, Digest['demos'][number]>();
    const domains = new Map<string, Set<string>>();
    const viewers = new Map<string, Digest['viewers'][number]>();
    for (const v of rows) {
      const demo = demos.get(v.demoId) ?? { title: v.title, views: 0, completed: 0 };
      demo.views++;
      if (v.completed) demo.completed++;
      demos.set(v.demoId, demo);
      if (!v.email) continue;
      const domain = emailDomain(v.email);
      if (domain && !isFreeMailDomain(domain)) domains.set(domain, (domains.get(domain) ?? new Set()).add(v.email));
      const key = `${v.email}:${v.demoId}`;
      const known = viewers.get(key);
      viewers.set(key, { email: v.email, name: v.name, demo: v.title, completed: v.completed || (known?.completed ?? false) });
    }
    const seen = await repo.domainsSeenBefore(db, workspaceId, [...domains.keys()], from);
    return {
      day,
      views: rows.length,
      completed: rows.filter((v) => v.completed).length,
      demos: [...demos.values()].sort((a, b) => b.views - a.views),
      newCompanies: [...domains]
        .filter(([domain]) => !seen.has(domain))
        .map(([domain, emails]) => ({ domain, viewers: emails.size }))
        .sort((a, b) => b.viewers - a.viewers || a.domain.localeCompare(b.domain)),
      viewers: [...viewers.values()],
    } satisfies Digest;
  }

  /** The digests of `day` (a UTC date, by default yesterday's): one per member who asked, if anything happened. */
  async function sendDigests(day = dayOf(new Date(clock.now().getTime() - DAY_MS))) {
    await repo.pruneSent(db, dayOf(new Date(clock.now().getTime() - 7 * DAY_MS)));
    let sent = 0;
    for (const workspaceId of await repo.workspacesWithDigests(db)) {
      const people = await repo.recipients(db, workspaceId, 'daily');
      const memberEmails = new Set(await repo.memberEmails(db, workspaceId));
      for (const person of people) {
        const digest = await digestFor(workspaceId, day, person.scope === 'mine' ? person.memberId : undefined, (e) =>
          memberEmails.has(e),
        );
        if (!digest) continue;
        await db.transaction(async (tx) => {
          if (!(await repo.claim(tx, person.memberId, day, 'digest'))) return;
          await deps.mailQueue.send(digestMail(person.email, { appUrl: deps.appUrl, workspace: person.workspaceName, digest }), tx);
          sent++;
        });
      }
    }
    deps.log.info({ day, sent }, 'daily digests queued');
    return sent;
  }

  return { settings, update, viewerIdentified, sendViewerNotices, sendDigests };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
