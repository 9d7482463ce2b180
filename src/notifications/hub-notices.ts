// "New visitor on your hub": queued when someone passes a hub's form, sent by a job to each member who asked for instant notices.
import type { Executor } from '../db/client';
import type { IdentifiedHubVisitor } from '../hubs/hub-identification';
import { linkMail } from '../mail/link-mail';
import type { Mail } from '../mail/mailer';
import { dayOf, type NotificationsContext } from './notifications-context';
import * as repo from './notifications.repo';

/** The job that sends hub notices; viewer-privacy deletes a viewer's queued ones by this name. */
export const HUB_QUEUE = 'notifications.hub';

/** A visitor who just passed a hub's form: queued in the identification's transaction. */
export type HubVisitorJob = IdentifiedHubVisitor;

/**
 * Called by the hubs domain in the identification's transaction (never for a member's own visit): the
 * notice commits with the identification.
 *
 * @example
 * ```ts
 * await queueHubNotice(ctx, tx, { workspaceId, hubId, sessionId, visitStartedAt, email, name, values, at });
 * ```
 */
export async function queueHubNotice(ctx: Pick<NotificationsContext, 'queue'>, tx: Executor, job: HubVisitorJob) {
  await ctx.queue.send(HUB_QUEUE, job, {}, tx);
}

/** The hub form's fields (hubs.tables.ts HUB_LEAD_FIELDS) as the web app labels them. */
const LABELS: Record<string, string> = { company: 'Company', job_title: 'Job title', phone: 'Phone' };

/** "New visitor on the hub “Name”": who, which hub, what they answered, and the hub's Visitors card. */
export function hubVisitorMail(
  to: string,
  input: { appUrl: string; workspace: string; visitor: HubVisitorJob; hub: { id: string; name: string } },
): Mail {
  const { visitor, hub } = input;
  const who = visitor.name ? `${visitor.name} (${visitor.email})` : visitor.email;
  const time = new Date(visitor.at).toISOString().slice(11, 16);
  // In the form's order: the job's values went through jsonb, which orders keys its own way.
  const values = visitor.values as Record<string, string | undefined>;
  const answers = [...new Set([...Object.keys(LABELS), ...Object.keys(values)])]
    .filter((field) => values[field])
    .map((field) => `${LABELS[field] ?? field}: ${values[field]}`);
  return linkMail({
    to,
    subject: `New visitor on the hub “${hub.name}”: ${visitor.name || visitor.email}`,
    intro: [`${who} filled in the form of the hub “${hub.name}” at ${time} UTC.`, ...(answers.length ? [answers.join('; ')] : [])],
    action: 'See the hub’s visitors',
    url: `${input.appUrl}/hubs/${hub.id}#visitors`,
    outro: [
      `You get these e-mails because you asked for instant notices in ${input.workspace}. Change or stop them at ${input.appUrl}/account#notifications.`,
    ],
  });
}

/**
 * The job: one e-mail to each member who asked for instant notices about every demo, or about their own
 * and this is a hub they created, unless the address is a member's (the team trying its own form) or the
 * hub is gone. Each member is told once per hub visit and address: the claim and the message commit
 * together, so a retry never sends twice. Returns how many were queued.
 *
 * @example
 * ```ts
 * const sent = await sendHubNotices(ctx, job);
 * ```
 */
export async function sendHubNotices(ctx: Pick<NotificationsContext, 'db' | 'mailQueue' | 'appUrl'>, job: HubVisitorJob) {
  const { db } = ctx;
  if (await repo.isMemberEmail(db, job.workspaceId, job.email)) return 0;
  const hub = await repo.findHub(db, job.hubId);
  if (!hub || hub.workspaceId !== job.workspaceId) return 0;
  const people = await repo.recipients(db, job.workspaceId, 'instant', { hubId: job.hubId });
  let sent = 0;
  for (const person of people) {
    await db.transaction(async (tx) => {
      // Keyed by the visit's first day and ending in the address, which a viewer erasure finds it by.
      if (!(await repo.claim(tx, person.memberId, dayOf(new Date(job.visitStartedAt)), `hub:${job.sessionId}:${job.email}`))) return;
      await ctx.mailQueue.send(hubVisitorMail(person.email, { appUrl: ctx.appUrl, workspace: person.workspaceName, visitor: job, hub }), tx);
      sent++;
    });
  }
  return sent;
}
