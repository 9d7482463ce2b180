// HubSpot sync against a local HubSpot (test/helpers/hubspot-server.ts): connection, contacts, notes, retries, pause, re-sync.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanUpCrmLog } from '../src/crm/crm.jobs';
import { emitEvent, type NewEvent } from '../src/events/outbox';
import { HubSpotServer, rateLimited, requestTimeout, serverError, unauthorized, unavailable } from './helpers/hubspot-server';
import { hubClient } from './helpers/hubs';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import { createTestApp, type TestApp, type TestSession, uniqueEmail } from './helpers/test-app';
import { eventually } from './helpers/webhook-receiver';

const GOOD = 'pat-na1-good-token-1234';
// Milliseconds instead of minutes: two retries, then an item fails.
const SCHEDULE = [300, 300];

describe('HubSpot sync against a local HubSpot', () => {
  let t: TestApp;
  let hubspot: HubSpotServer;

  beforeAll(async () => {
    hubspot = await new HubSpotServer().start();
    t = await createTestApp({
      jobs: true,
      config: { HUBSPOT_API_URL: hubspot.url, WEBHOOK_RETRY_DELAYS: SCHEDULE, WEBHOOK_POLL_INTERVAL: 100, WEBHOOK_TIMEOUT: 30_000 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await hubspot?.close();
  });
  beforeEach(() => hubspot.reset());

  async function connected(): Promise<TestSession> {
    const admin = await t.signUp();
    const res = await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD } });
    expect(res.statusCode, res.body).toBe(200);
    return admin;
  }
  const emit = (admin: TestSession, events: Omit<NewEvent, 'workspaceId'>[]) =>
    t.ctx.database.db.transaction(async (tx) => {
      for (const e of events) await emitEvent(tx, t.ctx.clock, { workspaceId: admin.workspaceId, ...e });
    });
  const viewed = (email: string | null, demoId = 'demo_none') => ({
    kind: 'demo.viewed' as const,
    data: { demo_id: demoId, view_id: 'view_x', share_id: 'shr_x', viewer_email: email, viewer_name: null, started_at: new Date().toISOString() },
  });
  const log = async (admin: TestSession, query = '') => {
    const res = await admin.inject({ method: 'GET', url: `/v1/crm/hubspot/log?per_page=100${query}` });
    expect(res.statusCode).toBe(200);
    return res.json().data as Array<Record<string, unknown>>;
  };
  const settled = (admin: TestSession, n: number, what = `${n} items settled`) =>
    eventually(
      async () => {
        const { pending, syncing, succeeded, failed } = (await status(admin)).counts;
        return pending + syncing === 0 && succeeded + failed >= n ? log(admin) : undefined;
      },
      60_000,
      what,
    );
  const status = async (admin: TestSession) => (await admin.inject({ method: 'GET', url: '/v1/crm/hubspot' })).json().data;

  it('checks the token with HubSpot before saving it, and never returns it', async () => {
    const admin = await t.signUp();
    expect((await status(admin)).status).toBe('not_connected');

    const refused = await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: 'pat-na1-revoked' } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.message).toContain('Authentication credentials not found');
    expect(refused.json().error.details).toEqual([expect.objectContaining({ field: 'token' })]);
    expect(hubspot.requests.at(-1)).toMatchObject({ method: 'GET', path: '/crm/v3/objects/contacts?limit=1', authorization: 'Bearer pat-na1-revoked' });
    expect((await status(admin)).status).toBe('not_connected');

    const extra = await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD, portal: 1 } });
    expect(extra.statusCode).toBe(400);
    // A character no HTTP header can carry (the fuzzer's U+202E) is the caller's mistake, told before HubSpot is asked.
    const asked = hubspot.requests.length;
    const unsendable = await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: 'pat-na1\u202egood' } });
    expect(unsendable.statusCode, unsendable.body).toBe(400);
    expect(unsendable.json().error.details).toEqual([expect.objectContaining({ field: 'token' })]);
    expect(hubspot.requests.length).toBe(asked);

    hubspot.script(serverError());
    const down = await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD } });
    expect(down.statusCode).toBe(503);
    expect((await status(admin)).status).toBe('not_connected');

    const saved = await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ connected: true, status: 'active', token_last4: '1234', api_url: hubspot.url });
    expect(saved.body).not.toContain(GOOD);
    expect((await admin.inject({ method: 'GET', url: '/v1/crm/hubspot' })).body).not.toContain(GOOD);

    const audit = await admin.inject({ method: 'GET', url: '/v1/audit-log?action=workspace.changed' });
    expect(audit.body).toContain('crm.hubspot_key_last4');
    expect(audit.body).not.toContain(GOOD);

    expect((await admin.inject({ method: 'DELETE', url: '/v1/crm/hubspot' })).statusCode).toBe(204);
    expect((await status(admin)).status).toBe('not_connected');
    expect((await admin.inject({ method: 'POST', url: '/v1/crm/hubspot/resync', payload: {} })).statusCode).toBe(409);
  });

  it('turns a real identified view into a contact with notes for the view and the completion', async () => {
    const admin = await connected();
    const key = await t.apiKey('all', admin);
    const demoId = await demoWithSteps(t, key, 2);
    const share = await createShare(t, key, demoId, { require_identification: true });
    const email = uniqueEmail('Ada.Viewer');
    await playView(t, share.token, { email, name: 'Ada Lovelace', reached: 2, complete: true });

    const items = await settled(admin, 3);
    expect(items.map((i) => i.event).sort()).toEqual(['demo.completed', 'demo.viewed', 'viewer.identified']);
    const contact = hubspot.contactByEmail(email)!;
    expect(contact.properties).toMatchObject({ email: email.toLowerCase(), firstname: 'Ada', lastname: 'Lovelace' });
    expect(items.every((i) => i.contact_id === contact.id && i.status === 'succeeded')).toBe(true);
    expect(items.filter((i) => i.contact_action === 'created')).toHaveLength(1);

    const notes = hubspot.notesOf(email);
    expect(notes).toHaveLength(2);
    const bodies = notes.map((n) => n.properties.hs_note_body).join('\n');
    expect(bodies).toContain('Viewed the demo');
    expect(bodies).toContain('Finished the demo');
    expect(bodies).toContain('Secret roadmap tour');
    expect(items.find((i) => i.event === 'viewer.identified')).toMatchObject({ note: false, note_id: null });
    for (const r of hubspot.requests.filter((r) => r.path !== '/crm/v3/objects/contacts?limit=1')) expect(r.authorization).toBe(`Bearer ${GOOD}`);
  });

  it('adds a lead to the timeline with its answers, and skips anonymous views and events from before the connection', async () => {
    const before = await t.signUp();
    await emit(before, [viewed('early@example.com')]);
    const res = await before.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD } });
    expect(res.statusCode).toBe(200);
    const email = uniqueEmail('lead');
    await emit(before, [
      viewed(null),
      {
        kind: 'lead.captured',
        data: {
          lead_id: 'lead_x',
          demo_id: 'demo_none',
          share_id: 'shr_x',
          view_id: null,
          step_number: 2,
          email,
          name: 'Grace Hopper',
          values: { email, company: 'Navy <b>', Phone_Number: '+1 555 0101', job_title: ' ', favourite: 'COBOL', consent: true },
          created_at: new Date().toISOString(),
        },
      },
    ]);
    const items = await settled(before, 1);
    expect(items).toHaveLength(1);
    expect(hubspot.contactByEmail('early@example.com')).toBeUndefined();
    const [note] = hubspot.notesOf(email);
    expect(note!.properties.hs_note_body).toContain('Sent a form');
    expect(note!.properties.hs_note_body).toContain('company: Navy &#60;b&#62;');
    expect(note!.properties.hs_note_body).toContain('consent: yes');
    // Fields named as HubSpot's own properties fill them (an empty answer blanks nothing); the others stay in the note.
    const contact = hubspot.contactByEmail(email)!.properties;
    expect(contact).toMatchObject({ firstname: 'Grace', lastname: 'Hopper', company: 'Navy <b>', phone: '+1 555 0101' });
    expect(contact).not.toHaveProperty('jobtitle');
    expect(contact).not.toHaveProperty('favourite');
    expect(note!.properties.hs_note_body).toContain('favourite: COBOL');

    // Erasing the viewer empties their rows of the sync log too (HubSpot keeps what it was sent).
    const erased = await before.inject({ method: 'POST', url: '/v1/viewer-erasures', payload: { email } });
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data.crm_sync_items).toBe(1);
    expect(await log(before)).toHaveLength(0);
  });

  it('waits as long as a 429 says without spending an attempt, and retries a 500', async () => {
    const admin = await connected();
    const email = uniqueEmail('busy');
    hubspot.script(rateLimited(1), '/crm/v3/objects/contacts/batch/upsert');
    hubspot.script(serverError(), '/crm/v3/objects/notes/batch/create');
    await emit(admin, [viewed(email)]);
    const [item] = await settled(admin, 1);
    expect(item).toMatchObject({ status: 'succeeded', attempts: 1, last_error: null });
    const upserts = hubspot.requests.filter((r) => r.path === '/crm/v3/objects/contacts/batch/upsert');
    expect(upserts.map((r) => r.status)).toEqual([429, 200, 200]);
    // HubSpot asked for a second: the retry came no sooner (the server's clock, not a timing assertion on ours).
    expect(hubspot.notesOf(email)).toHaveLength(1);
    // The 500 on the notes may have created one: the retry looked before creating.
    expect(hubspot.requests.some((r) => r.path === '/crm/v3/objects/notes/search')).toBe(true);
  });

  it('retries a 408 rather than failing the input, and waits out a 503\'s Retry-After rather than the schedule', async () => {
    const admin = await connected();
    const email = uniqueEmail('edge');
    hubspot.script(requestTimeout(), '/crm/v3/objects/contacts/batch/upsert');
    hubspot.script(unavailable(2), '/crm/v3/objects/contacts/batch/upsert');
    await emit(admin, [viewed(email)]);
    const [item] = await settled(admin, 1);
    // Two failed attempts of a schedule of two retries: one more failure and it would have been given up.
    expect(item).toMatchObject({ status: 'succeeded', attempts: 2, last_error: null });
    const upserts = hubspot.requests.filter((r) => r.path === '/crm/v3/objects/contacts/batch/upsert');
    expect(upserts.map((r) => r.status)).toEqual([408, 503, 200]);
    // The schedule says 300 ms; HubSpot said 2 s (the server's clock, not a timing assertion on ours).
    expect(upserts[2]!.at - upserts[1]!.at).toBeGreaterThanOrEqual(1_900);
    expect(hubspot.notesOf(email)).toHaveLength(1);
  });

  it('never creates a second note for one event when HubSpot made it but the answer was lost', async () => {
    const admin = await connected();
    const emails = [uniqueEmail('lost1'), uniqueEmail('lost2')];
    hubspot.script({ status: 201, dropAnswer: true }, '/crm/v3/objects/notes/batch/create');
    await emit(admin, emails.map((e) => viewed(e)));
    const items = await settled(admin, 2);
    expect(items.every((i) => i.status === 'succeeded' && i.note_id)).toBe(true);
    for (const e of emails) expect(hubspot.notesOf(e)).toHaveLength(1);
    expect(hubspot.requests.filter((r) => r.path === '/crm/v3/objects/notes/batch/create')).toHaveLength(1);
    expect(new Set(items.map((i) => i.note_id)).size).toBe(2);
  });

  it('pauses on a revoked token, shows it, loses nothing, and resumes with a new token', async () => {
    const admin = await connected();
    const email = uniqueEmail('paused');
    hubspot.script(unauthorized(), '/crm/v3/objects/contacts/batch/upsert');
    await emit(admin, [viewed(email)]);
    const paused = await eventually(async () => {
      const s = await status(admin);
      return s.status === 'paused' ? s : undefined;
    }, 60_000);
    expect(paused.paused_reason).toContain('Authentication credentials not found');
    const [waiting] = await log(admin);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0, last_status_code: 401 });
    const sent = hubspot.requests.length;

    const res = await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD } });
    expect(res.json().data.status).toBe('active');
    // Nothing went to HubSpot while paused but the token check just now.
    expect(hubspot.requests.slice(sent).map((r) => r.path)[0]).toBe('/crm/v3/objects/contacts?limit=1');
    await settled(admin, 1);
    expect(hubspot.notesOf(email)).toHaveLength(1);
  });

  it('batches 150 events in requests of at most 100, one input per e-mail, each contact once', async () => {
    const admin = await connected();
    const emails = Array.from({ length: 75 }, (_, i) => uniqueEmail(`bulk${i}`));
    await emit(admin, [...emails.map((e) => viewed(e)), ...emails.map((e) => viewed(e.toUpperCase()))]);
    await settled(admin, 150);
    expect((await status(admin)).counts).toEqual({ pending: 0, syncing: 0, succeeded: 150, failed: 0 });
    const upserts = hubspot.requests.filter((r) => r.path === '/crm/v3/objects/contacts/batch/upsert');
    for (const r of upserts) {
      const inputs = (r.body as { inputs: Array<{ id: string }> }).inputs;
      expect(inputs.length).toBeLessThanOrEqual(100);
      expect(new Set(inputs.map((i) => i.id)).size).toBe(inputs.length);
    }
    expect(upserts.length).toBeLessThanOrEqual(3);
    expect(hubspot.contacts.size).toBe(75);
    expect(hubspot.notes).toHaveLength(150);
  });

  it('fails only the input HubSpot refuses (400), gives up after the schedule, and re-syncs without a second note', async () => {
    const admin = await connected();
    const good = uniqueEmail('fine');
    await emit(admin, [viewed(good), viewed('not-an-address@nowhere')]);
    let items = await settled(admin, 2);
    const bad = items.find((i) => i.email === 'not-an-address@nowhere')!;
    expect(bad).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 400 });
    expect(bad.last_error).toContain('not a valid email');
    expect(items.find((i) => i.email === good.toLowerCase())).toMatchObject({ status: 'succeeded' });

    const down = uniqueEmail('down');
    for (let i = 0; i < 3; i++) hubspot.script(serverError(), '/crm/v3/objects/contacts/batch/upsert');
    await emit(admin, [viewed(down)]);
    items = await settled(admin, 3);
    expect(items.find((i) => i.email === down.toLowerCase())).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 500 });
    expect((await status(admin)).counts).toMatchObject({ failed: 2, succeeded: 1 });

    const resync = await admin.inject({ method: 'POST', url: '/v1/crm/hubspot/resync', payload: { email: down } });
    expect(resync.json().data).toEqual({ queued: 1 });
    await settled(admin, 3);
    expect(hubspot.notesOf(down)).toHaveLength(1);

    const all = await admin.inject({ method: 'POST', url: '/v1/crm/hubspot/resync', payload: { since: '2020-01-01' } });
    expect(all.json().data).toEqual({ queued: 3 });
    items = await settled(admin, 3);
    expect(hubspot.notesOf(good)).toHaveLength(1);
    expect(hubspot.notesOf(down)).toHaveLength(1);
    expect(await log(admin, `&email=${encodeURIComponent(good)}`)).toHaveLength(1);
    expect((await admin.inject({ method: 'POST', url: '/v1/crm/hubspot/resync', payload: { since: 'yesterday' } })).statusCode).toBe(400);
  });

  it('forgets finished items after WEBHOOK_LOG_RETENTION, never one still waiting to be sent', async () => {
    const done = await connected();
    await emit(done, [viewed(uniqueEmail('old')), viewed(uniqueEmail('old'))]);
    await settled(done, 2);
    const waiting = await connected();
    hubspot.script(unauthorized(), '/crm/v3/objects/contacts/batch/upsert');
    await emit(waiting, [viewed(uniqueEmail('held'))]);
    await eventually(async () => ((await status(waiting)).status === 'paused' ? true : undefined), 60_000);
    const at = (days: number) => ({ ...t.ctx, clock: { now: () => new Date(Date.now() + days * 86_400_000) } });
    // WEBHOOK_LOG_RETENTION is 30 days by default.
    expect(await cleanUpCrmLog(at(29))).toBe(0);
    expect(await log(done)).toHaveLength(2);
    expect(await cleanUpCrmLog(at(31))).toBeGreaterThanOrEqual(2);
    expect(await log(done)).toHaveLength(0);
    expect((await log(waiting)).map((item) => item.status)).toEqual(['pending']);
  });

  it('sends the activity from before the connection on request: one contact and one note per address, never twice', async () => {
    const admin = await t.signUp();
    const key = await t.apiKey('all', admin);
    const backfill = (payload?: object) => admin.inject({ method: 'POST', url: '/v1/crm/hubspot/backfill', ...(payload ? { payload } : {}) });
    expect((await backfill({})).statusCode).toBe(409);

    // Before the connection: two views of one demo by Ada (the second to the end), one of another demo by
    // Lin, an anonymous one, a member's own, and a hub's lead form.
    const tour = await demoWithSteps(t, key, 2);
    const other = await demoWithSteps(t, key, 1);
    const tourLink = await createShare(t, key, tour, { require_identification: true });
    const otherLink = await createShare(t, key, other, { require_identification: true });
    const ada = uniqueEmail('Ada');
    const lin = uniqueEmail('Lin');
    await playView(t, tourLink.token, { email: ada, name: 'Ada Lovelace', reached: 1 });
    await playView(t, tourLink.token, { email: ada, name: 'Ada King', reached: 2, complete: true, ip: '203.0.113.44' });
    await playView(t, otherLink.token, { email: lin, reached: 1 });
    await playView(t, (await createShare(t, key, tour)).token, { reached: 1 });
    await playView(t, tourLink.token, { email: admin.email, reached: 1, member: { cookie: admin.cookie } });
    const hub = (await admin.inject({ method: 'POST', url: '/v1/hubs', payload: { name: 'Partner demos', lead_fields: ['company', 'job_title'] } })).json().data;
    const grace = uniqueEmail('Grace');
    const access = await hubClient(t, hub.url.split('/h/')[1]).call('POST', '/access', { name: 'Grace Hopper', email: grace, company: 'Remington Rand', job_title: 'Admiral' });
    expect(access.statusCode, access.body).toBe(200);

    expect((await admin.inject({ method: 'PUT', url: '/v1/crm/hubspot', payload: { token: GOOD } })).statusCode).toBe(200);
    // Bad input changes nothing.
    for (const bad of [{ since: 'yesterday' }, { since: '2026-11-01', extra: 1 }, { email: ada }]) {
      const refused = await backfill(bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await status(admin)).counts.pending).toBe(0);
    // Nothing since a date after it all.
    expect((await backfill({ since: '2099-01-01' })).json().data).toEqual({ contacts: 0, queued: 0 });

    const sent = await backfill();
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toEqual({ contacts: 3, queued: 3 });
    const items = await settled(admin, 3);
    expect(items.map((i) => i.event)).toEqual(['history', 'history', 'history']);
    expect(items.map((i) => i.email).sort()).toEqual([ada, grace, lin].map((e) => e.toLowerCase()).sort());
    expect(items.every((i) => i.status === 'succeeded' && i.contact_action === 'created' && i.note_id)).toBe(true);
    expect(hubspot.contactByEmail(admin.email)).toBeUndefined();

    // The newest name given, and the hub's answers as contact properties.
    expect(hubspot.contactByEmail(ada)!.properties).toMatchObject({ firstname: 'Ada', lastname: 'King' });
    expect(hubspot.contactByEmail(grace)!.properties).toMatchObject({ firstname: 'Grace', lastname: 'Hopper', company: 'Remington Rand', jobtitle: 'Admiral' });
    const [adaNote] = hubspot.notesOf(ada);
    expect(hubspot.notesOf(ada)).toHaveLength(1);
    expect(adaNote!.properties.hs_note_body).toContain('Demoshare activity before HubSpot was connected');
    expect(adaNote!.properties.hs_note_body).toMatch(/Viewed the demo <a href="[^"]+\/demos\/demo_\w+\/analytics">“Secret roadmap tour”<\/a> 2 times, to the end/);
    expect(hubspot.notesOf(lin)[0]!.properties.hs_note_body).toContain('once (last on');
    expect(hubspot.notesOf(grace)[0]!.properties.hs_note_body).toContain('Identified on the demo hub “Partner demos”');
    expect(hubspot.notesOf(grace)[0]!.properties.hs_note_body).toContain('company: Remington Rand');

    // Again: every address was sent, nothing is queued and no note is made twice.
    expect((await backfill({})).json().data).toEqual({ contacts: 3, queued: 0 });
    expect((await status(admin)).counts).toMatchObject({ pending: 0, syncing: 0, succeeded: 3 });
    expect(hubspot.notesOf(ada)).toHaveLength(1);
  });

  it('keeps each workspace to its own connection and log', async () => {
    const a = await connected();
    const b = await t.signUp();
    await emit(a, [viewed(uniqueEmail('mine'))]);
    await settled(a, 1);
    expect(await log(b)).toHaveLength(0);
    expect((await status(b)).status).toBe('not_connected');
    const member = await t.member(a, 'editor');
    expect((await member.inject({ method: 'GET', url: '/v1/crm/hubspot' })).statusCode).toBe(403);
  });
});
