// A link's experiments past and present: a page of them, newest first, and one by id, each with its arms in order.
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { LimitOffset } from '../core/pagination';
import type { Executor } from '../db/client';
import type { ArmRow, ExperimentRow } from './experiments.repo';
import { experimentArms, experiments } from './experiments.tables';

export interface ExperimentWithArms {
  experiment: ExperimentRow;
  arms: ArmRow[];
}

/** The link's experiments, newest first (the order `latestExperiment` takes the first of), with the count of all. */
export async function listExperiments(db: Executor, workspaceId: string, shareId: string, page: LimitOffset) {
  const where = and(eq(experiments.workspaceId, workspaceId), eq(experiments.shareId, shareId));
  const [rows, [total]] = await Promise.all([
    db.select().from(experiments).where(where).orderBy(desc(experiments.startedAt), desc(experiments.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(experiments).where(where),
  ]);
  return { rows: await withArms(db, rows), total: total?.n ?? 0 };
}

/** One experiment of the link; undefined when the id is not one of this link's (another link's, another workspace's). */
export async function findExperiment(db: Executor, workspaceId: string, shareId: string, id: string): Promise<ExperimentWithArms | undefined> {
  const [experiment] = await db
    .select()
    .from(experiments)
    .where(and(eq(experiments.id, id), eq(experiments.workspaceId, workspaceId), eq(experiments.shareId, shareId)));
  return experiment ? (await withArms(db, [experiment]))[0] : undefined;
}

/**
 * Locks the link's experiments for a transaction that removes an earlier one, newest first: which one is the
 * newest cannot change until it commits (a concurrent removal of the newest waits, or has already left).
 */
export async function lockExperiments(tx: Executor, workspaceId: string, shareId: string) {
  return tx
    .select({ id: experiments.id, name: experiments.name, status: experiments.status })
    .from(experiments)
    .where(and(eq(experiments.workspaceId, workspaceId), eq(experiments.shareId, shareId)))
    .orderBy(desc(experiments.startedAt), desc(experiments.id))
    .for('update');
}

async function withArms(db: Executor, rows: ExperimentRow[]): Promise<ExperimentWithArms[]> {
  if (rows.length === 0) return [];
  const arms = await db
    .select()
    .from(experimentArms)
    .where(inArray(experimentArms.experimentId, rows.map((r) => r.id)))
    .orderBy(asc(experimentArms.experimentId), asc(experimentArms.position));
  return rows.map((experiment) => ({ experiment, arms: arms.filter((a) => a.experimentId === experiment.id) }));
}
