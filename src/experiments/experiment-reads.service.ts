// Reading a link's A/B tests: the newest, an earlier one by id, the whole history a page at a time, and the results of any.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import type { LimitOffset } from '../core/pagination';
import type { Database } from '../db/client';
import type { SharesService } from '../shares/shares.service';
import * as history from './experiment-history.repo';
import { liveArm } from './experiment-serving';
import * as repo from './experiments.repo';
import { toExperiment, toResults } from './experiments.schemas';
import type { ExperimentMetric } from './experiments.tables';
import { analyse } from './significance';

export interface ExperimentReadsDeps {
  database: Pick<Database, 'db'>;
  /** The link, within the caller's workspace (404 otherwise; read when called: shares is built first). */
  readonly shares: Pick<SharesService, 'get'>;
}

/**
 * Reads of a link's experiments. An earlier experiment answers in the same shape as the newest, `serving`
 * included (whether each arm's demo could be served now), so its results read the same as when it was the newest.
 *
 * @example
 * const reads = createExperimentReads({ database, shares });
 * const { rows, total } = await reads.list(auth, shareId, { limit: 20, offset: 0 });
 * const before = await reads.results(auth, shareId, rows[1]!.id);
 */
export function createExperimentReads(deps: ExperimentReadsDeps) {
  const { db } = deps.database;

  /** The arms of these experiments that their demos could serve now. */
  async function servingOf(experimentIds: string[]) {
    return new Set((await repo.armStatesOf(db, experimentIds)).filter((a) => liveArm(a)).map((a) => a.armId));
  }

  /** The link's experiment `experimentId` (undefined: its newest); 404 for a link of another workspace, or no such experiment on it. */
  async function find(auth: AuthContext, shareId: string, experimentId?: string) {
    const share = await deps.shares.get(auth, shareId);
    const found =
      experimentId === undefined
        ? await repo.latestExperiment(db, auth.workspaceId, share.id)
        : await history.findExperiment(db, auth.workspaceId, share.id, experimentId);
    if (!found) throw notFound('Experiment');
    return { ...found, view: toExperiment(found.experiment, found.arms, await servingOf([found.experiment.id])) };
  }

  /** A page of the link's experiments, newest first. */
  async function list(auth: AuthContext, shareId: string, range: LimitOffset) {
    const share = await deps.shares.get(auth, shareId);
    const { rows, total } = await history.listExperiments(db, auth.workspaceId, share.id, range);
    const serving = await servingOf(rows.map((r) => r.experiment.id));
    return { rows: rows.map((r) => toExperiment(r.experiment, r.arms, serving)), total };
  }

  async function verdictOf(metric: ExperimentMetric, arms: repo.ArmRow[]) {
    const figures = await repo.armFigures(db, arms.map((a) => a.id));
    const successes = (f: repo.ArmFigures) =>
      metric === 'completion' ? f.completions : metric === 'form_conversion' ? f.formConversions : f.ctaClicks;
    return { figures, ...analyse(figures.map((f) => ({ id: f.armId, n: f.views, x: successes(f) }))) };
  }

  /** Figures per arm and the significance of the difference on the experiment's metric (undefined id: the newest). */
  async function results(auth: AuthContext, shareId: string, experimentId?: string) {
    const { experiment, arms, view } = await find(auth, shareId, experimentId);
    const { figures, ...significance } = await verdictOf(experiment.metric, arms);
    return toResults(view, figures, significance);
  }

  return { find, list, verdictOf, results };
}

export type ExperimentReads = ReturnType<typeof createExperimentReads>;
