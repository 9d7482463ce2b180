// POST /v1/viewer/:token/consent: the embedding page granted, denied or withdrew consent (docs/consent.md).
import { tags } from '../core/changes';
import { randomToken } from '../core/crypto';
import { addDailyViewers } from './ingest.repo';
import type { ViewerGatesDeps } from './viewer-gates';
import { resolve } from './viewer-gates.resolve';
import * as repo from './viewer-consent.repo';
import { dayOf } from './view-progress';

/**
 * Consent granted: the viewer's session (opened before it, in memory of the player) gets a visitor id, and
 * so does its view if it began without one, whose day's viewer set then counts it, as the view would have
 * been counted had it started after consent. Denied or withdrawn: nothing here to change (the route expires
 * the cookie); what was counted stays counted, as for any view, until erased (docs/viewer-privacy).
 * Answers whether a session came with the request.
 */
export async function consent(deps: ViewerGatesDeps, token: string, sessionToken: string | undefined, granted: boolean) {
  // The link's gates decide only whether the link exists; consent is not a gate decision, so nothing is logged.
  const { session } = await resolve(deps, token, sessionToken);
  if (!session) return { session: false };
  if (!granted || session.anonymousId) return { session: true };
  await deps.database.db.transaction(async (tx) => {
    const anonymousId = (await repo.giveSessionVisitorId(tx, session.id, randomToken(12)))!;
    const view = await repo.giveViewVisitorId(tx, session.id, anonymousId);
    if (!view) return;
    // Adding a key twice changes neither the day's set nor its sketch: a view identified at its start stays one viewer.
    await addDailyViewers(tx, [
      {
        workspaceId: view.workspaceId,
        demoId: view.demoId,
        day: dayOf(view.startedAt),
        version: view.version,
        internal: view.internal,
        shareId: view.shareId,
        viewerKey: view.viewerEmail ?? anonymousId,
      },
    ]);
  });
  await deps.changes.announce(tags.session(session.id));
  return { session: true };
}
