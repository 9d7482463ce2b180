import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries } from '../src/webhooks/webhooks.tables';
import { engine } from './helpers/database';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';
import { workerChildren } from './helpers/service-process';

const onPostgres = engine === 'postgres';
if (!onPostgres) {
  console.warn(
    '\n*** SKIPPED: the multi-worker and kill -9 webhook tests need PostgreSQL (several processes, one database). ' +
      'Run them with TEST_DATABASE_URL=postgres://... ***\n',
  );
}

const WORKER_ENV = {
  ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s',
  // The lease is the timeout + 30 s: a killed worker's claim is taken over after 32 s.
  WEBHOOK_TIMEOUT: '2s',
  WEBHOOK_POLL_INTERVAL: '200ms',
  WEBHOOK_CONCURRENCY: '8',
};

describe.skipIf(!onPostgres)('webhook workers as separate processes on one PostgreSQL', () => {
  let t: TestApp;
  let admin: TestSession;
  let receiver: WebhookReceiver;
  const workers = workerChildren(() => ({ DATABASE_URL: t.db.url!, ...WORKER_ENV }));

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // This process only serves the API; the children do all the delivering.
    t = await createTestApp({ config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' } });
    admin = await t.signUp();
  });
  afterAll(async () => {
    await workers.killAll();
    await t?.close();
    await receiver?.close();
  });

  const worker = () => workers.start();
  const createHook = async (path: string) => {
    const res = await admin.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: `${receiver.url}${path}`, events: ['member.invited', 'webhook.test'] },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  let invites = 0;
  const emitOne = async (hookId: string, i: number) => {
    // Half through the outbox dispatcher (member.invited), half queued directly (webhook.test).
    const res =
      i % 2 === 0
        ? await admin.inject({
            method: 'POST',
            url: '/v1/team/members',
            payload: { email: `crowd.${Date.now()}.${++invites}@example.com`, role: 'viewer' },
          })
        : await admin.inject({ method: 'POST', url: `/v1/webhooks/${hookId}/test` });
    expect(res.statusCode).toBe(201);
  };

  it('two workers and 100 events: exactly 100 first attempts, each event delivered once', async () => {
    const hookId = await createHook('/crowd');
    receiver.respond(() => ({ status: 200, delayMs: Math.floor(Math.random() * 30) }));
    // Half the events wait in the database before any worker runs, so both race for one backlog.
    for (let i = 0; i < 50; i++) await emitOne(hookId, i);
    const [a, b] = [await worker(), await worker()];
    for (let i = 50; i < 100; i++) await emitOne(hookId, i);

    const crowd = () => receiver.received.filter((r) => r.path === '/crowd');
    await receiver.waitFor(() => crowd().length >= 100, 60_000, '100 deliveries');
    // Anything sent twice would arrive within the poll interval; give it ample time.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(crowd()).toHaveLength(100);
    expect(new Set(crowd().map((r) => r.headers['webhook-id'])).size).toBe(100);

    const rows = await t.ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId));
    expect(rows).toHaveLength(100);
    expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);
    const attempts = await t.ctx.database.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, hookId));
    expect(attempts).toHaveLength(100);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('kill -9 of a worker between commit and delivery: delivered after restart, same webhook-id', async () => {
    const hookId = await createHook('/crash');
    receiver.respond((r) =>
      // The first attempt reaches the receiver, which never answers: the worker dies mid-delivery.
      r.path === '/crash' && receiver.received.filter((x) => x.path === '/crash').length === 1 ? { hang: true } : { status: 200 },
    );
    // Committed with no worker running: only the outbox knows about it.
    const queued = (await admin.inject({ method: 'POST', url: `/v1/webhooks/${hookId}/test` })).json().data;
    const victim = await worker();
    await receiver.waitFor((rs) => rs.filter((x) => x.path === '/crash').length >= 1, 30_000, 'the first attempt');
    await victim.kill();

    await worker();
    const reqs = (
      await receiver.waitFor((rs) => rs.filter((x) => x.path === '/crash').length >= 2, 90_000, 'the attempt after restart')
    ).filter((x) => x.path === '/crash');
    expect(reqs.map((r) => r.headers['webhook-id'])).toEqual([queued.event_id, queued.event_id]);
    expect(reqs[1]!.body.equals(reqs[0]!.body)).toBe(true);

    const d = await eventually(async () => {
      const res = await admin.inject({ method: 'GET', url: `/v1/webhooks/${hookId}/deliveries/${queued.id}` });
      const data = res.json().data;
      return data.status === 'succeeded' ? data : undefined;
    });
    expect(d.attempts).toBe(2);
    expect(d.attempt_log.map((x: { outcome: string }) => x.outcome)).toEqual(['lost', 'succeeded']);
  });
});
