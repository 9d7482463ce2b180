// A webhook's delivery log as the API shows it: deliveries with their attempts.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import type { PageWindow } from '../core/pagination';
import * as deliveries from './webhook-deliveries.repo';
import { findOwnWebhook } from './webhooks.lookup';
import type { WebhooksDeps } from './webhooks.service';
import type { DeliveryStatus } from './webhooks.tables';

/**
 * A page of the webhook's deliveries, newest first, each with its attempts: two statements (the page with
 * its total, then the attempts); a page with no row first checks the webhook is the caller's (404), and
 * past the end counts.
 */
export async function listDeliveries(
  deps: WebhooksDeps,
  auth: AuthContext,
  id: string,
  status: DeliveryStatus | undefined,
  window: PageWindow,
) {
  // Deliveries the worker has just attempted may show the replica's bounded lag; a test sent by a member does not.
  const db = deps.reads?.reader(auth.workspaceId) ?? deps.database.db;
  const { rows, total } = await deliveries.listDeliveries(db, auth.workspaceId, id, status, window);
  if (rows.length === 0) {
    await findOwnWebhook(db, auth, id);
    const counted = window.offset > 0 || window.after ? await deliveries.countDeliveries(db, id, status) : 0;
    return { rows: [], total: counted };
  }
  const attempts = await deliveries.attemptsOf(
    db,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((row) => ({ row, attempts: attempts.get(row.id) ?? [] })), total };
}

/** One delivery of the webhook with its attempts; 404 for another webhook's. */
export async function getDelivery(deps: WebhooksDeps, auth: AuthContext, id: string, deliveryId: string) {
  const { db } = deps.database;
  await findOwnWebhook(db, auth, id);
  const row = await deliveries.findDelivery(db, id, deliveryId);
  if (!row) throw notFound('Delivery');
  const attempts = await deliveries.attemptsOf(db, [row.id]);
  return { row, attempts: attempts.get(row.id) ?? [] };
}
