// POST /v1/viewer/:token/identify: the identification gate (name and an allowed e-mail address).
import { tags } from '../core/changes';
import type { Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { ViewerGatesDeps } from './viewer-gates';
import { gateError, gateOf, isAllowed, recordDecision, resolve, type Visitor } from './viewer-gates.resolve';
import { ensureSession } from './viewer-gates.session';
import type { ShareRow } from '../shares/shares.schemas';
import * as repo from './viewer.repo';
import type { ViewerSessionRow } from './viewer.repo';

/** A viewer who just identified on a link, as the gates hand it on in the identification's transaction. */
export interface IdentifiedViewer {
  workspaceId: string;
  shareId: string;
  demoId: string;
  email: string;
  name: string | null;
  at: string;
}

/**
 * Port: what else must happen, in the identification's transaction, when a viewer identifies (the
 * notifications module queues its e-mail). Called by `identify` below.
 *
 * @example
 * const onIdentified: OnViewerIdentified = (tx, viewer) => notifications.viewerIdentified(tx, viewer);
 */
export type OnViewerIdentified = (tx: Executor, viewer: IdentifiedViewer) => Promise<void>;

/** Records who the viewer is on their session, once the password gate (if any) is passed and the address allowed. */
export async function identify(
  deps: ViewerGatesDeps,
  token: string,
  sessionToken: string | undefined,
  viewer: { name: string; email: string },
  visitor: Visitor,
) {
  const { link, session } = await resolve(deps, token, sessionToken, visitor);
  const { share } = link;
  const email = viewer.email.toLowerCase();
  if (share.passwordHash !== null && session?.passwordVersion !== share.passwordVersion) {
    await recordDecision(deps, share, 'password_required', visitor, { email, name: viewer.name });
    throw gateError('password', 'unauthorized', 'Enter the password first');
  }
  if (!isAllowed(share, email)) {
    await recordDecision(deps, share, 'not_allowed', visitor, { email, name: viewer.name });
    throw gateError(
      'identification',
      'forbidden',
      'This e-mail address is not allowed to view this demo: ask the person who shared it for access',
    );
  }
  const ensured = await ensureSession(deps, share, session, visitor);
  const { issued } = ensured;
  const sessionId = ensured.session.id;
  const current = await saveIdentity(deps, share, sessionId, { name: viewer.name, email });
  await deps.changes.announce(tags.session(sessionId));
  await recordDecision(deps, share, 'identified', visitor, { email, name: viewer.name });
  return { gate: gateOf(share, current), share, link, session: current, issued };
}

/**
 * Writes who the viewer is on their session (and `also`, such as the password version the same submit
 * unlocked), with `viewer.identified` and its followers in the same transaction.
 */
export async function saveIdentity(
  deps: Pick<ViewerGatesDeps, 'database' | 'clock' | 'onIdentified'>,
  share: ShareRow,
  sessionId: string,
  viewer: { name: string; email: string },
  also: Partial<Pick<ViewerSessionRow, 'passwordVersion'>> = {},
) {
  return deps.database.db.transaction((tx) => writeIdentity(deps, tx, share, sessionId, viewer, also));
}

/** `saveIdentity` in a transaction of the caller's (a lead form's, which stores the lead with it). A null name: none given. */
export async function writeIdentity(
  deps: Pick<ViewerGatesDeps, 'clock' | 'onIdentified'>,
  tx: Executor,
  share: ShareRow,
  sessionId: string,
  viewer: { name: string | null; email: string },
  also: Partial<Pick<ViewerSessionRow, 'passwordVersion'>> = {},
) {
  const { clock } = deps;
  const { email } = viewer;
  const updated = await repo.updateViewerSession(tx, sessionId, { ...also, viewerName: viewer.name, viewerEmail: email });
  await emitEvent(tx, clock, {
    workspaceId: share.workspaceId,
    kind: 'viewer.identified',
    data: {
      share_id: share.id,
      demo_id: share.demoId,
      viewer_email: email,
      viewer_name: viewer.name ?? '',
      identified_at: clock.now().toISOString(),
    },
  });
  await deps.onIdentified?.(tx, {
    workspaceId: share.workspaceId,
    shareId: share.id,
    demoId: share.demoId,
    email,
    name: viewer.name || null,
    at: clock.now().toISOString(),
  });
  return updated;
}
