// The experiments' SQL: experiments and arms, what a link serves (arms with their demos' state), and the figures per arm from the views.
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { experimentArms, experiments } from './experiments.tables';

export type ExperimentRow = typeof experiments.$inferSelect;
export type ArmRow = typeof experimentArms.$inferSelect;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export async function insertExperiment(tx: Executor, row: typeof experiments.$inferInsert, arms: Array<typeof experimentArms.$inferInsert>) {
  const [created] = await tx.insert(experiments).values(row).returning();
  const inserted = await tx.insert(experimentArms).values(arms).returning();
  return { experiment: created!, arms: inserted.sort((a, b) => a.position - b.position) };
}

/** The link's newest experiment (running or stopped) with its arms in order; undefined: never had one. */
export async function latestExperiment(db: Executor, workspaceId: string, shareId: string) {
  const [experiment] = await db
    .select()
    .from(experiments)
    .where(and(eq(experiments.workspaceId, workspaceId), eq(experiments.shareId, shareId)))
    .orderBy(desc(experiments.startedAt), desc(experiments.id))
    .limit(1);
  if (!experiment) return undefined;
  const arms = await db.select().from(experimentArms).where(eq(experimentArms.experimentId, experiment.id)).orderBy(asc(experimentArms.position));
  return { experiment, arms };
}

/** Stops a running experiment; undefined when it was not running (stopped meanwhile). */
export async function stopExperiment(tx: Executor, id: string, winnerArmId: string | null, at: Date) {
  const [row] = await tx
    .update(experiments)
    .set({ status: 'stopped', winnerArmId, stoppedAt: at })
    .where(and(eq(experiments.id, id), eq(experiments.status, 'running')))
    .returning();
  return row;
}

export async function deleteExperiment(db: Executor, id: string) {
  await db.delete(experiments).where(eq(experiments.id, id));
}

/** One arm of the link's newest experiment as the viewer gates need it: its demo's state and the version it serves. */
export interface ServingArm {
  experimentId: string;
  status: 'running' | 'stopped';
  winnerArmId: string | null;
  armId: string;
  weight: number;
  demoId: string | null;
  pinned: boolean;
  demoStatus: string | null;
  /** The version served (pinned, or the demo's newest) and its steps; null: none (deleted, never published, no such version). */
  version: number | null;
  stepCount: number | null;
}

/**
 * The arms of the link's newest experiment, in order, each with its demo's status and the version it would
 * serve, in one statement (every viewer request of an A/B link reads it, through a cache).
 */
export async function servingArms(db: Executor, shareId: string): Promise<ServingArm[]> {
  return armStates(db, sql`e.id = (select x.id from experiments x where x.share_id = ${shareId} order by x.started_at desc, x.id desc limit 1)`);
}

/** The same states for the arms of any experiments (an earlier one of a link too), grouped by experiment, in order. */
export async function armStatesOf(db: Executor, experimentIds: readonly string[]): Promise<ServingArm[]> {
  if (experimentIds.length === 0) return [];
  return armStates(db, sql`e.id in (select json_array_elements_text(${JSON.stringify(experimentIds)}::json))`);
}

async function armStates(db: Executor, which: SQL): Promise<ServingArm[]> {
  const result = await db.execute(sql`
    select e.id as experiment_id, e.status, e.winner_arm_id, a.id as arm_id, a.weight, a.demo_id,
      (a.version is not null) as pinned, d.status as demo_status,
      coalesce(pv.number, lv.number) as version, coalesce(pv.step_count, lv.step_count) as step_count
    from experiments e
    join experiment_arms a on a.experiment_id = e.id
    left join demos d on d.id = a.demo_id
    left join demo_versions pv on a.version is not null and pv.demo_id = a.demo_id and pv.number = a.version
    left join lateral (
      select v.number, v.step_count from demo_versions v where a.version is null and v.demo_id = a.demo_id order by v.number desc limit 1
    ) lv on true
    where ${which}
    order by a.experiment_id, a.position`);
  return rowsOf(result).map((r) => ({
    experimentId: r.experiment_id as string,
    status: r.status as 'running' | 'stopped',
    winnerArmId: (r.winner_arm_id as string | null) ?? null,
    armId: r.arm_id as string,
    weight: Number(r.weight),
    demoId: (r.demo_id as string | null) ?? null,
    pinned: r.pinned === true || r.pinned === 't',
    demoStatus: (r.demo_status as string | null) ?? null,
    version: r.version === null || r.version === undefined ? null : Number(r.version),
    stepCount: r.step_count === null || r.step_count === undefined ? null : Number(r.step_count),
  }));
}

export interface ArmFigures {
  armId: string;
  views: number;
  uniqueViewers: number;
  completions: number;
  /** Views that submitted a lead form (a `form_submitted` on any step). */
  formConversions: number;
  /** Views with at least one call-to-action click. */
  ctaClicks: number;
}

/**
 * Each arm's figures from its views (the workspace's own traffic left out): views, distinct viewers (e-mail,
 * else the session's anonymous key), completions, and views that converted on a form or clicked a CTA,
 * read from the marks the ingestion keeps once per view (`path_marks`: `f:<step>:submitted`, `k:<step>:<element>`).
 */
export async function armFigures(db: Executor, armIds: readonly string[]): Promise<ArmFigures[]> {
  if (armIds.length === 0) return [];
  const result = await db.execute(sql`
    select v.arm_id,
      count(*)::int as views,
      count(distinct coalesce(v.viewer_email, v.anonymous_id))::int as unique_viewers,
      count(*) filter (where v.completed)::int as completions,
      count(*) filter (where exists (select 1 from unnest(v.path_marks) m where m like 'f:%:submitted'))::int as form_conversions,
      count(*) filter (where exists (select 1 from unnest(v.path_marks) m where m like 'k:%'))::int as cta_clicks
    from views v
    where v.arm_id in (select json_array_elements_text(${JSON.stringify(armIds)}::json)) and not v.internal
    group by v.arm_id`);
  const found = new Map(rowsOf(result).map((r) => [r.arm_id as string, r]));
  return armIds.map((armId) => {
    const r = found.get(armId);
    return {
      armId,
      views: Number(r?.views ?? 0),
      uniqueViewers: Number(r?.unique_viewers ?? 0),
      completions: Number(r?.completions ?? 0),
      formConversions: Number(r?.form_conversions ?? 0),
      ctaClicks: Number(r?.cta_clicks ?? 0),
    };
  });
}
