// "Someone opened your demo": queued when a viewer identifies, sent by a job to each member who asked, once a day per viewer and link.
import type { Executor } from '../db/client';
import type { IdentifiedViewer } from '../viewing/viewer-gates.identification';
import { viewerMail } from './notification-mail';
import { dayOf, type NotificationsContext } from './notifications-context';
import * as repo from './notifications.repo';

/** The job that sends viewer notices; viewer-privacy deletes a viewer's queued ones by this name. */
export const VIEWER_QUEUE = 'notifications.viewer';

/** A viewer who just identified on a link: queued in the identification's transaction. */
export type IdentifiedJob = IdentifiedViewer;

/**
 * Called by the viewer gates in their transaction: the notice commits with the identification.
 *
 * @example
 * ```ts
 * await queueViewerNotice(ctx, tx, { workspaceId, demoId, shareId, email, name, at });
 * ```
 */
export async function queueViewerNotice(ctx: Pick<NotificationsContext, 'queue'>, tx: Executor, job: IdentifiedJob) {
  await ctx.queue.send(VIEWER_QUEUE, job, {}, tx);
}

/**
 * The job: one e-mail to each member who asked for instant notices of this demo, unless the viewer is a
 * member or that member already heard of this viewer on this link today. Each message is queued in the
 * transaction that claims it, so a retry never sends twice. Returns how many were queued.
 *
 * @example
 * ```ts
 * const sent = await sendViewerNotices(ctx, job);
 * ```
 */
export async function sendViewerNotices(ctx: Pick<NotificationsContext, 'db' | 'mailQueue' | 'appUrl'>, job: IdentifiedJob) {
  const { db } = ctx;
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
        appUrl: ctx.appUrl,
        workspace: person.workspaceName,
        viewer: { email: job.email, name: job.name, at },
        demo: found.demo,
        link: found.share.name,
      });
      await ctx.mailQueue.send(mail, tx);
      sent++;
    });
  }
  return sent;
}
