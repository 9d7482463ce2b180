// Removing one of a link's earlier A/B tests, leaving the newest (and so what the link serves) as it is.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import type { Database } from '../db/client';
import type { SharesService } from '../shares/shares.service';
import * as history from './experiment-history.repo';
import * as repo from './experiments.repo';

export interface ExperimentHistoryDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  /** The link, within the caller's workspace (404 otherwise; read when called: shares is built first). */
  readonly shares: Pick<SharesService, 'get'>;
}

/**
 * The link's history of tests, trimmed by hand. Only an earlier test can go this way: the newest decides what the
 * link serves, and removing it has its own route (DELETE /v1/shares/:id/experiment) whose effect is that change.
 *
 * @example
 * const historyOf = createExperimentHistory({ ...kernel, shares });
 * await historyOf.removeEarlier(auth, shareId, olderExperimentId, actor);
 */
export function createExperimentHistory(deps: ExperimentHistoryDeps) {
  const { db } = deps.database;

  /**
   * Deletes an earlier experiment of the link with its arms, and so its figures (they are counted from views by
   * arm); the views stay, as views of their demos. 404 when the id is not one of this link's experiments; 409
   * when it is the newest. Nothing is announced: a link serves its newest experiment only, which has not changed.
   */
  async function removeEarlier(auth: AuthContext, shareId: string, experimentId: string, actor: Actor) {
    const share = await deps.shares.get(auth, shareId);
    await db.transaction(async (tx) => {
      const all = await history.lockExperiments(tx, auth.workspaceId, share.id);
      const target = all.find((e) => e.id === experimentId);
      if (!target) throw notFound('Experiment');
      if (all[0]!.id === target.id) {
        throw conflict(
          `This is the link's current A/B test (its newest): remove it with DELETE /v1/shares/${share.id}/experiment, ` +
            'which also changes what the link serves',
        );
      }
      await repo.deleteExperiment(tx, target.id);
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'experiment.deleted',
        target: { type: 'experiment', id: target.id, label: target.name || null },
        changes: { share_id: share.id, status: target.status, earlier: true },
      });
    });
  }

  return { removeEarlier };
}
