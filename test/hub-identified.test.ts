// A hub's identification and lead form reach the workspace's systems: viewer.identified to a real webhook receiver, the contact to a local HubSpot.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/core/crypto';
import { saveHubIdentity } from '../src/hubs/hub-identification';
import { hubClient } from './helpers/hubs';
import { HubSpotServer } from './helpers/hubspot-server';
import { demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession, uniqueEmail } from './helpers/test-app';
import { eventually, type Received, WebhookReceiver } from './helpers/webhook-receiver';

const GOOD = 'pat-na1-good-token-1234';
const APP_URL = 'https://demos.example.test';

const hex = (secret: string, body: Buffer) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
const parsed = (r: Received) => JSON.parse(r.body.toString('utf8'));

describe('viewer.identified from a demo hub', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let hubspot: HubSpotServer;
  let admin: TestSession;
  let key: string;
  let secret: string;
  let demoId: string;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    hubspot = await new HubSpotServer().start();
    t = await createTestApp({
      jobs: true,
      config: {
        APP_URL,
        HUBSPOT_API_URL: hubspot.url,
        ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
        WEBHOOK_RETRY_DELAYS: [300, 300],
        WEBHOOK_POLL_INTERVAL: 100,
      },
    });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    expect((await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD } })).statusCode).toBe(200);
    const hook = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/hook`, events: ['viewer.identified'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    secret = hook.json().data.secret;
    demoId = await demoWithSteps(t, key, 2);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await hubspot?.close();
  });

  async function hubWith(body: object) {
    const created = await t.app.inject({ method: 'POST', url: '/v1/hubs', headers: bearer(key), payload: { name: 'Partner demos', ...body } });
    expect(created.statusCode, created.body).toBe(201);
    const hub = created.json().data as { id: string; url: string };
    const collection = await t.app.inject({ method: 'POST', url: `/v1/hubs/${hub.id}/collections`, headers: bearer(key), payload: { name: 'All' } });
    await t.app.inject({ method: 'POST', url: `/v1/hubs/${hub.id}/entries`, headers: bearer(key), payload: { demo_id: demoId, collection_id: collection.json().data.id } });
    return { hub, token: hub.url.split('/h/')[1]! };
  }
  const forHub = (hubId: string) => (r: Received) => r.path === '/hook' && parsed(r).data.hub_id === hubId;
  const eventsOf = async (hubId: string) =>
    (await t.db.database.executeSql("select data from events where kind = 'viewer.identified' and data->>'hub_id' = $1", [hubId])).rows.map(
      (r) => r.data as Record<string, unknown>,
    );

  it('sends the lead form to a webhook, signed, once per session and address, and upserts the contact in HubSpot with the answers', async () => {
    const { hub, token } = await hubWith({ lead_fields: ['company', 'job_title', 'phone'] });
    const email = uniqueEmail('Grace.Hopper');
    const v = hubClient(t, token);
    expect((await v.call('GET', '')).json().data.gate).toBe('identification');
    // The same form sent twice at once (a double click): one identification.
    const form = { name: 'Grace Brewster Hopper', email, company: 'Remington Rand', job_title: 'Rear admiral', phone: '+1 555 0100' };
    const [a, b] = await Promise.all([v.call('POST', '/access', form), v.call('POST', '/access', form)]);
    expect([a.statusCode, b.statusCode], a.body).toEqual([200, 200]);
    // Sent again once past the gate: the hub asks nothing, and nothing fires again.
    expect((await v.call('POST', '/access', form)).json().data.gate).toBe('ready');
    // A submit that reaches the session with the address it has (the loser of a race past the gate check) writes, but emits nothing.
    const sessionId = sha256Hex([...v.jar.values()][0]!);
    const same = { email: email.toLowerCase(), name: form.name, values: { company: 'Remington Rand', job_title: 'Rear admiral', phone: '+1 555 0100' } };
    const hubRow = { id: hub.id, name: 'Partner demos', workspaceId: admin.workspaceId };
    expect((await saveHubIdentity(t.ctx, hubRow, sessionId, same)).viewerEmail).toBe(email.toLowerCase());

    const [delivery] = (await receiver.waitFor((rs) => rs.some(forHub(hub.id)), 20_000, 'the hub’s viewer.identified')).filter(forHub(hub.id));
    expect(delivery!.headers['x-service-signature']).toBe(hex(secret, delivery!.body));
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,/);
    const body = parsed(delivery!);
    expect(body).toMatchObject({ event: 'viewer.identified', id: delivery!.headers['webhook-id'] });
    expect(body.data).toEqual({
      share_id: null,
      demo_id: null,
      viewer_email: email.toLowerCase(),
      viewer_name: 'Grace Brewster Hopper',
      identified_at: expect.any(String),
      hub_id: hub.id,
      hub_name: 'Partner demos',
      values: { company: 'Remington Rand', job_title: 'Rear admiral', phone: '+1 555 0100' },
    });
    expect(await eventsOf(hub.id)).toHaveLength(1);

    // HubSpot: the contact with the answers as its own properties, and a note naming the hub.
    await hubspot.waitFor(() => hubspot.notesOf(email).length > 0, 30_000, 'the hub note');
    expect(hubspot.contactByEmail(email)!.properties).toMatchObject({
      email: email.toLowerCase(),
      firstname: 'Grace',
      lastname: 'Brewster Hopper',
      company: 'Remington Rand',
      jobtitle: 'Rear admiral',
      phone: '+1 555 0100',
    });
    const note = hubspot.notesOf(email)[0]!.properties.hs_note_body!;
    expect(note).toContain('Identified on the demo hub</strong> “Partner demos”');
    expect(note).toContain('<li>job_title: Rear admiral</li>');
    expect(note).toContain(`${APP_URL}/hubs/${hub.id}`);
    const logUrl = `/v1/crm/hubspot/log?email=${encodeURIComponent(email.toLowerCase())}`;
    const log = await eventually(
      async () => {
        const items = (await admin.inject({ method: 'GET', url: logUrl })).json().data as Array<{ status: string }>;
        return items.every((i) => i.status === 'succeeded') ? items : undefined;
      },
      20_000,
      'the item settled',
    );
    expect(log).toEqual([expect.objectContaining({ event: 'viewer.identified', status: 'succeeded', contact_action: 'created', note: true })]);

    // A second browser session of the same person is a new identification.
    const again = hubClient(t, token, { ip: '203.0.113.21' });
    expect((await again.call('POST', '/access', { ...form, company: 'Sperry' })).statusCode).toBe(200);
    await eventually(async () => (await eventsOf(hub.id)).length === 2, 10_000, 'the second session’s event');
    await receiver.waitFor((rs) => rs.filter(forHub(hub.id)).length === 2, 20_000, 'the second delivery');
    await hubspot.waitFor(() => hubspot.contactByEmail(email)?.properties.company === 'Sperry', 30_000, 'the updated company');
    expect(receiver.received.filter(forHub(hub.id))).toHaveLength(2);

    // Erasing the viewer blanks the answers in the outbox too.
    const erased = await admin.inject({ method: 'POST', url: '/v1/viewer-erasures', payload: { email } });
    expect(erased.statusCode, erased.body).toBe(200);
    const left = await eventsOf(hub.id);
    expect(left.every((d) => d.viewer_email === null && JSON.stringify(d.values) === '{}')).toBe(true);
  });

  it('identifies on a hub without lead fields: empty values, and HubSpot’s other properties are left as they are', async () => {
    const { hub, token } = await hubWith({ require_identification: true });
    const email = uniqueEmail('ada');
    hubspot.contacts.set('77', { id: '77', properties: { email: email.toLowerCase(), company: 'Analytical Engines' } });
    const passed = await hubClient(t, token).call('POST', '/access', { name: 'Ada', email });
    expect(passed.json().data.gate).toBe('ready');
    const [delivery] = (await receiver.waitFor((rs) => rs.some(forHub(hub.id)), 20_000, 'viewer.identified')).filter(forHub(hub.id));
    expect(parsed(delivery!).data).toMatchObject({ hub_id: hub.id, viewer_name: 'Ada', values: {} });
    await hubspot.waitFor(() => hubspot.notesOf(email).length > 0, 30_000, 'the note');
    expect(hubspot.contactByEmail(email)!.properties).toMatchObject({ firstname: 'Ada', company: 'Analytical Engines' });
  });
});
