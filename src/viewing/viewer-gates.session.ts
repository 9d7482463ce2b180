// A viewer session on a link: opened the first time a viewer may play, unlocks or identifies.
import { randomToken, sha256Hex } from '../core/crypto';
import type { ShareRow } from '../shares/shares.schemas';
import type { ViewerGatesDeps } from './viewer-gates';
import type { Visitor } from './viewer-gates.resolve';
import * as repo from './viewer.repo';
import type { ViewerSessionRow } from './viewer.repo';

/** The viewer's session, or a new one (whose token must be handed to the viewer: `issued`). */
export async function ensureSession(
  deps: Pick<ViewerGatesDeps, 'database' | 'clock' | 'sessionTtlMs'>,
  share: ShareRow,
  session: ViewerSessionRow | undefined,
  visitor: Visitor,
) {
  if (session) return { session, issued: undefined };
  const { db } = deps.database;
  const token = randomToken(32);
  const now = deps.clock.now();
  const internal = visitor.appSession ? await repo.isMemberSession(db, sha256Hex(visitor.appSession), share.workspaceId, now) : false;
  const created = await repo.insertViewerSession(db, {
    internal,
    id: sha256Hex(token),
    shareId: share.id,
    demoId: share.demoId,
    workspaceId: share.workspaceId,
    passwordVersion: null,
    anonymousId: randomToken(12),
    referrer: visitor.referrer?.slice(0, 2048) ?? null,
    userAgent: visitor.userAgent?.slice(0, 500) ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.sessionTtlMs),
  });
  return { session: created, issued: token as string | undefined };
}
