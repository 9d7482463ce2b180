// The one way the editor changes a demo's steps and hotspots: on the locked demo, in one transaction that
// refreshes the demo and records demo.updated, announced after the commit.
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { AssetStore } from './asset-bytes';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';

/** What a step or hotspot edit needs. */
export interface StepEditDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  /** Where uploaded images' bytes go (the kernel's): a blob store, or undefined for the database. */
  assetStore: AssetStore;
}

/** A change to a locked demo's steps or hotspots, run inside the edit's transaction at `now`. */
export type StepChange<T> = (tx: Executor, demo: DemoRow, now: Date) => Promise<T>;

/**
 * Runs `change` on a locked demo that may be edited, then refreshes the demo's thumbnail and updated_at
 * and records demo.updated, in the caller's transaction. Announce `tags.demo(id)` once it commits.
 */
export async function editInTransaction<T>(
  tx: Executor,
  clock: Clock,
  auth: Pick<AuthContext, 'workspaceId'>,
  demoId: string,
  change: StepChange<T>,
) {
  const demo = await repo.lockDemo(tx, auth.workspaceId, demoId);
  if (!demo) throw notFound('Demo');
  if (demo.status === 'generating') {
    throw conflict('This demo is being generated: edit its steps when generation finishes');
  }
  const now = clock.now();
  const result = await change(tx, demo, now);
  await repo.touchAfterStepChange(tx, demo.id, now);
  await emitEvent(tx, clock, {
    workspaceId: auth.workspaceId,
    kind: 'demo.updated',
    data: { demo_id: demo.id, changes: ['steps'], status: demo.status, title: demo.title },
  });
  return result;
}

/** `editInTransaction` in a transaction of its own, announced once it commits. */
export async function editSteps<T>(deps: StepEditDeps, auth: AuthContext, demoId: string, change: StepChange<T>) {
  const result = await deps.database.db.transaction((tx) => editInTransaction(tx, deps.clock, auth, demoId, change));
  await deps.changes.announce(tags.demo(demoId));
  return result;
}

/** A published demo keeps at least one step. */
export function keepsOneStep(demo: DemoRow, remaining: number) {
  if (demo.status === 'published' && remaining === 0) {
    throw conflict('A published demo keeps at least one step: unpublish it first');
  }
}

/** The step of the demo, or 404. */
export async function stepOf(tx: Executor, demoId: string, stepId: string) {
  const step = await repo.findStep(tx, demoId, stepId);
  if (!step) throw notFound('Step');
  return step;
}
