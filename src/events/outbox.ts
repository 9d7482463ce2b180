import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import { EVENTS_CHANNEL } from '../db/channels';
import type { Executor } from '../db/client';
import type { EventKind } from './event-kinds';
import * as repo from './events.repo';

export interface NewEvent {
  workspaceId: string;
  kind: EventKind;
  data: Record<string, unknown>;
  occurredAt?: Date;
}

/**
 * Records an event in the outbox. Call it with the transaction that makes the change, never after it:
 * that is what makes "nothing acknowledged is lost" hold across crashes.
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

/** Records many events with one insert and one NOTIFY: the batched writers' form of emitEvent. */
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

/** Wakes the webhook delivery loop of every process when `tx` commits (the payload is informative only). */
export async function wakeDeliveryWorkers(tx: Executor, payload: string): Promise<void> {
  await repo.notify(tx, EVENTS_CHANNEL, payload);
}
