/**
 * Rebuilding the analytics roll-ups (viewing/viewing.tables.ts) of some demo-days from the views that remain.
 * Ingestion only ever adds to them; taking a viewer out needs a rebuild, because a unique-viewer set or a
 * HyperLogLog sketch cannot subtract one person. The statements follow ingestion's rules (view-progress.ts):
 * everything a view did is credited to the UTC day it started, a view that has not completed ends at its
 * furthest step, a viewer is their e-mail or else their session's visitor id.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { REGISTERS } from '../core/hll';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import {
  demoDailySegments,
  demoDailySketches,
  demoDailyStats,
  demoDailyViewers,
  demoStepDailyStats,
  views,
  viewSteps,
  workspaceDailySketches,
} from '../viewing/viewing.tables';
import { columnList, columnName } from '../db/column-name';

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
    lock table ${demoDailyStats}, ${demoStepDailyStats}, ${demoDailySegments}, ${demoDailyViewers},
      ${demoDailySketches}, ${workspaceDailySketches} in exclusive mode`);
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
  const inTargets = (demo: PgColumn, day: PgColumn | SQL) => sql`(${demo}, ${day}) in ${targets}`;
  const v = views;
  const viewDay = sql`(${v.startedAt} at time zone 'UTC')::date`;

  const stats = demoDailyStats;
  await db.execute(sql`delete from ${stats} where ${inTargets(stats.demoId, stats.day)}`);
  await db.execute(sql`
    insert into ${stats} ${columnList(stats.demoId, stats.day, stats.version, stats.internal, stats.views, stats.completions, stats.durationSeconds)}
    select ${v.demoId}, ${viewDay}, coalesce(${v.version}, 0), ${v.internal}, count(*)::int,
      count(*) filter (where ${v.completed})::int, sum(${v.durationSeconds})
    from ${v} where ${inTargets(v.demoId, viewDay)}
    group by 1, 2, 3, 4`);

  const stepStats = demoStepDailyStats;
  const s = viewSteps;
  await db.execute(sql`delete from ${stepStats} where ${inTargets(stepStats.demoId, stepStats.day)}`);
  await db.execute(sql`
    insert into ${stepStats} ${columnList(stepStats.demoId, stepStats.day, stepStats.version, stepStats.internal, stepStats.stepNumber, stepStats.views, stepStats.seconds, stepStats.endedHere)}
    select ${v.demoId}, ${viewDay}, coalesce(${v.version}, 0), ${v.internal}, ${s.stepNumber}, count(*)::int, sum(${s.seconds}),
      count(*) filter (where not ${v.completed} and ${s.stepNumber} = (select max(x) from unnest(${v.stepsViewed}) x))::int
    from ${v} join ${s} on ${s.viewId} = ${v.id}
    where ${inTargets(v.demoId, viewDay)}
    group by 1, 2, 3, 4, 5`);

  const segments = demoDailySegments;
  await db.execute(sql`delete from ${segments} where ${inTargets(segments.demoId, segments.day)}`);
  await db.execute(sql`
    insert into ${segments} ${columnList(segments.demoId, segments.day, segments.internal, segments.shareId, segments.company, segments.views, segments.completions, segments.lastViewedAt)}
    select ${v.demoId}, ${viewDay}, ${v.internal}, coalesce(${v.shareId}, ''), coalesce(${v.company}, ''), count(*)::int,
      count(*) filter (where ${v.completed})::int, max(${v.startedAt})
    from ${v} where ${inTargets(v.demoId, viewDay)}
    group by 1, 2, 3, 4, 5`);

  const viewers = demoDailyViewers;
  await db.execute(sql`
    delete from ${viewers}
    where ${inTargets(viewers.demoId, viewers.day)}
      and (lower(${viewers.viewerKey}) = ${erased.email}
        or ${viewers.viewerKey} in (select json_array_elements_text(${JSON.stringify(erased.anonymousIds)}::json)))`);

  const empty = sql`decode(repeat('00', ${REGISTERS}), 'hex')`;
  const sketches = demoDailySketches;
  await db.execute(sql`delete from ${sketches} where ${inTargets(sketches.demoId, sketches.day)}`);
  await db.execute(sql`
    insert into ${sketches} ${columnList(sketches.demoId, sketches.day, sketches.internal, sketches.sketch)}
    select ${viewers.demoId}, ${viewers.day}, ${viewers.internal}, demoshare_hll_add(${empty}, array_agg(distinct ${viewers.viewerKey}))
    from ${viewers} where ${inTargets(viewers.demoId, viewers.day)}
    group by 1, 2, 3`);

  // The workspace's sketch of a day spans all its demos: built again from every demo's viewers of that day.
  // Viewers of demos deleted since drop out of it, as they have from every other figure.
  const days = JSON.stringify([...new Set(pairs.map((p) => p.day))]);
  const inDays = sql`(select json_array_elements_text(${days}::json)::date)`;
  const workspaceSketches = workspaceDailySketches;
  await db.execute(
    sql`delete from ${workspaceSketches} where ${workspaceSketches.workspaceId} = ${workspaceId} and ${workspaceSketches.day} in ${inDays}`,
  );
  await db.execute(sql`
    insert into ${workspaceSketches} ${columnList(workspaceSketches.workspaceId, workspaceSketches.day, workspaceSketches.internal, workspaceSketches.sketch)}
    select ${workspaceId}::text, ${viewers.day}, ${viewers.internal}, demoshare_hll_add(${empty}, array_agg(distinct ${viewers.viewerKey}))
    from ${viewers}
    where ${viewers.day} in ${inDays} and ${viewers.demoId} in (select ${demos.id} from ${demos} where ${demos.workspaceId} = ${workspaceId})
    group by 1, 2, 3`);
}

/** A link's counters as its remaining views make them (the views it counted are the views that name it). */
export async function recountShares(db: Executor, shareIds: string[]): Promise<number> {
  if (shareIds.length === 0) return 0;
  const rows = await db.execute(sql`
    update ${shares} set
      ${columnName(shares.viewCount)} = (select count(*)::int from ${views} where ${views.shareId} = ${shares.id}),
      ${columnName(shares.lastViewedAt)} = (select max(${views.startedAt}) from ${views} where ${views.shareId} = ${shares.id})
    where ${shares.id} in (select json_array_elements_text(${JSON.stringify(shareIds)}::json))
    returning 1`);
  return rowsOf(rows).length;
}
