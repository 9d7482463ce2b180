// Changing a share link: name, password (which signs out its unlocked viewers), expiry, identification, allow-lists.
import { snakeCase } from '../core/snake-case';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { hashPassword } from '../core/crypto';
import { AppError, notFound } from '../core/errors';
import * as repo from './shares.repo';
import { checkExpiry, checkLists, checkPreviewImage, lockWithDemo, unique } from './shares.rules';
import type { ShareRow } from './shares.schemas';
import type { SharesDeps } from './shares.service';

export interface ShareChange {
  name?: string;
  password?: string | null;
  expiresAt?: string | null;
  requireIdentification?: boolean;
  allowedEmails?: string[];
  allowedDomains?: string[];
  previewTitle?: string | null;
  previewDescription?: string | null;
  previewImageAssetId?: string | null;
  showTitleBeforeUnlock?: boolean;
  variables?: Record<string, string>;
}

/** The gates a hub keeps in step on the links it made for its entries (hub-links.ts): set on the hub only. */
const HUB_GATES = ['password', 'expiresAt', 'requireIdentification', 'allowedEmails', 'allowedDomains'] as const;

/**
 * Applies the fields the change sets; the audit line names the fields, never the password. A link a hub made
 * takes its gates from the hub: changing them here would only last until the hub's next change, so it is a
 * 409 naming the hub (its name, preview and variables are the link's own).
 */
export async function update(deps: SharesDeps, auth: AuthContext, id: string, change: ShareChange, actor: Actor) {
  if (change.expiresAt !== undefined) checkExpiry(deps.clock, change.expiresAt);
  // Hashing is slow on purpose: do it before taking the row lock.
  const newHash = typeof change.password === 'string' ? await hashPassword(change.password) : undefined;
  // Outside the transaction (the embedded database has one connection); a link's demo never changes.
  if (change.previewImageAssetId) {
    const current = await repo.findShare(deps.database.db, auth.workspaceId, id);
    if (!current) throw notFound('Share');
    await checkPreviewImage(deps, current.demoId, change.previewImageAssetId);
  }
  const updated = await deps.database.db.transaction(async (tx) => {
    const share = await lockWithDemo(deps, tx, auth.workspaceId, id);
    const hubGates = HUB_GATES.filter((field) => change[field] !== undefined);
    if (share.hubId && hubGates.length > 0) {
      throw new AppError('conflict', `This link belongs to a demo hub, which sets its gates: change them on the hub (PATCH /v1/hubs/${share.hubId})`, {
        details: hubGates.map((field) => ({ field: snakeCase(field), message: 'set by the hub this link belongs to' })),
      });
    }
    const patch: Partial<ShareRow> = { updatedAt: deps.clock.now() };
    if (change.name !== undefined) patch.name = change.name;
    if (change.expiresAt !== undefined) patch.expiresAt = change.expiresAt ? new Date(change.expiresAt) : null;
    if (change.requireIdentification !== undefined) patch.requireIdentification = change.requireIdentification;
    if (change.allowedEmails !== undefined) patch.allowedEmails = unique(change.allowedEmails);
    if (change.allowedDomains !== undefined) patch.allowedDomains = unique(change.allowedDomains);
    if (change.previewTitle !== undefined) patch.previewTitle = change.previewTitle;
    if (change.previewDescription !== undefined) patch.previewDescription = change.previewDescription;
    if (change.showTitleBeforeUnlock !== undefined) patch.showTitleBeforeUnlock = change.showTitleBeforeUnlock;
    if (change.previewImageAssetId !== undefined) patch.previewImageAssetId = change.previewImageAssetId;
    if (change.variables !== undefined) patch.variables = change.variables;
    if (change.password !== undefined) {
      patch.passwordHash = newHash ?? null;
      // Every viewer unlocked with the old password must enter the new one.
      patch.passwordVersion = share.passwordVersion + 1;
    }
    checkLists({ ...share, ...patch });
    const updated = await repo.updateShare(tx, share.id, patch);
    await recordAudit(tx, deps.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'share.changed',
      target: { type: 'share', id: share.id, label: updated?.name || share.name || null },
      // Field names only: the password itself, or its hash, never reaches the log.
      changes: { demo_id: share.demoId, fields: Object.keys(change)
          .filter((k) => change[k as keyof ShareChange] !== undefined)
          .map(snakeCase),
      },
    });
    return updated;
  });
  await deps.changes.announce(tags.share(id), ...(updated ? [tags.demo(updated.demoId)] : []));
  return updated;
}
