import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent, type OutboxConsumer, OutboxConsumers, type OutboxEvent } from '../src/events/outbox';
import { dispatchBatch } from '../src/webhooks/webhooks.dispatcher';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';

// The outbox's other readers (Slack alerts, CRM sync) see each batch in the dispatcher's transaction: what
// they write commits with the batch being marked dispatched, or neither does, so no event is lost or doubled.
describe('outbox consumers', () => {
  let t: TestApp;
  let admin: TestSession;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signUp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const undispatched = async () => {
    const rows = (await t.ctx.database.db.execute(
      sql`select count(*)::int as n from events where dispatched_at is null and workspace_id = ${admin.workspaceId}`,
    )) as unknown as { rows: Array<{ n: number }> };
    return Number(rows.rows[0]!.n);
  };

  async function emit(kind: 'webhook.test' | 'share.created') {
    return t.ctx.database.db.transaction((tx) =>
      emitEvent(tx, t.ctx.clock, { workspaceId: admin.workspaceId, kind, data: { note: kind } }),
    );
  }

  it('refuses a consumer added twice under one name', () => {
    const consumers = new OutboxConsumers();
    consumers.add('slack', async () => {});
    expect(() => consumers.add('slack', async () => {})).toThrow(/added twice/);
  });

  it('hands each batch to every consumer, in the transaction that marks it dispatched', async () => {
    // Drain what signing up emitted, so the batch below is exactly ours.
    while ((await dispatchBatch(t.ctx.database.db, t.ctx.clock.now(), 6)) > 0);
    const first = await emit('webhook.test');
    const second = await emit('share.created');

    const seen: string[][] = [];
    const consumers = new OutboxConsumers();
    const recording: OutboxConsumer = async (tx, batch) => {
      seen.push(batch.map((e: OutboxEvent) => e.id));
      // Still locked and undispatched while the consumer runs: it writes in the same transaction.
      const rows = (await tx.execute(
        sql`select count(*)::int as n from events where dispatched_at is null and id in (${first}, ${second})`,
      )) as unknown as { rows: Array<{ n: number }> };
      expect(Number(rows.rows[0]!.n)).toBe(2);
    };
    consumers.add('a', recording);
    consumers.add('b', recording);

    expect(await dispatchBatch(t.ctx.database.db, t.ctx.clock.now(), 6, consumers)).toBe(2);
    expect(seen).toEqual([
      [first, second],
      [first, second],
    ]);
    expect(await undispatched()).toBe(0);
  });

  it('leaves the batch undispatched when a consumer fails, for the next dispatcher to take again', async () => {
    const id = await emit('webhook.test');
    let fail = true;
    const consumers = new OutboxConsumers();
    const seen: string[] = [];
    consumers.add('flaky', async (_tx, batch) => {
      if (fail) throw new Error('consumer failed');
      seen.push(...batch.map((e) => e.id));
    });

    await expect(dispatchBatch(t.ctx.database.db, t.ctx.clock.now(), 6, consumers)).rejects.toThrow('consumer failed');
    expect(await undispatched()).toBe(1);

    fail = false;
    expect(await dispatchBatch(t.ctx.database.db, t.ctx.clock.now(), 6, consumers)).toBe(1);
    expect(seen).toEqual([id]);
    expect(await undispatched()).toBe(0);
  });

  it('is the app kernel’s registry, which the delivery worker passes to the dispatcher', () => {
    expect(t.ctx.outbox).toBeInstanceOf(OutboxConsumers);
  });
});
