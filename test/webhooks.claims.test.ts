import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../src/core/ids';
import { insertDelivery } from '../src/webhooks/webhook-deliveries.repo';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

// The paths of an attempt that end without a request: a disabled webhook, and a claim taken over from a
// worker that died (docs/webhooks.md, "How it works" 3). Three attempts in all, a second and a half apart.
const SCHEDULE = [1500, 1500];

describe('claimed deliveries that are not sent', () => {
  let t: TestApp;
  let admin: TestSession;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_DELAYS: SCHEDULE, WEBHOOK_POLL_INTERVAL: 100 },
    });
    admin = await t.signUp();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(() => receiver.reset());

  async function createHook(path: string) {
    const res = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}${path}`, events: ['webhook.test'] } });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: string };
  }
  const delivery = async (hookId: string, id: string) =>
    (await admin.inject({ method: 'GET', url: `/v1/webhooks/${hookId}/deliveries/${id}` })).json().data;
  const settled = (hookId: string, id: string, status: string) =>
    eventually(async () => {
      const d = await delivery(hookId, id);
      return d.status === status ? d : undefined;
    });

  /** A delivery as a worker that died mid-attempt leaves it: claimed for `attempt`, its lease run out. */
  async function abandonedClaim(hookId: string, attempt: number) {
    const past = new Date(Date.now() - 60_000);
    const eventId = newId('event');
    const row = await insertDelivery(t.ctx.database.db, {
      id: newId('delivery'),
      webhookId: hookId,
      workspaceId: admin.workspaceId,
      eventId,
      eventKind: 'webhook.test',
      body: JSON.stringify({ id: eventId, event: 'webhook.test', timestamp: past.toISOString(), data: {} }),
      status: 'delivering',
      attempts: attempt,
      maxAttempts: SCHEDULE.length + 1,
      nextAttemptAt: past,
      lockedUntil: past,
      lastAttemptAt: past,
      createdAt: past,
    });
    return { id: row.id, eventId };
  }

  it('cancels a due retry of a disabled webhook without sending it, and hands its attempt back', async () => {
    receiver.respond(() => ({ status: 500 }));
    const hook = await createHook('/off');
    const queued = (await admin.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/test` })).json().data;
    await receiver.waitFor((rs) => rs.length >= 1, 20_000, 'the first attempt');
    const off = await admin.inject({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, payload: { active: false } });
    expect(off.json().data).toMatchObject({ active: false, disabled_reason: 'manual' });

    const d = await settled(hook.id, queued.id, 'cancelled');
    expect(d).toMatchObject({ attempts: 1, last_error: 'the webhook is disabled', next_attempt_at: null });
    expect(d.completed_at).not.toBeNull();
    expect(d.attempt_log.map((a: { outcome: string }) => a.outcome)).toEqual(['failed']);
    expect(receiver.received).toHaveLength(1);
  });

  it('takes over a claim whose lease ran out: logs the lost attempt, then makes the next one', async () => {
    const hook = await createHook('/taken');
    const claim = await abandonedClaim(hook.id, 1);

    const d = await settled(hook.id, claim.id, 'succeeded');
    expect(d.attempts).toBe(2);
    expect(d.attempt_log.map((a: { attempt: number; outcome: string }) => [a.attempt, a.outcome])).toEqual([
      [1, 'lost'],
      [2, 'succeeded'],
    ]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([claim.eventId]);
  });

  it('fails a delivery whose last attempt was lost, without sending it again', async () => {
    const hook = await createHook('/last');
    const claim = await abandonedClaim(hook.id, SCHEDULE.length + 1);

    const d = await settled(hook.id, claim.id, 'failed');
    expect(d).toMatchObject({ attempts: SCHEDULE.length + 1, last_error: 'the last attempt was lost with its worker' });
    expect(d.attempt_log.map((a: { attempt: number; outcome: string }) => [a.attempt, a.outcome])).toEqual([[3, 'lost']]);
    expect(receiver.received).toHaveLength(0);
  });
});
