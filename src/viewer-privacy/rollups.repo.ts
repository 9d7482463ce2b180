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
import { MAX_PATH_CHAPTERS } from '../viewing/view-progress';
import {
  demoChapterDailyStats,
  demoChapterStepDailyStats,
  demoDailySegments,
  demoDailySketches,
  demoDailyStats,
  demoDailyViewers,
  demoElementDailyStats,
  demoFormDailyStats,
  demoPathDailyStats,
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
    lock table ${demoDailyStats}, ${demoStepDailyStats}, ${demoDailySegments}, ${demoChapterDailyStats},
      ${demoChapterStepDailyStats}, ${demoPathDailyStats}, ${demoElementDailyStats}, ${demoFormDailyStats},
      ${demoDailyViewers}, ${demoDailySketches}, ${workspaceDailySketches} in exclusive mode`);
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
    from ${v} join ${s} on ${s.viewId} = ${v.id} and ${s.viewStartedAt} = ${v.startedAt}
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

/** An erased view as the path roll-ups counted it: under its key, once per mark (views.path_marks). */
export interface MarkedView {
  demoId: string;
  day: string;
  version: number;
  internal: boolean;
  completed: boolean;
  pathMarks: string[];
}

/**
 * Takes erased views out of the path roll-ups (chapters, chapter funnels, paths, elements, forms). Their
 * figures of distinct views cannot be rebuilt from the views that remain (a mark is all a view keeps of its
 * path events), but each mark says exactly which row counted the view once: that row loses one. Event
 * counts (`choices`, `action_clicks`, `cta_clicks`) lose one per mark too, the least the view added: a
 * viewer who clicked twice leaves one anonymous click behind. The rows are then no different from a day
 * the view never had, except for those repeat clicks.
 */
export async function subtractPathMarks(db: Executor, erased: MarkedView[]) {
  const chapters = new Map<string, { key: Key; chapter_id: string; n: number; completed: number }>();
  const chapterSteps = new Map<string, { key: Key; chapter_id: string; step_number: number; n: number }>();
  const paths = new Map<string, { key: Key; path: string; n: number }>();
  const elements = new Map<string, { key: Key; step_number: number; element_id: string; actions: number; ctas: number }>();
  const forms = new Map<string, { key: Key; step_number: number; shown: number; started: number; submitted: number }>();
  for (const v of erased) {
    const key: Key = { demo_id: v.demoId, day: v.day, version: v.version, internal: v.internal };
    const at = (...parts: (string | number)[]) => JSON.stringify([key.demo_id, key.day, key.version, key.internal, ...parts]);
    const chosen: string[] = [];
    for (const mark of v.pathMarks) {
      const [kind, a = '', b = ''] = splitMark(mark);
      if (kind === 'c') {
        chosen.push(a);
        const row = chapters.get(at(a)) ?? { key, chapter_id: a, n: 0, completed: 0 };
        row.n++;
        if (v.completed) row.completed++;
        chapters.set(at(a), row);
      } else if (kind === 's' && Number.isInteger(Number(b))) {
        const row = chapterSteps.get(at(a, b)) ?? { key, chapter_id: a, step_number: Number(b), n: 0 };
        row.n++;
        chapterSteps.set(at(a, b), row);
      } else if ((kind === 'a' || kind === 'k') && Number.isInteger(Number(a))) {
        const row = elements.get(at(a, b)) ?? { key, step_number: Number(a), element_id: b, actions: 0, ctas: 0 };
        if (kind === 'a') row.actions++;
        else row.ctas++;
        elements.set(at(a, b), row);
      } else if (kind === 'f' && Number.isInteger(Number(a)) && (b === 'shown' || b === 'started' || b === 'submitted')) {
        const row = forms.get(at(a)) ?? { key, step_number: Number(a), shown: 0, started: 0, submitted: 0 };
        row[b]++;
        forms.set(at(a), row);
      }
    }
    // A view counts under the path of its first chapters chosen (view-progress.ts), and only there.
    if (chosen.length > 0) {
      const path = chosen.slice(0, MAX_PATH_CHAPTERS).join('>');
      const row = paths.get(at(path)) ?? { key, path, n: 0 };
      row.n++;
      paths.set(at(path), row);
    }
  }
  const flat = <T extends { key: Key }>(rows: Map<string, T>) => JSON.stringify([...rows.values()].map(({ key, ...r }) => ({ ...key, ...r })));
  const keyColumns = 'demo_id text, day date, version int, internal boolean';
  const sameKey = (t: { demoId: PgColumn; day: PgColumn; version: PgColumn; internal: PgColumn }) =>
    sql`${t.demoId} = x.demo_id and ${t.day} = x.day and ${t.version} = x.version and ${t.internal} = x.internal`;

  const c = demoChapterDailyStats;
  if (chapters.size > 0) {
    await db.execute(sql`
      update ${c} set ${columnName(c.views)} = greatest(${c.views} - x.n, 0),
        ${columnName(c.choices)} = greatest(${c.choices} - x.n, 0),
        ${columnName(c.completions)} = greatest(${c.completions} - x.completed, 0)
      from json_to_recordset(${flat(chapters)}::json) as x(${sql.raw(keyColumns)}, chapter_id text, n int, completed int)
      where ${sameKey(c)} and ${c.chapterId} = x.chapter_id`);
  }
  const cs = demoChapterStepDailyStats;
  if (chapterSteps.size > 0) {
    await db.execute(sql`
      update ${cs} set ${columnName(cs.views)} = greatest(${cs.views} - x.n, 0)
      from json_to_recordset(${flat(chapterSteps)}::json) as x(${sql.raw(keyColumns)}, chapter_id text, step_number int, n int)
      where ${sameKey(cs)} and ${cs.chapterId} = x.chapter_id and ${cs.stepNumber} = x.step_number`);
  }
  const p = demoPathDailyStats;
  if (paths.size > 0) {
    await db.execute(sql`
      update ${p} set ${columnName(p.views)} = greatest(${p.views} - x.n, 0)
      from json_to_recordset(${flat(paths)}::json) as x(${sql.raw(keyColumns)}, path text, n int)
      where ${sameKey(p)} and ${p.path} = x.path`);
  }
  const e = demoElementDailyStats;
  if (elements.size > 0) {
    await db.execute(sql`
      update ${e} set
        ${columnName(e.actionViews)} = greatest(${e.actionViews} - x.actions, 0),
        ${columnName(e.actionClicks)} = greatest(${e.actionClicks} - x.actions, 0),
        ${columnName(e.ctaViews)} = greatest(${e.ctaViews} - x.ctas, 0),
        ${columnName(e.ctaClicks)} = greatest(${e.ctaClicks} - x.ctas, 0)
      from json_to_recordset(${flat(elements)}::json) as x(${sql.raw(keyColumns)}, step_number int, element_id text, actions int, ctas int)
      where ${sameKey(e)} and ${e.stepNumber} = x.step_number and ${e.elementId} = x.element_id`);
  }
  const f = demoFormDailyStats;
  if (forms.size > 0) {
    await db.execute(sql`
      update ${f} set ${columnName(f.shown)} = greatest(${f.shown} - x.shown, 0),
        ${columnName(f.started)} = greatest(${f.started} - x.started, 0),
        ${columnName(f.submitted)} = greatest(${f.submitted} - x.submitted, 0)
      from json_to_recordset(${flat(forms)}::json) as x(${sql.raw(keyColumns)}, step_number int, shown int, started int, submitted int)
      where ${sameKey(f)} and ${f.stepNumber} = x.step_number`);
  }
}

interface Key {
  demo_id: string;
  day: string;
  version: number;
  internal: boolean;
}

/** `c:<chapter>`, `s:<chapter>:<step>`, `a|k:<step>:<element>`, `f:<step>:<stage>`: element ids may hold colons. */
function splitMark(mark: string): [string, string?, string?] {
  const kind = mark.slice(0, 1);
  const rest = mark.slice(2);
  if (kind === 'c') return [kind, rest];
  const colon = rest.indexOf(':');
  return colon < 0 ? [kind, rest] : [kind, rest.slice(0, colon), rest.slice(colon + 1)];
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
