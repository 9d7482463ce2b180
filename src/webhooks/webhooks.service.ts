import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import { randomBytes } from 'node:crypto';
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { seal } from '../core/crypto';
import { conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { SafeFetch } from '../core/net/safe-fetch';
import type { Database } from '../db/client';
import type { EventKind } from '../events/event-kinds';
import { markDispatched } from '../events/events.repo';
import { emitEvent, wakeDeliveryWorkers } from '../events/outbox';
import * as deliveries from './webhook-deliveries.repo';
import { deliveryBody } from './webhooks.dispatcher';
import * as repo from './webhooks.repo';
import { secretHint } from './webhooks.signing';
import type { DeliveryStatus } from './webhooks.tables';

export interface WebhooksDeps {
  database: Database;
  clock: Clock;
  net: Pick<SafeFetch, 'check'>;
  sealingKey: Buffer;
  rotationGraceMs: number;
  /** The first attempt plus one per configured retry delay. */
  maxAttempts: number;
}

interface Page {
  limit: number;
  offset: number;
}

/** A generated secret: 32 random bytes, in the `whsec_` + base64 look of Standard Webhooks secrets. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Before and after of what an admin can change; the secret is not among them. */
function webhookChanges(before: repo.WebhookRow, after: repo.WebhookRow) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (before.url !== after.url) changes.url = { from: before.url, to: after.url };
  if (before.events.join(',') !== after.events.join(',')) changes.events = { from: before.events, to: after.events };
  if (before.active !== after.active) changes.active = { from: before.active, to: after.active };
  return changes;
}

export function createWebhooksService({ database, clock, net, sealingKey, rotationGraceMs, maxAttempts }: WebhooksDeps) {
  const { db } = database;

  async function get(auth: AuthContext, id: string) {
    const row = await repo.findWebhook(db, auth.workspaceId, id);
    if (!row) throw notFound('Webhook');
    return row;
  }

  async function list(auth: AuthContext, page: Page) {
    return repo.listWebhooks(db, auth.workspaceId, page);
  }

  /** The address is resolved and checked by the SSRF guard now, and again at every delivery. */
  async function create(auth: AuthContext, input: { url: string; events: EventKind[]; secret?: string }, actor: Actor) {
    const url = (await net.check(input.url)).toString();
    const secret = input.secret ?? generateSecret();
    const now = clock.now();
    const row = await db.transaction(async (tx) => {
      const created = await repo.insertWebhook(tx, {
      id: newId('webhook'),
      workspaceId: auth.workspaceId,
      url,
      events: input.events,
      secretSealed: seal(sealingKey, secret),
      secretHint: secretHint(secret),
      createdById: auth.memberId,
      createdAt: now,
      updatedAt: now,
    });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'webhook.created',
        target: { type: 'webhook', id: created.id, label: url },
        changes: { url, events: created.events },
      });
      return created;
    });
    return { row, secret };
  }

  async function update(
    auth: AuthContext,
    id: string,
    input: { url?: string; events?: EventKind[]; active?: boolean },
    actor: Actor,
  ) {
    const current = await get(auth, id);
    const now = clock.now();
    const patch: Parameters<typeof repo.updateWebhook>[2] = { updatedAt: now };
    if (input.url !== undefined) patch.url = (await net.check(input.url)).toString();
    if (input.events !== undefined) patch.events = input.events;
    if (input.active === true && !current.active) {
      // Re-enabling starts the failure clock afresh, or the next failure would disable it again at once.
      Object.assign(patch, { active: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null });
    } else if (input.active === false && current.active) {
      Object.assign(patch, { active: false, disabledAt: now, disabledReason: 'manual' });
    }
    const row = await db.transaction(async (tx) => {
      const updated = await repo.updateWebhook(tx, id, patch);
      if (!updated) throw notFound('Webhook');
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'webhook.changed',
        target: { type: 'webhook', id, label: updated.url },
        changes: webhookChanges(current, updated),
      });
      return updated;
    });
    return row;
  }

  async function remove(auth: AuthContext, id: string, actor: Actor) {
    const current = await get(auth, id);
    await db.transaction(async (tx) => {
      if (!(await repo.deleteWebhook(tx, auth.workspaceId, id))) throw notFound('Webhook');
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'webhook.deleted',
        target: { type: 'webhook', id, label: current.url },
        changes: { events: current.events },
      });
    });
  }

  /** The previous secret keeps signing beside the new one for the grace period, so receivers can switch at leisure. */
  async function rotateSecret(auth: AuthContext, id: string, actor: Actor, given?: string) {
    const current = await get(auth, id);
    const secret = given ?? generateSecret();
    const now = clock.now();
    const previousSecretExpiresAt = new Date(now.getTime() + rotationGraceMs);
    const row = await db.transaction(async (tx) => {
      const updated = await repo.updateWebhook(tx, id, {
        secretSealed: seal(sealingKey, secret),
        secretHint: secretHint(secret),
        previousSecretSealed: current.secretSealed,
        previousSecretExpiresAt,
        updatedAt: now,
      });
      if (!updated) throw notFound('Webhook');
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'webhook.secret_rotated',
        target: { type: 'webhook', id, label: updated.url },
        changes: { generated: given === undefined, previous_valid_until: previousSecretExpiresAt.toISOString() },
      });
      return updated;
    });
    return { row, secret };
  }

  function requireActive(hook: repo.WebhookRow) {
    if (!hook.active) throw conflict('This webhook is disabled: re-enable it (PATCH active: true) first');
  }

  /**
   * Sends `webhook.test` to this webhook only, whatever it subscribes to. The event goes through the
   * outbox like any other, but is fanned out here, in its own transaction, rather than by the dispatcher.
   */
  async function sendTest(auth: AuthContext, id: string) {
    const hook = await get(auth, id);
    requireActive(hook);
    const now = clock.now();
    return db.transaction(async (tx) => {
      const data = { webhook_id: hook.id, message: 'This is a test event sent from Demoshare.' };
      const eventId = await emitEvent(tx, clock, { workspaceId: auth.workspaceId, kind: 'webhook.test', data, occurredAt: now });
      await markDispatched(tx, [eventId], now);
      return deliveries.insertDelivery(tx, {
        id: newId('delivery'),
        webhookId: hook.id,
        workspaceId: auth.workspaceId,
        eventId,
        eventKind: 'webhook.test',
        body: deliveryBody({ id: eventId, kind: 'webhook.test', occurredAt: now, data }),
        maxAttempts,
        nextAttemptAt: now,
        createdAt: now,
      });
    });
  }

  async function listDeliveries(auth: AuthContext, id: string, status: DeliveryStatus | undefined, page: Page) {
    await get(auth, id);
    const { rows, total } = await deliveries.listDeliveries(db, id, status, page);
    const attempts = await deliveries.attemptsOf(
      db,
      rows.map((r) => r.id),
    );
    return { rows: rows.map((row) => ({ row, attempts: attempts.get(row.id) ?? [] })), total };
  }

  async function getDelivery(auth: AuthContext, id: string, deliveryId: string) {
    await get(auth, id);
    const row = await deliveries.findDelivery(db, id, deliveryId);
    if (!row) throw notFound('Delivery');
    const attempts = await deliveries.attemptsOf(db, [row.id]);
    return { row, attempts: attempts.get(row.id) ?? [] };
  }

  /** A fresh delivery of the same bytes with the same webhook-id, so a receiver that already has it can tell. */
  async function redeliver(auth: AuthContext, id: string, deliveryId: string) {
    const hook = await get(auth, id);
    requireActive(hook);
    const original = await deliveries.findDelivery(db, id, deliveryId);
    if (!original) throw notFound('Delivery');
    const now = clock.now();
    return db.transaction(async (tx) => {
      const row = await deliveries.insertDelivery(tx, {
        id: newId('delivery'),
        webhookId: hook.id,
        workspaceId: auth.workspaceId,
        eventId: original.eventId,
        eventKind: original.eventKind,
        body: original.body,
        maxAttempts,
        nextAttemptAt: now,
        redeliveryOf: original.redeliveryOf ?? original.id,
        createdAt: now,
      });
      await wakeDeliveryWorkers(tx, 'delivery');
      return row;
    });
  }

  return { list, get, create, update, remove, rotateSecret, sendTest, listDeliveries, getDelivery, redeliver };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
