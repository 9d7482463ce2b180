// The daily digest: yesterday's views of a workspace, new companies and identified viewers, and its hubs' visits, one e-mail per member who asked.
import { emailDomain, isFreeMailDomain } from '../core/free-mail';
import { hubDaysOf, hubsFor } from './hub-digest';
import { type Digest, digestMail } from './notification-mail';
import { DAY_MS, dayOf, type NotificationsContext } from './notifications-context';
import * as repo from './notifications.repo';

/** The job that sends the digests, scheduled daily at 07:00 UTC (notifications.jobs.ts). */
export const DIGEST_QUEUE = 'notifications.digest';

/** One workspace's views of `day` as a member's digest tells them; null on a day without any. */
async function digestFor(
  ctx: Pick<NotificationsContext, 'db'>,
  workspaceId: string,
  day: string,
  createdBy: string | undefined,
  isMember: (email: string) => boolean,
) {
  const { db } = ctx;
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

/**
 * One workspace's day as the digest tells it, for another channel (Slack): the views of all its demos (or
 * those `createdBy` created), members' own views left out, and the visits of its hubs (or of those
 * `createdBy` created), as a member's e-mail digest with the same setting. Null on a day with neither.
 *
 * @example
 * ```ts
 * const day = await workspaceDigest(ctx, 'ws_...', '2026-11-27');
 * if (day) console.log(day.views?.views ?? 0, day.hubs.length);
 * ```
 */
export async function workspaceDigest(ctx: Pick<NotificationsContext, 'db'>, workspaceId: string, day: string, createdBy?: string) {
  const memberEmails = new Set(await repo.memberEmails(ctx.db, workspaceId));
  const isMember = (e: string) => memberEmails.has(e);
  const [views, hubDays] = await Promise.all([digestFor(ctx, workspaceId, day, createdBy, isMember), hubDaysOf(ctx, workspaceId, day, isMember)]);
  const hubs = hubsFor(hubDays, createdBy);
  return views || hubs.length > 0 ? { views, hubs } : null;
}

/**
 * The digests of `day` (a UTC date, by default yesterday's): one per member who asked, if anything happened
 * on their demos or on the hubs their setting covers (every hub, or those they created, as the instant
 * notices), the hubs' part only where a hub had visits or identified visitors. Each is queued in the
 * transaction that claims it, so a retried run sends none twice. Returns how many.
 *
 * @example
 * ```ts
 * const sent = await sendDigests(ctx, '2026-11-27');
 * ```
 */
export async function sendDigests(
  ctx: Pick<NotificationsContext, 'db' | 'clock' | 'mailQueue' | 'appUrl' | 'log'>,
  day = dayOf(new Date(ctx.clock.now().getTime() - DAY_MS)),
) {
  const { db, clock } = ctx;
  await repo.pruneSent(db, dayOf(new Date(clock.now().getTime() - 7 * DAY_MS)));
  let sent = 0;
  for (const workspaceId of await repo.workspacesWithDigests(db)) {
    const people = await repo.recipients(db, workspaceId, 'daily');
    const memberEmails = new Set(await repo.memberEmails(db, workspaceId));
    const isMember = (e: string) => memberEmails.has(e);
    // The workspace's hubs once; each member's setting picks among them.
    const hubDays = people.length > 0 ? await hubDaysOf(ctx, workspaceId, day, isMember) : [];
    for (const person of people) {
      const digest = await digestFor(ctx, workspaceId, day, person.scope === 'mine' ? person.memberId : undefined, isMember);
      const hubs = hubsFor(hubDays, person.scope === 'mine' ? person.memberId : undefined);
      if (!digest && hubs.length === 0) continue;
      await db.transaction(async (tx) => {
        if (!(await repo.claim(tx, person.memberId, day, 'digest'))) return;
        await ctx.mailQueue.send(digestMail(person.email, { appUrl: ctx.appUrl, workspace: person.workspaceName, day, digest, hubs }), tx);
        sent++;
      });
    }
  }
  ctx.log.info({ day, sent }, 'daily digests queued');
  return sent;
}
