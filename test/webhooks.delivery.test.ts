import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emitEvent } from '../src/events/outbox';
import { webhookDeliveries } from '../src/webhooks/webhooks.tables';
import { engine } from './helpers/database';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually, type Received, WebhookReceiver } from './helpers/webhook-receiver';

// Seconds instead of minutes; distinct delays so each gap can be recognised.
const SCHEDULE = [3000, 1500, 500, 500, 500];
// Long enough that a loaded CI machine answering slowly is not mistaken for a timeout.
const TIMEOUT_MS = 5000;

const hex = (secret: string, body: Buffer) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
const standardKey = (secret: string) => `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;
const headersOf = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

describe('webhook deliveries to a real receiver', () => {
  let t: TestApp;
  let admin: TestSession;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      jobs: true,
      config: {
        ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
        WEBHOOK_RETRY_DELAYS: SCHEDULE,
        WEBHOOK_TIMEOUT: TIMEOUT_MS,
        WEBHOOK_POLL_INTERVAL: 200,
      },
    });
    admin = await t.signUp();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(() => receiver.reset());

  async function createHook(path: string, events: string[] = ['webhook.test', 'member.invited'], secret?: string) {
    const res = await admin.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: `${receiver.url}${path}`, events, ...(secret ? { secret } : {}) },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: string; secret: string; standard_webhooks_secret: string };
  }
  const sendTest = async (hookId: string) => {
    const res = await admin.inject({ method: 'POST', url: `/v1/webhooks/${hookId}/test` });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: string; event_id: string };
  };
  const onPath = (path: string) => (rs: Received[]) => rs.filter((r) => r.path === path);
  const requestsTo = async (path: string, n: number, timeoutMs = 20_000) =>
    onPath(path)(await receiver.waitFor((rs) => onPath(path)(rs).length >= n, timeoutMs, `${n} requests to ${path}`));
  const delivery = async (hookId: string, deliveryId: string) => {
    const res = await admin.inject({ method: 'GET', url: `/v1/webhooks/${hookId}/deliveries/${deliveryId}` });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const settled = (hookId: string, deliveryId: string, status: string, timeoutMs = 20_000) =>
    eventually(
      async () => {
        const d = await delivery(hookId, deliveryId);
        return d.status === status ? d : undefined;
      },
      timeoutMs,
      `delivery ${status}`,
    );

  it('signs the exact bytes: hex HMAC in X-Service-Signature, and Standard Webhooks verifies', async () => {
    const hook = await createHook('/signed');
    const queued = await sendTest(hook.id);
    const [req] = await requestsTo('/signed', 1);
    const h = headersOf(req!);
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toBe('Demoshare-Webhooks/1.0');
    expect(h['x-service-event']).toBe('webhook.test');
    expect(h['x-service-signature']).toBe(hex(hook.secret, req!.body));
    expect(h['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(h['webhook-id']).toBe(queued.event_id);
    expect(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const payload = new Webhook(hook.standard_webhooks_secret).verify(req!.body.toString('utf8'), h);
    expect(payload).toMatchObject({ id: queued.event_id, event: 'webhook.test', data: { webhook_id: hook.id } });
    expect(new Webhook(standardKey(hook.secret)).verify(req!.body.toString('utf8'), h)).toBeTruthy();
    // A tampered body or a wrong secret fails both checks.
    const tampered = Buffer.from(req!.body.toString('utf8').replace('webhook.test', 'webhook.tesT'));
    expect(hex(hook.secret, tampered)).not.toBe(h['x-service-signature']);
    expect(() => new Webhook(hook.standard_webhooks_secret).verify(tampered.toString('utf8'), h)).toThrow();
    expect(() => new Webhook(standardKey('another-secret-1234')).verify(req!.body.toString('utf8'), h)).toThrow();

    const body = JSON.parse(req!.body.toString('utf8'));
    expect(Object.keys(body)).toEqual(['id', 'event', 'timestamp', 'data']);
    expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const d = await settled(hook.id, queued.id, 'succeeded');
    expect(d.attempts).toBe(1);
    expect(d.attempt_log).toHaveLength(1);
    expect(d.attempt_log[0]).toMatchObject({ attempt: 1, outcome: 'succeeded', status_code: 200, response_body: 'ok' });
    expect(d.request_body).toBe(req!.body.toString('utf8'));
    expect(JSON.stringify(d)).not.toContain(hook.secret);
  });

  it('delivers an outbox event with non-ASCII data byte for byte, signatures intact', async () => {
    await createHook('/unicode', ['demo.created'], 'sécret-ключ-秘密');
    const data = { demo_id: 'demo_x', title: 'Démo – 日本語 🎉 «ok»', note: 'line\nbreak "quoted" \\ back' };
    await t.ctx.database.db.transaction((tx) =>
      emitEvent(tx, t.ctx.clock, { workspaceId: admin.workspaceId, kind: 'demo.created', data }),
    );
    const [req] = await requestsTo('/unicode', 1);
    const h = headersOf(req!);
    expect(h['x-service-signature']).toBe(hex('sécret-ключ-秘密', req!.body));
    const verified = new Webhook(standardKey('sécret-ключ-秘密')).verify(req!.body.toString('utf8'), h) as { data: unknown };
    expect(verified.data).toEqual(data);
    expect(req!.body.toString('utf8')).toContain('日本語 🎉');
    expect(Number(h['content-length'])).toBe(req!.body.length);
  });

  it('fans member.invited out to subscribed webhooks only', async () => {
    const subscribed = await createHook('/invites', ['member.invited']);
    await createHook('/not-subscribed', ['demo.viewed']);
    const res = await admin.inject({
      method: 'POST',
      url: '/v1/team/members',
      payload: { email: `invitee.${Date.now()}@example.com`, role: 'editor' },
    });
    expect(res.statusCode).toBe(201);
    const [req] = await requestsTo('/invites', 1);
    expect(JSON.parse(req!.body.toString()).data).toMatchObject({ member_id: res.json().data.id, role: 'editor' });
    expect(new Webhook(subscribed.standard_webhooks_secret).verify(req!.body.toString(), headersOf(req!))).toBeTruthy();
    await new Promise((r) => setTimeout(r, 500));
    expect(onPath('/not-subscribed')(receiver.received)).toHaveLength(0);
  });

  it('500, 500, 200: three attempts with one webhook-id, spaced by the schedule', async () => {
    const hook = await createHook('/flaky');
    receiver.respond(() => (onPath('/flaky')(receiver.received).length <= 2 ? { status: 500, body: 'boom' } : { status: 200 }));
    const queued = await sendTest(hook.id);
    const reqs = await requestsTo('/flaky', 3, 30_000);
    expect(new Set(reqs.map((r) => r.headers['webhook-id']))).toEqual(new Set([queued.event_id]));
    expect(new Set(reqs.map((r) => r.body.toString()))).toHaveLength(1);
    // Schedule: 3 s then 1.5 s, each ±10 % jitter, plus polling slack. The lower bounds prove the waits;
    // the upper ones allow a loaded machine's slack (a CI run saw 3.0 s for the 1.5 s wait), and the
    // shorter second wait shows the schedule's shape.
    const gap1 = reqs[1]!.at - reqs[0]!.at;
    const gap2 = reqs[2]!.at - reqs[1]!.at;
    expect(gap1).toBeGreaterThanOrEqual(2600);
    expect(gap1).toBeLessThan(6000);
    expect(gap2).toBeGreaterThanOrEqual(1300);
    expect(gap2).toBeLessThan(4000);
    expect(gap2).toBeLessThan(gap1);
    const d = await settled(hook.id, queued.id, 'succeeded');
    expect(d.attempts).toBe(3);
    expect(d.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    expect(d.attempt_log[0].response_body).toBe('boom');
    const list = (await admin.inject({ method: 'GET', url: '/v1/webhooks' })).json().data;
    expect(list.find((w: { id: string }) => w.id === hook.id)).toMatchObject({ consecutive_failures: 0 });
  });

  it('always 500: exactly six attempts (one plus five retries), then failed', async () => {
    const hook = await createHook('/down');
    receiver.respond(() => ({ status: 500, body: 'x'.repeat(10_000) }));
    const queued = await sendTest(hook.id);
    const d = await settled(hook.id, queued.id, 'failed', 30_000);
    expect(d.attempts).toBe(6);
    expect(d.next_attempt_at).toBeNull();
    expect(d.attempt_log).toHaveLength(6);
    expect(d.attempt_log[0].response_body.length).toBe(2048);
    expect(d.attempt_log[0].response_truncated).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect(onPath('/down')(receiver.received)).toHaveLength(6);
    const list = (await admin.inject({ method: 'GET', url: '/v1/webhooks' })).json().data;
    expect(list.find((w: { id: string }) => w.id === hook.id)).toMatchObject({ consecutive_failures: 6, active: true });
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const hook = await createHook('/moved');
    receiver.respond((r) =>
      r.path === '/moved' && onPath('/moved')(receiver.received).length === 1
        ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } }
        : { status: 200 },
    );
    const queued = await sendTest(hook.id);
    const d = await settled(hook.id, queued.id, 'succeeded', 20_000);
    expect(d.attempt_log[0]).toMatchObject({ outcome: 'failed', status_code: 302 });
    expect(d.attempt_log[0].error).toMatch(/redirect/);
    expect(onPath('/elsewhere')(receiver.received)).toHaveLength(0);
  });

  it('counts a timeout as a failure', async () => {
    const hook = await createHook('/slow');
    receiver.respond(() => (onPath('/slow')(receiver.received).length === 1 ? { delayMs: TIMEOUT_MS + 2000 } : { status: 200 }));
    const queued = await sendTest(hook.id);
    const d = await settled(hook.id, queued.id, 'succeeded', 20_000);
    expect(d.attempt_log[0].outcome).toBe('failed');
    expect(d.attempt_log[0].status_code).toBeNull();
    expect(d.attempt_log[0].error).toBe(`timed out after ${TIMEOUT_MS / 1000} s`);
    expect(d.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
  });

  it('honours Retry-After on 429 (sooner than the 3 s schedule)', async () => {
    const hook = await createHook('/busy');
    receiver.respond(() =>
      onPath('/busy')(receiver.received).length === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const queued = await sendTest(hook.id);
    const reqs = await requestsTo('/busy', 2);
    const gap = reqs[1]!.at - reqs[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(900);
    expect(gap).toBeLessThan(2500);
    await settled(hook.id, queued.id, 'succeeded');
  });

  it('honours Retry-After on 503 (later than the schedule)', async () => {
    const hook = await createHook('/maintenance');
    receiver.respond(() =>
      onPath('/maintenance')(receiver.received).length === 1 ? { status: 503, headers: { 'retry-after': '5' } } : { status: 200 },
    );
    await sendTest(hook.id);
    const reqs = await requestsTo('/maintenance', 2);
    expect(reqs[1]!.at - reqs[0]!.at).toBeGreaterThanOrEqual(4900);
  });

  it('410 Gone: no retry, the webhook is disabled', async () => {
    const hook = await createHook('/gone');
    receiver.respond(() => ({ status: 410 }));
    const queued = await sendTest(hook.id);
    const d = await settled(hook.id, queued.id, 'failed');
    expect(d.attempts).toBe(1);
    const list = (await admin.inject({ method: 'GET', url: '/v1/webhooks' })).json().data;
    const found = list.find((w: { id: string }) => w.id === hook.id);
    expect(found).toMatchObject({ active: false, disabled_reason: 'gone' });
    expect(found.disabled_at).not.toBeNull();
    // A disabled webhook neither tests nor redelivers until re-enabled.
    expect((await admin.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/test` })).statusCode).toBe(409);
    await admin.inject({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, payload: { active: true } });
    receiver.respond(() => ({ status: 200 }));
    const again = await sendTest(hook.id);
    await settled(hook.id, again.id, 'succeeded');
  });

  it('redelivers on demand: same body, same webhook-id, new delivery linked to the original', async () => {
    const hook = await createHook('/redeliver');
    const queued = await sendTest(hook.id);
    await settled(hook.id, queued.id, 'succeeded');
    const res = await admin.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/deliveries/${queued.id}/redeliver` });
    expect(res.statusCode).toBe(201);
    const copy = res.json().data;
    expect(copy).toMatchObject({ event_id: queued.event_id, redelivery_of: queued.id, status: 'pending' });
    expect(copy.id).not.toBe(queued.id);
    const reqs = await requestsTo('/redeliver', 2);
    expect(reqs[1]!.headers['webhook-id']).toBe(reqs[0]!.headers['webhook-id']);
    expect(reqs[1]!.body.equals(reqs[0]!.body)).toBe(true);
    await settled(hook.id, copy.id, 'succeeded');
    const log = (await admin.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries` })).json();
    expect(log.meta.total).toBe(2);
    expect(log.data.map((d: { id: string }) => d.id)).toEqual([copy.id, queued.id]);
    const unknown = await admin.inject({
      method: 'POST',
      url: `/v1/webhooks/${hook.id}/deliveries/dlv_01jd3k7q9x8v2m4n6p0r5s7t9w/redeliver`,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('signs with both secrets during a rotation', async () => {
    const hook = await createHook('/rotated', ['webhook.test'], 'old-secret-123456');
    const rotated = (await admin.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/rotate-secret` })).json().data;
    await sendTest(hook.id);
    const [req] = await requestsTo('/rotated', 1);
    const h = headersOf(req!);
    const text = req!.body.toString('utf8');
    expect(h['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(standardKey('old-secret-123456')).verify(text, h)).toBeTruthy();
    expect(new Webhook(rotated.standard_webhooks_secret).verify(text, h)).toBeTruthy();
    expect(h['x-service-signature']).toBe(hex(rotated.secret, req!.body));
    expect(h['x-service-signature-previous']).toBe(hex('old-secret-123456', req!.body));
  });

  it('filters and paginates the delivery log', async () => {
    const hook = await createHook('/paged');
    for (let i = 0; i < 3; i++) await sendTest(hook.id);
    await requestsTo('/paged', 3);
    const page = await admin.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries?per_page=2&page=2` });
    expect(page.json().meta).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page.json().data).toHaveLength(1);
    const bad = await admin.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries?status=exploded` });
    expect(bad.statusCode).toBe(400);
    await eventually(async () => {
      const ok = await admin.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries?status=succeeded` });
      return ok.json().meta.total === 3;
    });
  });

  it('refuses a URL that was opened at creation but is blocked at delivery time', async () => {
    const hook = await createHook('/blocked');
    // Simulates an address whose DNS answer turned private after creation.
    await t.ctx.database.db.execute(
      (await import('drizzle-orm')).sql`update webhooks set url = 'http://10.0.0.1/x' where id = ${hook.id}`,
    );
    const queued = await sendTest(hook.id);
    await eventually(async () => (await delivery(hook.id, queued.id)).attempt_log.length >= 1 || undefined);
    const d = await delivery(hook.id, queued.id);
    expect(d.attempt_log[0].error).toMatch(/cannot be used|forbidden/);
    await t.ctx.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, queued.id));
  });
  // As for Slack: the DELETE locks the webhook, then its deliveries by cascade; recording an attempt
  // locked the delivery, then the webhook (its counters). A trigger holds the worker between the two so
  // the DELETE lands there every time; shorter than deadlock_timeout, so the DELETE would be the victim.
  it.skipIf(engine !== 'postgres')('deletes a webhook while a worker is recording an attempt: no deadlock, nothing left', async () => {
    const db = t.ctx.database;
    const hook = await createHook('/deleted-while-settling');
    await db.executeSql(`create or replace function delivery_settle_pause() returns trigger language plpgsql as $$ begin perform pg_sleep(0.6); return new; end $$`);
    await db.executeSql(
      `create trigger delivery_settle_pause after update on webhook_deliveries for each row when (new.status = 'succeeded') execute function delivery_settle_pause()`,
    );
    try {
      await sendTest(hook.id);
      await requestsTo('/deleted-while-settling', 1);
      await new Promise((r) => setTimeout(r, 150)); // the worker is now inside its recording transaction
      const deleted = await admin.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}` });
      expect(deleted.statusCode, deleted.body).toBe(204);
    } finally {
      await db.executeSql('drop trigger if exists delivery_settle_pause on webhook_deliveries');
      await db.executeSql('drop function if exists delivery_settle_pause()');
    }
    expect((await admin.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}` })).statusCode).toBe(404);
    expect(await db.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id))).toHaveLength(0);
  });
});
