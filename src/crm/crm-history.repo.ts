// What a workspace's identified viewers did before HubSpot was connected: views by demo, leads, hub identifications.
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { hubSessions, hubs } from '../hubs/hubs.tables';
import { leads } from '../leads/leads.tables';
import { views } from '../viewing/viewing.tables';

/** One line of a contact's history: a demo viewed (grouped), a form sent, or a hub identification. */
export type HistoryRow =
  | { kind: 'views'; email: string; name: string | null; title: string; demoId: string; count: number; completed: boolean; at: Date }
  | { kind: 'lead'; email: string; name: string | null; title: string; demoId: string; values: Record<string, unknown>; at: Date }
  | { kind: 'hub'; email: string; name: string | null; title: string; hubId: string; values: Record<string, unknown>; at: Date };

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const dateOf = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

/**
 * The history of identified viewers in [from, to): views grouped by address and demo (members' own left out,
 * as in analytics), every lead with an address, and every hub identification, oldest first. `limit` bounds the
 * rows read; the caller asks for one more to know it was reached.
 */
export async function historyBetween(db: Executor, workspaceId: string, from: Date | null, to: Date, limit: number): Promise<HistoryRow[]> {
  const since = from ?? new Date(0);
  const result = await db.execute(sql`
    select 'views' as kind, v.email, v.name, d.title, v.demo_id as ref, v.count, v.completed, null::jsonb as values, v.at
    from (
      select lower(${views.viewerEmail}) as email, ${views.demoId} as demo_id, count(*)::int as count, bool_or(${views.completed}) as completed,
        max(${views.startedAt}) as at, (array_agg(${views.viewerName} order by ${views.startedAt} desc) filter (where ${views.viewerName} is not null))[1] as name
      from ${views}
      where ${views.workspaceId} = ${workspaceId} and ${views.viewerEmail} like '%@%' and not ${views.internal}
        and ${views.startedAt} >= ${since} and ${views.startedAt} < ${to}
      group by 1, 2
    ) v join ${demos} d on d.id = v.demo_id
    union all
    select 'lead', l.email, l.name, d.title, l.demo_id, 1, false, l.values, l.created_at
    from ${leads} l join ${demos} d on d.id = l.demo_id
    where l.workspace_id = ${workspaceId} and l.email like '%@%' and l.created_at >= ${since} and l.created_at < ${to}
    union all
    select 'hub', lower(s.viewer_email), s.viewer_name, h.name, h.id, 1, false, s.values, s.identified_at
    from ${hubSessions} s join ${hubs} h on h.id = s.hub_id
    where s.workspace_id = ${workspaceId} and s.viewer_email like '%@%' and s.identified_at >= ${since} and s.identified_at < ${to}
    order by 9, 2
    limit ${limit}`);
  return rowsOf(result).map((r) => {
    const base = { email: String(r.email), name: (r.name as string | null) ?? null, title: String(r.title), at: dateOf(r.at) };
    if (r.kind === 'views') return { ...base, kind: 'views', demoId: String(r.ref), count: Number(r.count), completed: Boolean(r.completed) };
    const values = (typeof r.values === 'string' ? JSON.parse(r.values) : (r.values ?? {})) as Record<string, unknown>;
    return r.kind === 'lead' ? { ...base, kind: 'lead', demoId: String(r.ref), values } : { ...base, kind: 'hub', hubId: String(r.ref), values };
  });
}
