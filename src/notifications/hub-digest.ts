// The daily digest's hub section: one day's visits and identified visitors per hub, for the members whose settings cover the hub.
import type { HubDigest } from './notification-mail';
import { DAY_MS, type NotificationsContext } from './notifications-context';
import * as repo from './notifications.repo';

/** One hub's day, with who created it (a `mine` setting covers the hubs its member created). */
export interface HubDay extends HubDigest {
  createdBy: string | null;
}

/**
 * Every hub of the workspace with visits opened or visitors identified on `day` (UTC), busiest first.
 * Members' own visits are left out, as in the hub's analytics, and so is a visit identified with a
 * member's address (the team trying its own form), as the digest leaves out their views: neither is news.
 *
 * @example
 * ```ts
 * const hubs = await hubDaysOf(ctx, 'ws_...', '2026-11-27', (e) => memberEmails.has(e));
 * ```
 */
export async function hubDaysOf(ctx: Pick<NotificationsContext, 'db'>, workspaceId: string, day: string, isMember: (email: string) => boolean) {
  const from = new Date(`${day}T00:00:00.000Z`);
  const to = new Date(from.getTime() + DAY_MS);
  const [visits, identified] = await Promise.all([
    repo.hubVisitsOfDay(ctx.db, workspaceId, from, to),
    repo.hubIdentificationsOfDay(ctx.db, workspaceId, from, to),
  ]);
  const hubs = new Map<string, HubDay>();
  const hubOf = (r: { hubId: string; name: string; createdBy: string | null }) => {
    const known = hubs.get(r.hubId) ?? { id: r.hubId, name: r.name, createdBy: r.createdBy, visits: 0, visitors: [] };
    hubs.set(r.hubId, known);
    return known;
  };
  for (const r of visits) if (!(r.email && isMember(r.email))) hubOf(r).visits += r.visits;
  for (const r of identified) {
    if (isMember(r.email)) continue;
    const hub = hubOf(r);
    // One line per address: someone who identified twice that day (two browsers) is one visitor, with their latest answers.
    const visitor = { email: r.email, name: r.visitorName, company: r.values.company ?? null };
    const at = hub.visitors.findIndex((v) => v.email === r.email);
    if (at >= 0) hub.visitors[at] = visitor;
    else hub.visitors.push(visitor);
  }
  return [...hubs.values()].sort((a, b) => b.visits - a.visits || b.visitors.length - a.visitors.length || a.name.localeCompare(b.name));
}

/** What a digest says of the hubs: all of them, or the hubs `createdBy` created (a `mine` setting), as the instant notices. */
export function hubsFor(days: readonly HubDay[], createdBy?: string): HubDigest[] {
  return days.filter((h) => createdBy === undefined || h.createdBy === createdBy).map(({ createdBy: _, ...hub }) => hub);
}
