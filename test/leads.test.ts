import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/mail/mailer';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { decodeBody, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { bearer, createTestApp, type TestApp, type TestSession, uniqueEmail } from './helpers/test-app';
import { WebhookReceiver } from './helpers/webhook-receiver';

const APP_URL = 'https://demos.example.test';

/** A lead form with every field type. */
const FORM = {
  fields: [
    { name: 'email', label: 'Work e-mail', type: 'email', required: true },
    { name: 'name', label: 'Your name', type: 'text' },
    { name: 'phone', label: 'Phone', type: 'phone' },
    { name: 'size', label: 'Company size', type: 'select', options: ['1-10', '11-50', '51+'], required: true },
    { name: 'consent', label: 'I agree to be contacted', type: 'checkbox', required: true },
    { name: 'utm_source', label: '', type: 'hidden', required: true },
  ],
  submit_label: 'Send',
};

describe('leads', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let receiver: WebhookReceiver;
  let admin: TestSession;
  let key: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    receiver = await new WebhookReceiver().start();
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>');
    t = await createTestApp({
      mailer,
      smtp,
      jobs: true,
      config: { APP_URL, ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_POLL_INTERVAL: 200 },
    });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await receiver?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, k = key) =>
    t.app.inject({ method, url, headers: bearer(k), ...(payload ? { payload } : {}) });

  /** A published demo of 3 steps whose step `formStep` is a lead form (`gate` as told). */
  async function demoWithForm(form: object = FORM, formStep = 2) {
    const demoId = await demoWithSteps(t, key, 3, false);
    const steps = (await api('GET', `/v1/demos/${demoId}`)).json().data.steps as { id: string; number: number }[];
    const step = steps.find((s) => s.number === formStep)!;
    const res = await api('PATCH', `/v1/demos/${demoId}/steps/${step.id}`, {
      kind: 'form',
      title: 'Tell us who you are',
      content: { buttons: [], form },
    });
    expect(res.statusCode, res.body).toBe(200);
    const published = await api('PATCH', `/v1/demos/${demoId}`, { status: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    return { demoId, stepId: step.id };
  }

  const good = (extra: object = {}) => ({
    email: 'Jane@Acme.test',
    name: 'Jane Doe',
    phone: '+44 20 7946 0958',
    size: '11-50',
    consent: true,
    utm_source: 'newsletter',
    ...extra,
  });

  async function openViewer(token: string, ip?: string) {
    const v = viewerClient(t, token, ip);
    const state = await v.call('GET', '');
    expect(state.statusCode, state.body).toBe(200);
    return { v, state: state.json().data };
  }

  it('validates each field type against the published form, 422 per field, nothing stored', async () => {
    const { demoId } = await demoWithForm();
    const link = await createShare(t, key, demoId);
    const { v } = await openViewer(link.token);
    const send = (values: object, step = 2) => v.call('POST', '/leads', { id: randomUUID(), step_number: step, values });

    const bad = await send({
      email: 'not-an-address',
      phone: 'call me maybe',
      size: '500+',
      consent: false,
      name: 'x'.repeat(501),
      unknown: 'x',
    });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().error.code).toBe('validation_error');
    const details = Object.fromEntries((bad.json().error.details as { field: string; message: string }[]).map((d) => [d.field, d.message]));
    expect(details).toEqual({
      'values.unknown': 'is not a field of this form',
      'values.email': 'must be an e-mail address',
      'values.name': 'must be at most 500 characters',
      'values.phone': 'must be a phone number',
      'values.size': 'must be one of: 1-10, 11-50, 51+',
      'values.consent': 'must be ticked',
    });
    // Required fields left out; a hidden field is never required (the viewer could not fill it in).
    const missing = await send({ utm_source: '' });
    expect(missing.statusCode).toBe(422);
    expect((missing.json().error.details as { field: string }[]).map((d) => d.field).sort()).toEqual([
      'values.consent',
      'values.email',
      'values.size',
    ]);
    // Wrong types, a step that is no form, a step the demo does not have.
    const types = await send({ email: true, consent: 'yes' });
    expect(types.statusCode).toBe(422);
    expect(types.json().error.details).toEqual(
      expect.arrayContaining([
        { field: 'values.email', message: 'must be text' },
        { field: 'values.consent', message: 'must be true or false' },
      ]),
    );
    const notForm = await send(good(), 1);
    expect(notForm.statusCode).toBe(422);
    expect(notForm.json().error.details).toEqual([{ field: 'step_number', message: 'must be a form step of the published demo' }]);
    expect((await send(good(), 9)).statusCode).toBe(422);
    // A malformed body is the 400 of every route.
    const malformed = await v.call('POST', '/leads', { id: 'nope', step_number: 2, values: {} });
    expect(malformed.statusCode).toBe(400);
    expect((await api('GET', `/v1/demos/${demoId}/leads`)).json().meta.total).toBe(0);
  });

  it('stores a lead once per id (a retry answers 200), identifies the viewer, and lists it', async () => {
    const { demoId, stepId } = await demoWithForm();
    const link = await createShare(t, key, demoId, { name: 'Sent to Acme' });
    const { v } = await openViewer(link.token);
    await v.call('POST', '/events', { events: [{ id: randomUUID(), type: 'view_started' }] });
    const id = randomUUID();
    const first = await v.call('POST', '/leads', { id, step_number: 2, values: good() });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ identified: true, gate: 'ready' });
    const leadId = first.json().data.id as string;
    expect(leadId).toMatch(/^lead_/);
    const again = await v.call('POST', '/leads', { id, step_number: 2, values: good({ name: 'Changed' }) });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(leadId);

    // The same id from another viewer with other values is no retry of this lead: a 409; a new id is a new lead.
    const other = await openViewer(link.token, '203.0.113.77');
    const reused = await other.v.call('POST', '/leads', { id, step_number: 2, values: good({ email: 'bob@initech.test', name: '' }) });
    expect(reused.statusCode, reused.body).toBe(409);
    const second = await other.v.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: good({ email: 'bob@initech.test', name: '' }) });
    expect(second.statusCode).toBe(201);

    // The first viewer is now named on their session (state) and their view.
    const state = (await v.call('GET', '')).json().data;
    expect(state.viewer).toEqual({ name: 'Jane Doe', email: 'jane@acme.test' });
    const views = (await api('GET', `/v1/demos/${demoId}/views`)).json().data as { viewer: { email: string | null; name: string | null } }[];
    expect(views.map((x) => x.viewer)).toContainEqual(expect.objectContaining({ email: 'jane@acme.test', name: 'Jane Doe' }));

    const list = await api('GET', `/v1/demos/${demoId}/leads`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total).toBe(2);
    const jane = (list.json().data as { id: string; view_id: string | null }[]).find((l) => l.id === leadId);
    expect(jane).toMatchObject({
      demo: { id: demoId, title: 'Secret roadmap tour' },
      share: { id: link.id, name: 'Sent to Acme' },
      step_number: 2,
      step_id: stepId,
      version: 1,
      email: 'jane@acme.test',
      name: 'Jane Doe',
      identified: true,
      values: { email: 'jane@acme.test', name: 'Jane Doe', phone: '+44 20 7946 0958', size: '11-50', consent: true, utm_source: 'newsletter' },
    });
    expect(jane?.view_id).toMatch(/^view_/);

    // Workspace list, filters, pagination; another workspace sees none of it.
    const all = await api('GET', `/v1/leads?demo_id=${demoId}&share_id=${link.id}&per_page=1&page=2`);
    expect(all.json().meta).toMatchObject({ total: 2, page: 2, per_page: 1 });
    expect(all.json().data).toHaveLength(1);
    expect((await api('GET', `/v1/leads?demo_id=${demoId}&start_date=2999-01-01`)).json().meta.total).toBe(0);
    expect((await api('GET', `/v1/leads?start_date=2026-12-01&end_date=2026-11-01`)).statusCode).toBe(400);
    const stranger = await t.apiKey('all');
    expect((await api('GET', `/v1/demos/${demoId}/leads`, undefined, stranger)).statusCode).toBe(404);
    expect((await api('GET', `/v1/leads?demo_id=${demoId}`, undefined, stranger)).json().meta.total).toBe(0);
    // The scope: a key without leads:read is refused.
    const narrow = await t.apiKey(['analytics:read'], admin);
    expect((await api('GET', '/v1/leads', undefined, narrow)).statusCode).toBe(403);

    // CSV: fixed columns, then one per answered field; formula cells defused.
    const formula = await openViewer(link.token, '203.0.113.78');
    await formula.v.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: good({ email: 'eve@evil.test', name: '=HYPERLINK("x")' }) });
    const csv = await api('GET', `/v1/demos/${demoId}/leads.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,demo_id,demo_title,share_id,share_name,email,name,step_number,lead_id,field:email,field:name,field:phone,field:consent,field:size,field:utm_source',
    );
    expect(lines).toHaveLength(4);
    expect(csv.body).toContain(`'=HYPERLINK(""x"")`);
    expect(lines.find((l) => l.includes(leadId))).toContain(",jane@acme.test,Jane Doe,'+44 20 7946 0958,true,11-50,newsletter");
    const wide = await api('GET', `/v1/leads.csv?demo_id=${demoId}`);
    expect(wide.body.trim().split('\r\n')).toHaveLength(4);
  });

  it('a gate form stands in for the identification gate; the allow-lists still decide', async () => {
    const { demoId } = await demoWithForm({ ...FORM, gate: true }, 1);
    const link = await createShare(t, key, demoId, { require_identification: true, allowed_domains: ['acme.test'] });
    const { v, state } = await openViewer(link.token);
    expect(state.gate).toBe('identification');
    expect(state.form).toMatchObject({ step_number: 1, submit_label: 'Send' });
    expect(state.form.fields.map((f: { name: string }) => f.name)).toEqual(FORM.fields.map((f) => f.name));
    expect(state.fields).toEqual(['name', 'email']);

    // Another step's form, or events, stay behind the gate.
    expect((await v.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: good() })).statusCode).toBe(403);
    expect((await v.call('GET', '/demo')).statusCode).toBe(403);
    // An address the allow-lists refuse: 403 on the e-mail field, nothing stored.
    const refused = await v.call('POST', '/leads', { id: randomUUID(), step_number: 1, values: good({ email: 'bob@initech.test' }) });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.details).toEqual([
      { field: 'gate', message: 'identification' },
      { field: 'values.email', message: 'This address is not allowed to view this demo' },
    ]);
    expect((await api('GET', `/v1/demos/${demoId}/leads`)).json().meta.total).toBe(0);

    // A viewer who never called GET first, with the header instead of a cookie: the answer opens a session.
    const fresh = await t.app.inject({
      method: 'POST',
      url: `/v1/viewer/${link.token}/leads`,
      remoteAddress: '203.0.113.90',
      payload: { id: randomUUID(), step_number: 1, values: good() },
    });
    expect(fresh.statusCode, fresh.body).toBe(201);
    const receipt = fresh.json().data;
    expect(receipt).toMatchObject({ identified: true, gate: 'ready' });
    expect(receipt.session_token).toEqual(expect.any(String));
    const demo = await t.app.inject({
      method: 'GET',
      url: `/v1/viewer/${link.token}/demo`,
      remoteAddress: '203.0.113.90',
      headers: { 'x-viewer-session': receipt.session_token },
    });
    expect(demo.statusCode, demo.body).toBe(200);

    // The first viewer (no session yet at the gate): the answer sets the link's cookie, the gate opens and the
    // state no longer offers the form.
    const okId = randomUUID();
    const ok = await v.call('POST', '/leads', { id: okId, step_number: 1, values: good({ email: 'ann@acme.test', name: 'Ann' }) });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.session_token).toEqual(expect.any(String));
    // A retry, now with the session: the same lead, no new session.
    const retry = await v.call('POST', '/leads', { id: okId, step_number: 1, values: good({ email: 'ann@acme.test', name: 'Ann' }) });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data).toEqual({ id: ok.json().data.id, identified: true, gate: 'ready' });
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);
    const after = (await v.call('GET', '')).json().data;
    expect(after).toMatchObject({ gate: 'ready', viewer: { email: 'ann@acme.test', name: 'Ann' } });
    expect(after.form).toBeUndefined();
    const identified = await t.db.database.executeSql("select count(*)::int as n from events where kind = 'viewer.identified' and data->>'share_id' = $1", [
      link.id,
    ]);
    expect(identified.rows[0]!.n).toBe(2);

    // The same submission again from a viewer whose first answer (and its cookie) was lost: a new session,
    // passed through the gate, and still one lead and one lead.captured.
    const lost = viewerClient(t, link.token, '203.0.113.91');
    expect((await lost.call('GET', '')).json().data.gate).toBe('identification');
    const resent = await lost.call('POST', '/leads', { id: okId, step_number: 1, values: good({ email: 'ann@acme.test', name: 'Ann' }) });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().data).toMatchObject({ id: ok.json().data.id, identified: true, gate: 'ready' });
    expect((await lost.call('GET', '/demo')).statusCode).toBe(200);
    const captured = await t.db.database.executeSql(
      "select count(*)::int as n from events where kind = 'lead.captured' and data->>'lead_id' = $1",
      [ok.json().data.id],
    );
    expect(captured.rows[0]!.n).toBe(1);
    expect((await api('GET', `/v1/demos/${demoId}/leads`)).json().meta.total).toBe(2);
    // The same id with other values is no retry: a 409, nothing stored.
    const other = viewerClient(t, link.token, '203.0.113.92');
    await other.call('GET', '');
    const reused = await other.call('POST', '/leads', { id: okId, step_number: 1, values: good({ email: 'eve@acme.test', name: 'Eve' }) });
    expect(reused.statusCode, reused.body).toBe(409);
    expect(reused.json().error.details).toEqual([{ field: 'id', message: 'already used for another submission' }]);
    expect((await api('GET', `/v1/demos/${demoId}/leads`)).json().meta.total).toBe(2);
  });

  it('the password comes first; a link without a gate form keeps name and e-mail', async () => {
    const { demoId } = await demoWithForm({ ...FORM, gate: true }, 1);
    const link = await createShare(t, key, demoId, { require_identification: true, password: 'lighthouse-42' });
    const { v, state } = await openViewer(link.token);
    expect(state.gate).toBe('password');
    expect(state.form).toBeUndefined();
    // The password alone: name and e-mail come with the form, after it.
    expect(state.fields).toEqual(['password']);
    const early = await v.call('POST', '/leads', { id: randomUUID(), step_number: 1, values: good() });
    expect(early.statusCode).toBe(401);
    const unlocked = (await v.call('POST', '/unlock', { password: 'lighthouse-42' })).json().data;
    expect(unlocked.gate).toBe('identification');
    expect(unlocked.form.step_number).toBe(1);

    const plain = await demoWithForm(FORM, 2);
    const plainLink = await createShare(t, key, plain.demoId, { require_identification: true });
    expect((await openViewer(plainLink.token)).state.form).toBeUndefined();
    const both = await createShare(t, key, plain.demoId, { require_identification: true, password: 'lighthouse-42' });
    expect((await openViewer(both.token)).state.fields).toEqual(['password', 'name', 'email']);
  });

  it('erasing a viewer deletes their leads and blanks their lead.captured events', async () => {
    const { demoId } = await demoWithForm();
    const link = await createShare(t, key, demoId);
    const erased = `erase.${randomUUID().slice(0, 8)}@acme.test`;
    const { v } = await openViewer(link.token, '203.0.113.120');
    expect((await v.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: good({ email: erased }) })).statusCode).toBe(201);
    const other = await openViewer(link.token, '203.0.113.121');
    expect((await other.v.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: good({ email: 'stays@acme.test' }) })).statusCode).toBe(201);

    const res = await api('POST', '/v1/viewer-erasures', { email: erased.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.leads).toBe(1);
    const left = (await api('GET', `/v1/demos/${demoId}/leads`)).json().data as { email: string }[];
    expect(left.map((l) => l.email)).toEqual(['stays@acme.test']);
    const events = await t.db.database.executeSql("select data from events where kind = 'lead.captured' and data->>'demo_id' = $1", [demoId]);
    const datas = events.rows.map((r) => r.data as { email: string | null; values: object });
    expect(datas.some((d) => d.email === null && Object.keys(d.values).length === 0)).toBe(true);
    expect(JSON.stringify(datas)).not.toContain(erased);
  });

  it('emits lead.captured to a webhook and e-mails the instant subscribers', async () => {
    const hook = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/leads`, events: ['lead.captured'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    await admin.inject({ method: 'PATCH', url: '/v1/account/notifications', payload: { mode: 'instant' } });
    const { demoId } = await demoWithForm();
    const link = await createShare(t, key, demoId, { name: 'Sent to Globex' });
    const { v } = await openViewer(link.token);
    const email = uniqueEmail('lead').replace('@example.com', '@globex.test');
    const sent = await v.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: good({ email }) });
    expect(sent.statusCode, sent.body).toBe(201);
    const leadId = sent.json().data.id;

    const [delivery] = await receiver.waitFor((r) => r.some((x) => x.path === '/leads'), 20_000, 'lead.captured');
    const body = JSON.parse(delivery!.body.toString());
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(body.event).toBe('lead.captured');
    expect(body.data).toMatchObject({
      lead_id: leadId,
      demo_id: demoId,
      share_id: link.id,
      step_number: 2,
      email,
      name: 'Jane Doe',
      values: { size: '11-50', consent: true },
    });
    expect(body.data.created_at).toEqual(expect.any(String));

    const mail = await smtp.waitFor((m) => m.to.includes(admin.email) && decodeBody(m.raw).includes(email), 20_000);
    const text = decodeBody(mail.raw);
    expect(mail.raw).toMatch(/Subject: .*New_lead_on/);
    expect(text).toContain(`Jane Doe (${email}) filled in the form of “Secret roadmap tour” through the link “Sent to Globex”`);
    expect(text).toContain('size: 11-50');
    expect(text).toContain(`${APP_URL}/leads?demo_id=${demoId}`);

    // Erasing the viewer blanks the delivered body in the delivery log (a redelivery sends that): address,
    // name and every answer, as in the outbox event.
    expect((await api('POST', '/v1/viewer-erasures', { email })).statusCode).toBe(200);
    const stored = await t.db.database.executeSql('select body from webhook_deliveries where webhook_id = $1', [hook.json().data.id]);
    const bodies = stored.rows.map((r) => JSON.parse(String(r.body)) as { data: Record<string, unknown> });
    const erased = bodies.find((b) => b.data.lead_id === leadId)!;
    expect(erased.data).toMatchObject({ lead_id: leadId, email: null, name: null, values: {} });
    expect(JSON.stringify(bodies)).not.toContain('Jane Doe');
  });
});
