import { tags } from '../core/changes';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { emitEvent } from '../events/outbox';
import type { DemoWriteDeps } from './demo-writes';
import * as repo from './demos.repo';

/** DELETE /v1/demos/:id: the demo goes with its steps, hotspots, assets and share links; audited. */
export async function deleteDemo(deps: DemoWriteDeps, auth: AuthContext, id: string, actor: Actor) {
  const { clock } = deps;
  await deps.database.db.transaction(async (tx) => {
    const demo = await repo.lockDemo(tx, auth.workspaceId, id);
    if (!demo) throw notFound('Demo');
    // Steps, hotspots, assets and share links go by ON DELETE CASCADE.
    await repo.deleteDemo(tx, demo.id);
    await emitEvent(tx, clock, {
      workspaceId: auth.workspaceId,
      kind: 'demo.deleted',
      data: { demo_id: demo.id, title: demo.title },
    });
    await recordAudit(tx, clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'demo.deleted',
      target: { type: 'demo', id: demo.id, label: demo.title },
      changes: { status: demo.status },
    });
  });
  await deps.changes.announce(tags.demo(id));
}
