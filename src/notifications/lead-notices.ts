// "New lead on your demo": queued in a lead's transaction, sent by a job to each member who asked for instant notices.
import type { Executor } from '../db/client';
import { linkMail } from '../mail/link-mail';
import type { Mail } from '../mail/mailer';
import { dayOf, type NotificationsContext } from './notifications-context';
import * as repo from './notifications.repo';

/** The job that sends lead notices. */
export const LEAD_QUEUE = 'notifications.lead';

/** A lead just stored: what its notice tells. */
export interface LeadJob {
  workspaceId: string;
  demoId: string;
  shareId: string;
  leadId: string;
  email: string | null;
  name: string | null;
  values: Record<string, string | boolean>;
  at: string;
}

/**
 * Called by the leads domain in the lead's transaction: the notice commits with the lead.
 *
 * @example
 * await queueLeadNotice(ctx, tx, { workspaceId, demoId, shareId, leadId, email, name, values, at });
 */
export async function queueLeadNotice(ctx: Pick<NotificationsContext, 'queue'>, tx: Executor, job: LeadJob) {
  await ctx.queue.send(LEAD_QUEUE, job, {}, tx);
}

const MAX_VALUES = 20;

/** "New lead on “Title”": who, through which link, and what they answered. */
export function leadMail(
  to: string,
  input: { appUrl: string; workspace: string; lead: LeadJob; demo: { id: string; title: string }; link: string },
): Mail {
  const { lead } = input;
  const who = lead.name && lead.email ? `${lead.name} (${lead.email})` : (lead.email ?? lead.name ?? 'Someone');
  const through = input.link ? ` through the link “${input.link}”` : '';
  const time = new Date(lead.at).toISOString().slice(11, 16);
  const answers = Object.entries(lead.values)
    .slice(0, MAX_VALUES)
    .map(([name, value]) => `${name}: ${typeof value === 'boolean' ? (value ? 'yes' : 'no') : value}`);
  return linkMail({
    to,
    subject: `New lead on “${input.demo.title}”: ${lead.name || lead.email || 'someone'}`,
    intro: [`${who} filled in the form of “${input.demo.title}”${through} at ${time} UTC.`, ...(answers.length ? [answers.join('; ')] : [])],
    action: 'See your leads',
    url: `${input.appUrl}/leads?demo_id=${input.demo.id}`,
    outro: [
      `You get these e-mails because you asked for instant notices in ${input.workspace}. Change or stop them at ${input.appUrl}/account#notifications.`,
    ],
  });
}

/**
 * The job: one e-mail to each member who asked for instant notices of this demo, unless the lead's address
 * is a member's (the team trying its own form). Each lead is told once per member: the claim and the
 * message commit together, so a retry never sends twice. Returns how many were queued.
 */
export async function sendLeadNotices(ctx: Pick<NotificationsContext, 'db' | 'mailQueue' | 'appUrl'>, job: LeadJob) {
  const { db } = ctx;
  if (job.email && (await repo.isMemberEmail(db, job.workspaceId, job.email))) return 0;
  const people = await repo.recipients(db, job.workspaceId, 'instant', job.demoId);
  if (people.length === 0) return 0;
  const found = await repo.findShareWithDemo(db, job.shareId);
  if (!found) return 0;
  let sent = 0;
  for (const person of people) {
    await db.transaction(async (tx) => {
      if (!(await repo.claim(tx, person.memberId, dayOf(new Date(job.at)), `lead:${job.leadId}`))) return;
      const mail = leadMail(person.email, {
        appUrl: ctx.appUrl,
        workspace: person.workspaceName,
        lead: job,
        demo: found.demo,
        link: found.share.name,
      });
      await ctx.mailQueue.send(mail, tx);
      sent++;
    });
  }
  return sent;
}
