// The event outbox's API: domains record events with emitEvent(s) in their change's transaction; webhooks
// fans them out with takeUndispatched / markDispatched / forgetDispatchedBefore. Nothing else reads events.repo.ts.
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import { EVENTS_CHANNEL } from '../db/channels';
import type { Executor } from '../db/client';
import type { EventKind } from './event-kinds';
import * as repo from './events.repo';

/** An event to record: what happened (`kind`, `data`) in which workspace, and when (now unless given). */
export interface NewEvent {
  workspaceId: string;
  kind: EventKind;
  data: Record<string, unknown>;
  occurredAt?: Date;
}

/** An event as the outbox keeps it, until it has been fanned out and its retention has passed. */
export type OutboxEvent = repo.EventRow;

/**
 * Records an event in the outbox. Call it with the transaction that makes the change, never after it:
 * that is what makes "nothing acknowledged is lost" hold across crashes.
 *
 * @example
 * ```ts
 * await emitEvent(tx, clock, { workspaceId, kind: 'share.revoked', data: { share_id: id } });
 * ```
 */
export async function emitEvent(tx: Executor, clock: Clock, event: NewEvent): Promise<string> {
  const id = newId('event');
  const now = clock.now();
  await repo.insertEvents(tx, [
    { id, workspaceId: event.workspaceId, kind: event.kind, data: event.data, occurredAt: event.occurredAt ?? now, createdAt: now },
  ]);
  await wakeDeliveryWorkers(tx, event.kind);
  return id;
}

/**
 * Records many events with one insert and one NOTIFY: the batched writers' form of emitEvent.
 *
 * @example
 * ```ts
 * await emitEvents(tx, clock, views.map((v) => ({ workspaceId, kind: 'view.completed', data: { view_id: v.id } })));
 * ```
 */
export async function emitEvents(tx: Executor, clock: Clock, batch: NewEvent[]): Promise<void> {
  if (batch.length === 0) return;
  const now = clock.now();
  await repo.insertEvents(
    tx,
    batch.map((event) => ({
      id: newId('event'),
      workspaceId: event.workspaceId,
      kind: event.kind,
      data: event.data,
      occurredAt: event.occurredAt ?? now,
      createdAt: now,
    })),
  );
  await wakeDeliveryWorkers(tx, batch[0]!.kind);
}

/**
 * Wakes the webhook delivery loop of every process when `tx` commits (the payload is informative only).
 *
 * @example
 * ```ts
 * await deliveries.insertDelivery(tx, row);
 * await wakeDeliveryWorkers(tx, 'delivery');
 * ```
 */
export async function wakeDeliveryWorkers(tx: Executor, payload: string): Promise<void> {
  await repo.notify(tx, EVENTS_CHANNEL, payload);
}

/**
 * Up to `limit` events not fanned out yet, oldest first, locked for the rest of `tx`: concurrent
 * dispatchers get disjoint batches (SKIP LOCKED), and a dispatcher that dies leaves its batch to the next.
 *
 * @example
 * ```ts
 * const batch = await takeUndispatched(tx, 100);
 * // ...create their deliveries in tx, then:
 * await markDispatched(tx, batch.map((e) => e.id), now);
 * ```
 */
export function takeUndispatched(tx: Executor, limit: number): Promise<OutboxEvent[]> {
  return repo.lockUndispatched(tx, limit);
}

/**
 * Records that `ids` have been fanned out, in the transaction that created their deliveries.
 *
 * @example
 * ```ts
 * await markDispatched(tx, [eventId], clock.now());
 * ```
 */
export function markDispatched(tx: Executor, ids: string[], now: Date): Promise<void> {
  return repo.markDispatched(tx, ids, now);
}

/**
 * Deletes the events fanned out before `before`: their deliveries carry everything the log needs.
 *
 * @example
 * ```ts
 * await forgetDispatchedBefore(db, new Date(clock.now().getTime() - retentionMs));
 * ```
 */
export function forgetDispatchedBefore(db: Executor, before: Date): Promise<void> {
  return repo.deleteDispatchedBefore(db, before);
}

/**
 * A reader of the outbox besides webhooks (Slack alerts, CRM sync): called by the dispatcher with each batch
 * it takes, in the batch's transaction, so whatever the consumer writes (its own pending rows) commits with
 * the batch being marked dispatched, or not at all. A consumer writes rows and returns; it never calls out.
 */
export type OutboxConsumer = (tx: Executor, batch: readonly OutboxEvent[], now: Date) => Promise<void>;

/**
 * The consumers of one app, added by their modules' `create` (`kernel.outbox.add('slack', consumer)`) and
 * run by the webhooks' dispatcher after it has made its own deliveries.
 *
 * @example
 * ```ts
 * const outbox = new OutboxConsumers();
 * outbox.add('slack', async (tx, batch, now) => { await insertAlerts(tx, batch.filter(isAlert), now); });
 * ```
 */
export class OutboxConsumers {
  private readonly consumers = new Map<string, OutboxConsumer>();

  add(name: string, consumer: OutboxConsumer): void {
    if (this.consumers.has(name)) throw new Error(`outbox consumer ${name} is added twice`);
    this.consumers.set(name, consumer);
  }

  async consume(tx: Executor, batch: readonly OutboxEvent[], now: Date): Promise<void> {
    for (const consumer of this.consumers.values()) await consumer(tx, batch, now);
  }
}
