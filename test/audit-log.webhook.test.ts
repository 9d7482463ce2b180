import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually, type Received, WebhookReceiver } from './helpers/webhook-receiver';

// Seconds, not hours: a failing receiver goes through every attempt within the test.
const SCHEDULE = [200, 200];

const hex = (secret: string, body: Buffer) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
const headersOf = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
const parsed = (r: Received) => JSON.parse(r.body.toString('utf8'));

describe('audit.entry webhook event: the audit log as it is written, to a real receiver', () => {
  let t: TestApp;
  let admin: TestSession;
  let receiver: WebhookReceiver;

  const onPath = (path: string) => receiver.received.filter((r) => r.path === path);
  const auditCount = async () =>
    Number((await t.db.database.executeSql('select count(*) as n from audit_log where workspace_id = $1', [admin.workspaceId])).rows[0]!.n);
  async function createHook(path: string, events: string[]) {
    const res = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}${path}`, events } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; secret: string; standard_webhooks_secret: string };
  }

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_RETRY_DELAYS: SCHEDULE, WEBHOOK_POLL_INTERVAL: 200 },
    });
    admin = await t.signUp();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('delivers each new entry, signed, with the fields the audit log API shows, to subscribers only', async () => {
    const hook = await createHook('/siem', ['audit.entry']);
    const other = await createHook('/crm', ['member.invited', 'demo.created']);
    const key = await admin.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'SIEM probe', scopes: ['demos:read'] } });
    expect(key.statusCode).toBe(201);
    const keyId = key.json().data.id as string;

    const isKeyEntry = (r: Received) => r.path === '/siem' && parsed(r).data.target.id === keyId;
    const [delivery] = (await receiver.waitFor((rs) => rs.some(isKeyEntry), 20_000, 'the key.created entry')).filter(isKeyEntry);
    const body = parsed(delivery!);
    const listed = (await admin.inject({ method: 'GET', url: `/v1/audit-log?target=${keyId}` })).json().data;
    expect(listed).toHaveLength(1);
    expect(body).toEqual({ id: expect.stringMatching(/^evt_/), event: 'audit.entry', timestamp: listed[0].created_at, data: listed[0] });
    expect(body.data).toMatchObject({ action: 'key.created', actor: { type: 'user', id: admin.userId, label: admin.email } });

    // Signed as every other event: the contract's hex HMAC and Standard Webhooks.
    const headers = headersOf(delivery!);
    expect(headers['x-service-signature']).toBe(hex(hook.secret, delivery!.body));
    expect(new Webhook(hook.standard_webhooks_secret).verify(delivery!.body.toString('utf8'), headers)).toMatchObject({ event: 'audit.entry' });
    expect(headers['webhook-id']).toBe(body.id);

    // The webhook's own creation is an entry too, and reached it; the other webhook had none of them.
    const created = onPath('/siem').map(parsed).find((b) => b.data.action === 'webhook.created' && b.data.target.id === hook.id);
    expect(created).toBeDefined();
    expect(onPath('/crm').map(parsed).filter((b) => b.event === 'audit.entry')).toEqual([]);
    const kinds = await t.db.database.executeSql('select count(*) as n from webhook_deliveries where webhook_id = $1', [other.id]);
    expect(Number(kinds.rows[0]!.n)).toBe(0);
  });

  it('lets only admins subscribe to it, as every webhook', async () => {
    const editor = await t.member(admin, 'editor');
    const res = await editor.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/editor`, events: ['audit.entry'] } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });

  it('does not feed itself: failing audit.entry deliveries, retried and disabling their webhook, write no entry', async () => {
    receiver.respond((r) => (r.path === '/failing' ? { status: 500, body: 'down' } : r.path === '/gone' ? { status: 410 } : { status: 200 }));
    const failing = await createHook('/failing', ['audit.entry']);
    const gone = await createHook('/gone', ['audit.entry']);
    const before = await auditCount();
    const res = await admin.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'one more', scopes: ['demos:read'] } });
    expect(res.statusCode).toBe(201);
    const keyId = res.json().data.id as string;
    const aboutKey = (path: string) => onPath(path).filter((r) => parsed(r).data.target.id === keyId);

    // Every attempt of the failing hook (1 + 2 retries), and the 410 that disables the other. /gone answers
    // 410 to the first entry it is sent, its own webhook.created, so the key's entry may reach it or (the hook
    // being disabled by then) be cancelled: which one is a race between the worker and this test.
    await eventually(async () => aboutKey('/failing').length === 3 && onPath('/gone').length >= 1, 20_000, 'every attempt');
    await eventually(
      async () => {
        const hook = (await admin.inject({ method: 'GET', url: `/v1/webhooks/${gone.id}` })).json().data;
        return hook.active === false;
      },
      10_000,
      'the 410 webhook disabled',
    );
    await eventually(
      async () => (await admin.inject({ method: 'GET', url: `/v1/webhooks/${failing.id}/deliveries?status=failed` })).json().data.length > 0,
      10_000,
      'the failing delivery given up',
    );
    // Whatever the failures set off has been written and fanned out: the outbox is empty.
    const undispatched = async () => Number((await t.db.database.executeSql('select count(*) as n from events where dispatched_at is null')).rows[0]!.n);
    await eventually(async () => (await undispatched()) === 0, 10_000, 'an empty outbox');
    expect(await auditCount()).toBe(before + 1);
    expect(aboutKey('/failing')).toHaveLength(3);
    expect(onPath('/siem').filter((r) => parsed(r).data.target.id === keyId)).toHaveLength(1);
  });
});
