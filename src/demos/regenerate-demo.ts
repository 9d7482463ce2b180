import { tags } from '../core/changes';
import type { AuthContext } from '../auth/permissions';
import { conflict, notFound } from '../core/errors';
import { emitEvent } from '../events/outbox';
import type { DemoWriteDeps } from './demo-writes';
import * as repo from './demos.repo';
import { admitGeneration, consumeGenerationBudget, enqueueGeneration, type GenerationStartDeps, generatingState } from './generation-start';

/**
 * POST /v1/demos/:id/generate: captures source_url again; the steps are replaced when it succeeds
 * (all of them, or only those nobody edited when `keepEditedSteps`).
 */
export async function regenerateDemo(
  deps: DemoWriteDeps & GenerationStartDeps,
  auth: AuthContext,
  id: string,
  options: { keepEditedSteps?: boolean } = {},
) {
  const { db } = deps.database;
  const current = await repo.findDemo(db, auth.workspaceId, id);
  if (!current) throw notFound('Demo');
  if (current.demo.status === 'generating') throw conflict('This demo is being generated already');
  if (current.demo.status === 'published') {
    throw conflict('Unpublish the demo before generating it again: generation replaces its steps');
  }
  if (!current.demo.sourceUrl) {
    throw conflict('This demo has no source_url to generate from');
  }
  await consumeGenerationBudget(deps, auth.workspaceId);
  await db.transaction(async (tx) => {
    await admitGeneration(deps, tx, auth.workspaceId);
    const demo = await repo.lockDemo(tx, auth.workspaceId, id);
    if (!demo) throw notFound('Demo');
    if (demo.status !== current.demo.status) throw conflict('The demo changed meanwhile: try again');
    const now = deps.clock.now();
    await repo.updateDemo(tx, demo.id, generatingState(now, options.keepEditedSteps ?? false));
    await emitEvent(tx, deps.clock, {
      workspaceId: auth.workspaceId,
      kind: 'demo.updated',
      data: { demo_id: demo.id, changes: ['status'], status: 'generating', title: demo.title },
    });
    await enqueueGeneration(deps, tx, demo.id, { demoId: demo.id, replaceTitle: false });
  });
  await deps.changes.announce(tags.demo(id));
}
