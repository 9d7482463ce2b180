// Revoking a share link: the row stays (views and the access log point at it), its viewer sessions go.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { emitEvent } from '../events/outbox';
import * as repo from './shares.repo';
import { lockWithDemo } from './shares.rules';
import type { SharesDeps } from './shares.service';

/**
 * Revokes the link, in one transaction with dropping its viewer sessions (through the viewing domain's
 * LinkViewers port), its `share.revoked` event and its audit line.
 */
export async function revoke(deps: SharesDeps, auth: AuthContext, id: string, actor: Actor) {
  const demoId = await deps.database.db.transaction(async (tx) => {
    const share = await lockWithDemo(deps, tx, auth.workspaceId, id);
    const now = deps.clock.now();
    await repo.updateShare(tx, share.id, { revokedAt: now, updatedAt: now });
    // Sessions of a revoked link can never be used again: drop them rather than keep dead rows.
    await deps.viewers.dropSessions(tx, share.id);
    await emitEvent(tx, deps.clock, {
      workspaceId: auth.workspaceId,
      kind: 'share.revoked',
      data: { share_id: share.id, demo_id: share.demoId, revoked_at: now.toISOString() },
    });
    await recordAudit(tx, deps.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'share.revoked',
      target: { type: 'share', id: share.id, label: share.name || null },
      changes: { demo_id: share.demoId },
    });
    return share.demoId;
  });
  await deps.changes.announce(tags.share(id), tags.demo(demoId));
}
