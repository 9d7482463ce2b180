/**
 * Rebuilding the analytics roll-ups (views/views.tables.ts) of some demo-days from the views that remain.
 * Ingestion only ever adds to them; taking a viewer out needs a rebuild, because a unique-viewer set or a
 * HyperLogLog sketch cannot subtract one person. The statements follow ingestion's rules (view-progress.ts):
 * everything a view did is credited to the UTC day it started, a view that has not completed ends at its
 * furthest step, a viewer is their e-mail or else their session's visitor id.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { REGISTERS } from '../core/hll';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface DemoDay {
  demoId: string;
  day: string;
}

/**
 * Blocks ingestion's writes to the roll-ups until the erasure commits (readers go on). A batch that is past
 * its roll-up statements holds them already, so this waits for it to commit; a later batch waits here and
 * then adds its own views to the rebuilt rows. Without it a batch committing between a rebuild's delete and
 * its insert could be counted twice or not at all. One statement, one order: the same as ingestion's.
 */
export async function lockRollups(db: Executor) {
  await db.execute(sql`
    lock table demo_daily_stats, demo_step_daily_stats, demo_daily_segments, demo_daily_viewers,
      demo_daily_sketches, workspace_daily_sketches in exclusive mode`);
}

/** Who was erased, as the day viewer sets key them: the address, and the visitor ids of the erased views. */
export interface ErasedKeys {
  email: string;
  anonymousIds: string[];
}

/**
 * Every roll-up row of `pairs` built again from the views: the demo's tables and sketches, and the workspace's
 * sketches. The day viewer sets only lose the erased keys instead: a set holds a key exactly while a view has
 * it, so that is the same result, at the cost of the erased rows rather than of every view of those days.
 */
export async function rebuildDemoDays(db: Executor, workspaceId: string, pairs: DemoDay[], erased: ErasedKeys) {
  if (pairs.length === 0) return;
  const json = JSON.stringify(pairs.map((p) => ({ demo_id: p.demoId, day: p.day })));
  const targets = sql`(select x.demo_id, x.day from json_to_recordset(${json}::json) as x(demo_id text, day date))`;
  const inTargets = (demo: string, day: string) => sql`(${sql.raw(demo)}, ${sql.raw(day)}) in ${targets}`;
  const viewDay = sql.raw(`(v.started_at at time zone 'UTC')::date`);

  await db.execute(sql`delete from demo_daily_stats as r where ${inTargets('r.demo_id', 'r.day')}`);
  await db.execute(sql`
    insert into demo_daily_stats (demo_id, day, version, internal, views, completions, duration_seconds)
    select v.demo_id, ${viewDay}, coalesce(v.version, 0), v.internal, count(*)::int,
      count(*) filter (where v.completed)::int, sum(v.duration_seconds)
    from views v where ${inTargets('v.demo_id', `(v.started_at at time zone 'UTC')::date`)}
    group by 1, 2, 3, 4`);

  await db.execute(sql`delete from demo_step_daily_stats as r where ${inTargets('r.demo_id', 'r.day')}`);
  await db.execute(sql`
    insert into demo_step_daily_stats (demo_id, day, version, internal, step_number, views, seconds, ended_here)
    select v.demo_id, ${viewDay}, coalesce(v.version, 0), v.internal, s.step_number, count(*)::int, sum(s.seconds),
      count(*) filter (where not v.completed and s.step_number = (select max(x) from unnest(v.steps_viewed) x))::int
    from views v join view_steps s on s.view_id = v.id
    where ${inTargets('v.demo_id', `(v.started_at at time zone 'UTC')::date`)}
    group by 1, 2, 3, 4, 5`);

  await db.execute(sql`delete from demo_daily_segments as r where ${inTargets('r.demo_id', 'r.day')}`);
  await db.execute(sql`
    insert into demo_daily_segments (demo_id, day, internal, share_id, company, views, completions, last_viewed_at)
    select v.demo_id, ${viewDay}, v.internal, coalesce(v.share_id, ''), coalesce(v.company, ''), count(*)::int,
      count(*) filter (where v.completed)::int, max(v.started_at)
    from views v where ${inTargets('v.demo_id', `(v.started_at at time zone 'UTC')::date`)}
    group by 1, 2, 3, 4, 5`);

  await db.execute(sql`
    delete from demo_daily_viewers as r
    where ${inTargets('r.demo_id', 'r.day')}
      and (lower(r.viewer_key) = ${erased.email}
        or r.viewer_key in (select json_array_elements_text(${JSON.stringify(erased.anonymousIds)}::json)))`);

  const empty = sql`decode(repeat('00', ${REGISTERS}), 'hex')`;
  await db.execute(sql`delete from demo_daily_sketches as r where ${inTargets('r.demo_id', 'r.day')}`);
  await db.execute(sql`
    insert into demo_daily_sketches (demo_id, day, internal, sketch)
    select r.demo_id, r.day, r.internal, demoshare_hll_add(${empty}, array_agg(distinct r.viewer_key))
    from demo_daily_viewers r where ${inTargets('r.demo_id', 'r.day')}
    group by 1, 2, 3`);

  // The workspace's sketch of a day spans all its demos: built again from every demo's viewers of that day.
  // Viewers of demos deleted since drop out of it, as they have from every other figure.
  const days = JSON.stringify([...new Set(pairs.map((p) => p.day))]);
  const inDays = sql`(select json_array_elements_text(${days}::json)::date)`;
  await db.execute(sql`delete from workspace_daily_sketches where workspace_id = ${workspaceId} and day in ${inDays}`);
  await db.execute(sql`
    insert into workspace_daily_sketches (workspace_id, day, internal, sketch)
    select ${workspaceId}::text, r.day, r.internal, demoshare_hll_add(${empty}, array_agg(distinct r.viewer_key))
    from demo_daily_viewers r
    where r.day in ${inDays} and r.demo_id in (select id from demos where workspace_id = ${workspaceId})
    group by 1, 2, 3`);
}

/** A link's counters as its remaining views make them (the views it counted are the views that name it). */
export async function recountShares(db: Executor, shareIds: string[]): Promise<number> {
  if (shareIds.length === 0) return 0;
  const rows = await db.execute(sql`
    update shares as s set
      view_count = (select count(*)::int from views v where v.share_id = s.id),
      last_viewed_at = (select max(v.started_at) from views v where v.share_id = s.id)
    where s.id in (select json_array_elements_text(${JSON.stringify(shareIds)}::json))
    returning 1`);
  return rowsOf(rows).length;
}
