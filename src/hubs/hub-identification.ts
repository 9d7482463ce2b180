// A viewer's identification or lead form on a hub: written on their hub session, with `viewer.identified` in the same transaction.
import type { Clock } from '../core/clock';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import * as visits from './hub-visits.repo';
import type { HubRow } from './hubs.repo';
import type { HubLeadField } from './hubs.tables';

/** Who the viewer said they are on the hub's gate form. */
export interface HubIdentity {
  email: string;
  name: string;
  /** The lead form's answers (only the fields the hub asks). */
  values: Partial<Record<HubLeadField, string>>;
}

/** A visitor who just passed a hub's form, as the hub hands them on in the identification's transaction. */
export interface IdentifiedHubVisitor {
  workspaceId: string;
  hubId: string;
  /** The hub session (SHA-256 of its token): one identification per session and address. */
  sessionId: string;
  /** When the visit began (ISO): what a notice's "already told" record is keyed by, however long the visit. */
  visitStartedAt: string;
  email: string;
  name: string;
  values: Partial<Record<HubLeadField, string>>;
  at: string;
}

/**
 * Port: what else must happen, in the identification's transaction, when someone passes a hub's form
 * (the notifications module queues its e-mail). Never called for a member's own (internal) visit.
 *
 * @example
 * const onIdentified: OnHubVisitorIdentified = (tx, visitor) => notifications.hubVisitorIdentified(tx, visitor);
 */
export type OnHubVisitorIdentified = (tx: Executor, visitor: IdentifiedHubVisitor) => Promise<void>;

/**
 * Writes who the viewer is on their hub session (and `also`, the password version the same submit unlocked)
 * and, the first time the session names this address, emits `viewer.identified` in the same transaction:
 * the payload of a link's identification (viewer-gates.identification.ts) with `share_id` and `demo_id`
 * null, and the hub's `hub_id`, `hub_name` and lead-form `values`. The session is locked first, so a form
 * sent twice at once (a double click) emits once; a later submit of the same address emits nothing.
 * `onIdentified` runs at the same moment, unless the visit is a member's own.
 */
export async function saveHubIdentity(
  deps: { database: Pick<Database, 'db'>; clock: Clock; onIdentified?: OnHubVisitorIdentified },
  hub: Pick<HubRow, 'id' | 'name' | 'workspaceId'>,
  sessionId: string,
  identity: HubIdentity,
  also: { passwordVersion?: number } = {},
) {
  const { clock } = deps;
  return deps.database.db.transaction(async (tx) => {
    const before = await visits.lockSession(tx, sessionId);
    const first = before?.viewerEmail !== identity.email;
    const at = clock.now();
    const updated = await visits.updateSession(tx, sessionId, {
      ...also,
      viewerEmail: identity.email,
      viewerName: identity.name,
      values: identity.values,
      ...(first ? { identifiedAt: at } : {}),
    });
    if (first) {
      await emitEvent(tx, clock, {
        workspaceId: hub.workspaceId,
        kind: 'viewer.identified',
        data: {
          share_id: null,
          demo_id: null,
          viewer_email: identity.email,
          viewer_name: identity.name,
          identified_at: at.toISOString(),
          hub_id: hub.id,
          hub_name: hub.name,
          values: identity.values,
        },
      });
      if (!updated.internal) {
        await deps.onIdentified?.(tx, {
          workspaceId: hub.workspaceId,
          hubId: hub.id,
          sessionId,
          visitStartedAt: updated.createdAt.toISOString(),
          email: identity.email,
          name: identity.name,
          values: identity.values,
          at: at.toISOString(),
        });
      }
    }
    return updated;
  });
}
