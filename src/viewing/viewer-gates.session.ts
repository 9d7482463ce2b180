// A viewer session on a link: opened the first time a viewer may play, unlocks or identifies.
import { randomToken, sha256Hex } from '../core/crypto';
import type { ShareRow } from '../shares/shares.schemas';
import type { ViewerGatesDeps } from './viewer-gates';
import { recordDecision, type ResolveDeps, resolve, type Visitor } from './viewer-gates.resolve';
import * as repo from './viewer.repo';
import type { ViewerSessionRow } from './viewer.repo';

/**
 * Whether the visitor is a member of the workspace signed in to the web app (their app session cookie came
 * with the request): their sessions, views and hub visits are internal, left out of the figures.
 */
export async function isInternal(deps: Pick<ViewerGatesDeps, 'database' | 'clock'>, visitor: Visitor, workspaceId: string): Promise<boolean> {
  if (!visitor.appSession) return false;
  return repo.isMemberSession(deps.database.db, sha256Hex(visitor.appSession), workspaceId, deps.clock.now());
}

/**
 * The viewer's session, or a new one (whose token must be handed to the viewer: `issued`). `token`: the new
 * session's token when the caller drew it first (the viewer page sends its cookie before the row is written).
 */
export async function ensureSession(
  deps: Pick<ViewerGatesDeps, 'database' | 'clock' | 'sessionTtlMs'>,
  share: ShareRow,
  session: ViewerSessionRow | undefined,
  visitor: Visitor,
  token: string = randomToken(32),
) {
  if (session) return { session, issued: undefined };
  const { db } = deps.database;
  const now = deps.clock.now();
  const internal = await isInternal(deps, visitor, share.workspaceId);
  const created = await repo.insertViewerSession(db, {
    internal,
    id: sha256Hex(token),
    shareId: share.id,
    demoId: share.demoId,
    workspaceId: share.workspaceId,
    passwordVersion: null,
    // Before consent the view counts without a visitor id (docs/consent.md); consent gives it one.
    anonymousId: visitor.consentPending ? null : randomToken(12),
    referrer: visitor.referrer?.slice(0, 2048) ?? null,
    userAgent: visitor.userAgent?.slice(0, 500) ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.sessionTtlMs),
  });
  return { session: created, issued: token as string | undefined };
}

/**
 * A session on a demo hub's entry link for a viewer who passed the hub's gates (src/hubs), so they never
 * pass the same gates twice: unlocked at the link's password version and identified as on the hub. The
 * link-level gates (revoked, expired, not published) still apply. Answers the new session's token.
 */
export async function openDelegated(
  deps: ResolveDeps & Pick<ViewerGatesDeps, 'sessionTtlMs'>,
  token: string,
  identity: { email: string | null; name: string | null },
  visitor: Visitor,
) {
  const { link } = await resolve(deps, token, undefined, visitor);
  const { share } = link;
  const { session, issued } = await ensureSession(deps, share, undefined, visitor);
  const opened = await repo.updateViewerSession(deps.database.db, session.id, {
    passwordVersion: share.passwordHash === null ? null : share.passwordVersion,
    viewerEmail: identity.email,
    viewerName: identity.name,
  });
  await recordDecision(deps, share, 'granted', visitor, identity);
  return { share, session: opened, token: issued! };
}
