import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  type DemoshareClient,
  parseWebhookEvent,
  standardWebhooksSecret,
  verifyServiceSignature,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../packages/sdk/src/index';
import { type TestServer, startTestServer } from '../helpers/server';
import { type Received, WebhookReceiver } from '../helpers/webhook-receiver';

const headersOf = (r: Received) => r.headers as Record<string, string | string[] | undefined>;

describe('SDK webhook helpers, on real deliveries', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let client: DemoshareClient;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    server = await startTestServer({
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_POLL_INTERVAL: 200 },
    });
    client = createClient({ baseUrl: server.url, apiKey: await server.apiKey('all') });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const deliveredTo = async (path: string, n = 1) =>
    (await receiver.waitFor((rs) => rs.filter((r) => r.path === path).length >= n, 20_000, `deliveries to ${path}`)).filter(
      (r) => r.path === path,
    );

  async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }

  it('verifies a real delivery and parses it into a typed event; a tampered body, a wrong secret and an old timestamp fail', async () => {
    const hook = await client.webhooks.create({ url: `${receiver.url}/signed`, events: ['webhook.test'] });
    expect(hook.secret).toMatch(/^whsec_/);
    expect(standardWebhooksSecret(hook.secret)).toBe(hook.standard_webhooks_secret);
    const queued = await client.webhooks.test(hook.id);
    const [delivery] = await deliveredTo('/signed');
    const { body } = delivery!;
    const headers = headersOf(delivery!);

    const event: WebhookEvent = await verifyWebhook({ body, headers, secret: hook.secret });
    expect(event).toMatchObject({ id: queued.event_id, event: 'webhook.test', data: { webhook_id: hook.id } });
    if (event.event !== 'webhook.test') throw new Error('narrowing');
    expect(event.data.message).toContain('test event');
    // The same bytes as text, and through a Headers object, verify too.
    expect((await verifyWebhook({ body: body.toString('utf8'), headers: new Headers(headers as Record<string, string>), secret: hook.secret })).id).toBe(
      queued.event_id,
    );
    expect(await verifyServiceSignature(body, headers, hook.secret)).toBe(true);

    const tampered = Buffer.from(body.toString('utf8').replace('test event', 'tost event'));
    expect(tampered.length).toBe(body.length);
    expect((await rejection(verifyWebhook({ body: tampered, headers, secret: hook.secret }))).reason).toBe('invalid_signature');
    expect(await verifyServiceSignature(tampered, headers, hook.secret)).toBe(false);
    // Re-serialised JSON is not the raw body: it fails as well.
    const reserialised = JSON.stringify(JSON.parse(body.toString('utf8')), null, 1);
    expect((await rejection(verifyWebhook({ body: reserialised, headers, secret: hook.secret }))).reason).toBe('invalid_signature');
    expect((await rejection(verifyWebhook({ body, headers, secret: 'whsec_not-the-secret' }))).reason).toBe('invalid_signature');
    // Only the contract's signature tampered: the Standard Webhooks one alone is not enough.
    const badService = { ...headers, 'x-service-signature': '0'.repeat(64) };
    expect((await rejection(verifyWebhook({ body, headers: badService, secret: hook.secret }))).reason).toBe('invalid_signature');

    const sentAt = Number(headers['webhook-timestamp']) * 1000;
    const later = sentAt + 6 * 60_000;
    expect((await rejection(verifyWebhook({ body, headers, secret: hook.secret, now: later }))).reason).toBe('timestamp_out_of_tolerance');
    expect((await verifyWebhook({ body, headers, secret: hook.secret, now: later, toleranceSeconds: 600 })).id).toBe(queued.event_id);
    const { 'webhook-signature': _, ...unsigned } = headers;
    expect((await rejection(verifyWebhook({ body, headers: unsigned, secret: hook.secret }))).reason).toBe('missing_header');
  });

  it('accepts either secret during a rotation, and types the events of a demo', async () => {
    const hook = await client.webhooks.create({
      url: `${receiver.url}/demos`,
      events: ['demo.created', 'demo.updated', 'demo.deleted'],
      secret: 'first secret of this hook',
    });
    const rotated = await client.webhooks.rotateSecret(hook.id, { secret: 'second secret of this hook' });
    expect(rotated.secret).toBe('second secret of this hook');
    const demo = await client.demos.create({ title: 'Webhooks tour' });
    await client.demos.update(demo.id, { title: 'Webhooks tour, renamed' });
    await client.demos.delete(demo.id);
    const received = await deliveredTo('/demos', 3);

    const events: WebhookEvent[] = [];
    for (const r of received) {
      const headers = headersOf(r);
      expect(headers['x-service-signature-previous']).toBeDefined();
      // A receiver still on the old secret, one on the new, and one that holds both while it switches.
      for (const secret of ['first secret of this hook', 'second secret of this hook']) {
        expect((await verifyWebhook({ body: r.body, headers, secret })).id).toBe(headers['webhook-id']);
      }
      events.push(await verifyWebhook({ body: r.body, headers, secret: ['an old one', 'second secret of this hook'] }));
    }
    const byKind = Object.fromEntries(events.map((e) => [e.event, e]));
    const created = byKind['demo.created'];
    if (created?.event !== 'demo.created') throw new Error('no demo.created');
    expect(created.data).toMatchObject({ demo_id: demo.id, title: 'Webhooks tour', status: 'draft', generate_with_ai: false });
    const updated = byKind['demo.updated'];
    if (updated?.event !== 'demo.updated') throw new Error('no demo.updated');
    expect(updated.data.changes).toEqual(['title']);
    expect(byKind['demo.deleted']?.data).toEqual({ demo_id: demo.id, title: 'Webhooks tour, renamed' });

    // The delivery log through the SDK: every delivery of this hook, page by page.
    const log = await client.webhooks.deliveries(hook.id, { per_page: 1 }).toArray();
    expect(log).toHaveLength(3);
    const one = await client.webhooks.delivery(hook.id, log[0]!.id);
    expect(one.id).toBe(log[0]!.id);
    await client.webhooks.redeliver(hook.id, log[0]!.id);
    expect((await client.webhooks.update(hook.id, { active: false })).active).toBe(false);
    expect((await client.webhooks.list().toArray()).map((h) => h.id)).toContain(hook.id);
    await client.webhooks.delete(hook.id);
  });

  it('follows a generation to its end, and the demo.generated event says how it went', async () => {
    const hook = await client.webhooks.create({ url: `${receiver.url}/generated`, events: ['demo.generated'] });
    // No generator is wired in tests: every generation fails, which is still an end.
    const started = await client.demos.create({ source_url: 'https://example.com/pricing', generate_with_ai: true });
    expect(started.status).toBe('generating');
    const done = await client.demos.waitForGeneration(started.id, { intervalMs: 100, timeoutMs: 30_000 });
    expect(done.status).toBe('draft');
    expect(done.generation.error).toBeTruthy();
    const [delivery] = await deliveredTo('/generated');
    const event = await verifyWebhook({ body: delivery!.body, headers: headersOf(delivery!), secret: hook.secret });
    if (event.event !== 'demo.generated') throw new Error(`unexpected ${event.event}`);
    expect(event.data).toMatchObject({ demo_id: started.id, status: 'failed', step_count: 0, error: done.generation.error });
  });

  it('parses a verified body by kind, and refuses bodies that are not events', () => {
    const body = JSON.stringify({
      id: 'evt_01jd3k7q9x8v2m4n6p0r5s7t9w',
      event: 'demo.completed',
      timestamp: '2026-11-21T10:00:00.000Z',
      data: { demo_id: 'demo_x', view_id: 'view_x', share_id: 'shr_x', viewer_email: 'ada@example.com', completion_time: 84 },
    });
    const event = parseWebhookEvent(body);
    if (event.event !== 'demo.completed') throw new Error('narrowing');
    expect(event.data.completion_time).toBe(84);
    expect(() => parseWebhookEvent('{"id":"evt_1","event":"demo.teleported","timestamp":"t","data":{}}')).toThrow(
      expect.objectContaining({ reason: 'unknown_event' }),
    );
    expect(() => parseWebhookEvent('not json')).toThrow(expect.objectContaining({ reason: 'invalid_payload' }));
    expect(() => parseWebhookEvent('{"event":"demo.viewed"}')).toThrow(expect.objectContaining({ reason: 'invalid_payload' }));
  });
});
