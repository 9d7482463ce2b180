// A/B tests on share links: start one, read it, stop it keeping a winner, remove it, and its figures per arm.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { conflict, invalid } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import type { SharesService } from '../shares/shares.service';
import { createExperimentHistory } from './experiment-history.service';
import { createExperimentReads } from './experiment-reads.service';
import * as repo from './experiments.repo';
import type { ExperimentMetric } from './experiments.tables';

export interface ExperimentsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  /** The link, within the caller's workspace (404 otherwise; read when called: shares is built first). */
  readonly shares: Pick<SharesService, 'get'>;
  demos: Pick<DemoReader, 'find' | 'versionStepCount'>;
}

export interface NewExperiment {
  name?: string;
  metric?: ExperimentMetric;
  arms: Array<{ demoId: string; version?: number | null; weight: number; label?: string }>;
}

/**
 * A/B tests: one running experiment per link at a time, the earlier ones kept with their figures (read through
 * experiment-reads.service.ts); the viewing gates ask `linkArms` (experiment-serving.ts) which arm a viewer gets. Every change is announced as the link's, so the viewer
 * caches of the link (its state, its payloads per arm) drop at once.
 *
 * @example
 * const experiments = createExperimentsService({ ...kernel, shares: deps.shares.shares, demos: deps.demos.reader });
 * await experiments.start(auth, shareId, { arms: [{ demoId: a, weight: 1 }, { demoId: b, weight: 1 }] });
 * const results = await experiments.results(auth, shareId);
 */
export function createExperimentsService(deps: ExperimentsDeps) {
  const { db } = deps.database;
  const reads = createExperimentReads(deps);
  const history = createExperimentHistory(deps);
  const current = (auth: AuthContext, shareId: string) => reads.find(auth, shareId);

  /** Arms: demos of the workspace, published, the version pinned existing, no two the same. */
  async function checkArms(auth: AuthContext, arms: NewExperiment['arms']) {
    const seen = new Set<string>();
    const labels: string[] = [];
    for (const [i, arm] of arms.entries()) {
      const found = await deps.demos.find(auth.workspaceId, arm.demoId);
      // Another workspace's demo is no demo at all: the same answer as an unknown id.
      if (!found) throw invalid('Every arm must be a demo of this workspace', [{ field: `arms.${i}.demo_id`, message: 'no such demo in this workspace' }]);
      if (found.demo.status !== 'published') {
        throw invalid('Every arm must be a published demo', [{ field: `arms.${i}.demo_id`, message: 'this demo is not published' }]);
      }
      if (arm.version != null && (await deps.demos.versionStepCount(arm.demoId, arm.version)) === undefined) {
        throw invalid('A pinned version must be a published version of its demo', [{ field: `arms.${i}.version`, message: 'this demo has no such version' }]);
      }
      const key = `${arm.demoId}|${arm.version ?? 'newest'}`;
      if (seen.has(key)) throw invalid('Arms must be distinct', [{ field: `arms.${i}`, message: 'another arm serves the same demo and version' }]);
      seen.add(key);
      labels.push(arm.label ?? `${found.demo.title}${arm.version != null ? ` v${arm.version}` : ''}`.slice(0, 60));
    }
    return labels;
  }

  async function start(auth: AuthContext, shareId: string, input: NewExperiment, actor: Actor) {
    const share = await deps.shares.get(auth, shareId);
    const labels = await checkArms(auth, input.arms);
    const now = deps.clock.now();
    const id = newId('experiment', now.getTime());
    try {
      await db.transaction(async (tx) => {
        await repo.insertExperiment(
          tx,
          {
            id,
            workspaceId: auth.workspaceId,
            shareId: share.id,
            name: input.name ?? '',
            metric: input.metric ?? 'completion',
            status: 'running',
            startedAt: now,
            createdById: auth.memberId,
            createdAt: now,
          },
          input.arms.map((arm, position) => ({
            id: newId('experimentArm', now.getTime()),
            experimentId: id,
            position,
            label: labels[position]!,
            demoId: arm.demoId,
            version: arm.version ?? null,
            weight: arm.weight,
          })),
        );
        await recordAudit(tx, deps.clock, actor, {
          workspaceId: auth.workspaceId,
          action: 'experiment.started',
          target: { type: 'experiment', id, label: input.name || share.name || null },
          changes: { share_id: share.id, metric: input.metric ?? 'completion', arms: labels.map((label, i) => ({ label, weight: input.arms[i]!.weight })) },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('This link already has a running experiment: stop it first');
      throw error;
    }
    await deps.changes.announce(tags.share(share.id));
    return (await current(auth, share.id)).view;
  }

  /** Stops the running experiment; the link serves `winnerArmId` (undefined: the significant winner; null: its own demo). */
  async function stop(auth: AuthContext, shareId: string, winnerArmId: string | null | undefined, actor: Actor) {
    const { experiment, arms } = await current(auth, shareId);
    if (experiment.status !== 'running') throw conflict('This experiment is already stopped');
    let winner = winnerArmId;
    if (winner === undefined) {
      winner = (await reads.verdictOf(experiment.metric, arms)).winnerArmId;
      if (!winner) {
        throw conflict('No arm has won yet (the sample is too small or no difference is significant): name the arm to keep in winner_arm_id, or null');
      }
    }
    if (winner !== null && !arms.some((a) => a.id === winner)) {
      throw invalid('winner_arm_id must be an arm of this experiment', [{ field: 'winner_arm_id', message: 'not an arm of this experiment' }]);
    }
    const kept = winner;
    await db.transaction(async (tx) => {
      const stopped = await repo.stopExperiment(tx, experiment.id, kept, deps.clock.now());
      if (!stopped) throw conflict('This experiment is already stopped');
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'experiment.stopped',
        target: { type: 'experiment', id: experiment.id, label: experiment.name || null },
        changes: {
          share_id: experiment.shareId,
          winner_arm_id: kept,
          winner: kept === null ? null : (arms.find((a) => a.id === kept)?.label ?? null),
          named_by: winnerArmId === undefined ? 'significance' : 'member',
        },
      });
    });
    await deps.changes.announce(tags.share(experiment.shareId));
    return (await current(auth, shareId)).view;
  }

  /** Removes the link's newest experiment and its figures: the link serves what the one before kept, else its own demo. */
  async function remove(auth: AuthContext, shareId: string, actor: Actor) {
    const { experiment } = await current(auth, shareId);
    await db.transaction(async (tx) => {
      await repo.deleteExperiment(tx, experiment.id);
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'experiment.deleted',
        target: { type: 'experiment', id: experiment.id, label: experiment.name || null },
        changes: { share_id: experiment.shareId, status: experiment.status },
      });
    });
    await deps.changes.announce(tags.share(experiment.shareId));
  }

  return {
    start,
    /** The link's newest experiment (running or stopped). */
    current: async (auth: AuthContext, shareId: string) => (await current(auth, shareId)).view,
    /** One of the link's experiments, the newest or an earlier one. */
    get: async (auth: AuthContext, shareId: string, experimentId: string) => (await reads.find(auth, shareId, experimentId)).view,
    list: reads.list,
    stop,
    remove,
    /** Deletes an earlier experiment of the link (not the newest: 409). */
    removeEarlier: history.removeEarlier,
    results: reads.results,
  };
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export type ExperimentsService = ReturnType<typeof createExperimentsService>;

