// The rules every change of a link checks, and the lock order a change that may move share_url takes.
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { invalid, notFound } from '../core/errors';
import type { Executor } from '../db/client';
import * as repo from './shares.repo';
import type { ShareRow } from './shares.schemas';
import type { SharesDeps } from './shares.service';

export const unique = (values: string[]) => [...new Set(values)];

/** An expiry must be in the future. */
export function checkExpiry(clock: Clock, expiresAt: string | null | undefined) {
  if (expiresAt && new Date(expiresAt) <= clock.now()) {
    throw invalid('expires_at must be in the future', [{ field: 'expires_at', message: 'must be in the future' }]);
  }
}

/** Allow-lists decide who may identify, so they mean nothing on a link that asks nobody. */
export function checkLists(state: Pick<ShareRow, 'requireIdentification' | 'allowedEmails' | 'allowedDomains'>) {
  if (!state.requireIdentification && (state.allowedEmails.length > 0 || state.allowedDomains.length > 0)) {
    throw invalid('allowed_emails and allowed_domains need require_identification: true', [
      { field: 'require_identification', message: 'must be true when an allow-list is set' },
    ]);
  }
}

/** The workspace's demo, or 404. */
export async function requireDemo(deps: Pick<SharesDeps, 'demos'>, auth: AuthContext, demoId: string) {
  const found = await deps.demos.find(auth.workspaceId, demoId);
  if (!found) throw notFound('Demo');
  return found.demo;
}

/**
 * Locks a link for a change that may move its demo's share_url. The demo's row first, as deleting a demo
 * does (its links go by cascade), so the two never wait on each other in opposite orders.
 */
export async function lockWithDemo(deps: Pick<SharesDeps, 'demos'>, tx: Executor, workspaceId: string, id: string) {
  const found = await repo.findShare(tx, workspaceId, id);
  if (!found) throw notFound('Share');
  await deps.demos.lock(tx, workspaceId, found.demoId);
  const share = await repo.lockShare(tx, workspaceId, id);
  if (!share) throw notFound('Share');
  return share;
}

/** A link's preview image must be an image of its own demo (never an HTML snapshot, never another demo's). */
export async function checkPreviewImage(deps: Pick<SharesDeps, 'demos'>, demoId: string, assetId: string | null | undefined) {
  if (!assetId) return;
  const asset = await deps.demos.asset(demoId, assetId);
  if (!asset?.contentType.startsWith('image/')) {
    throw invalid('preview_image_asset_id must be an image of this demo', [
      { field: 'preview_image_asset_id', message: "must be an image of this demo (a step's screenshot)" },
    ]);
  }
}
