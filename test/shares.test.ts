import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../src/events/events.tables';
import { shares } from '../src/shares/shares.tables';
import { createShare, demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

describe('share links API', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  let demoId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, 2);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object, k = key) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(k), ...(payload ? { payload } : {}) });

  it('creates a link with the documented record, hashing the password and never returning it', async () => {
    const res = await call('POST', `/v1/demos/${demoId}/shares`, {
      password: 'hunter22',
      expires_at: '2099-01-01T00:00:00.000Z',
      require_identification: true,
      name: 'Sent to Acme',
      allowed_emails: ['Ann@Acme.com'],
      allowed_domains: ['acme.io'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const share = res.json().data;
    expect(share).toEqual({
      id: expect.stringMatching(/^shr_[0-9a-z]{26}$/),
      demo_id: demoId,
      url: expect.stringMatching(/^http:\/\/localhost:3000\/s\/[A-Za-z0-9_-]{43}$/),
      embed_url: expect.stringMatching(/^http:\/\/localhost:3000\/embed\/[A-Za-z0-9_-]{43}$/),
      name: 'Sent to Acme',
      has_password: true,
      expires_at: '2099-01-01T00:00:00.000Z',
      require_identification: true,
      allowed_emails: ['ann@acme.com'],
      allowed_domains: ['acme.io'],
      preview_title: null,
      preview_description: null,
      preview_image_asset_id: null,
      preview_image_url: null,
      show_title_before_unlock: false,
      variables: {},
      view_count: 0,
      last_viewed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      hub_id: null,
    });
    expect(res.body).not.toContain('hunter22');
    const [row] = await t.ctx.database.db.select().from(shares).where(eq(shares.id, share.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const [event] = await t.ctx.database.db
      .select()
      .from(events)
      .where(and(eq(events.kind, 'share.created'), eq(events.workspaceId, admin.workspaceId)));
    expect(event!.data).toMatchObject({ share_id: share.id, demo_id: demoId, has_password: true });
  });

  it('gives every link its own unguessable token', async () => {
    const a = await createShare(t, key, demoId);
    const b = await createShare(t, key, demoId);
    expect(a.token).not.toBe(b.token);
    expect(Buffer.from(a.token, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('lists the active links of a demo in the list envelope', async () => {
    const res = await call('GET', `/v1/demos/${demoId}/shares`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.length).toBeGreaterThanOrEqual(3);
    expect(body.meta.total).toBe(body.data.length);
    expect(body.data.every((s: { demo_id: string }) => s.demo_id === demoId)).toBe(true);
  });

  it.each([
    [{ expires_at: '2000-01-01T00:00:00.000Z' }, 'expires_at'],
    [{ expires_at: 'tomorrow' }, 'expires_at'],
    [{ password: '' }, 'password'],
    [{ require_identification: 'yes' }, 'require_identification'],
    [{ allowed_emails: ['not-an-address'], require_identification: true }, 'allowed_emails.0'],
    [{ allowed_domains: ['http://x'], require_identification: true }, 'allowed_domains.0'],
    [{ allowed_emails: ['a@b.co'] }, 'require_identification'],
    [{ owner: 'me' }, ''],
  ])('refuses %j with a 400 and creates nothing', async (body, field) => {
    const before = await call('GET', `/v1/demos/${demoId}/shares`);
    const res = await call('POST', `/v1/demos/${demoId}/shares`, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    if (field) expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    const after = await call('GET', `/v1/demos/${demoId}/shares`);
    expect(after.json().meta.total).toBe(before.json().meta.total);
  });

  it('updates name, password, expiry and allow-lists, and removes a password with null', async () => {
    const share = await createShare(t, key, demoId, { password: 'first-pass' });
    const res = await call('PATCH', `/v1/shares/${share.id}`, {
      name: 'Renamed',
      expires_at: null,
      require_identification: true,
      allowed_domains: ['example.org'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Renamed', has_password: true, allowed_domains: ['example.org'] });
    const cleared = await call('PATCH', `/v1/shares/${share.id}`, { password: null });
    expect(cleared.json().data.has_password).toBe(false);
    const bad = await call('PATCH', `/v1/shares/${share.id}`, { require_identification: false });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', `/v1/shares/${share.id}`)).json().data.require_identification).toBe(true);
  });

  it('revokes a link with 204: it leaves the list, a second delete is 404, share.revoked is emitted', async () => {
    const share = await createShare(t, key, demoId);
    const res = await call('DELETE', `/v1/shares/${share.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const list = await call('GET', `/v1/demos/${demoId}/shares`);
    expect(list.json().data.map((s: { id: string }) => s.id)).not.toContain(share.id);
    expect((await call('DELETE', `/v1/shares/${share.id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/v1/shares/${share.id}`, { name: 'x' })).statusCode).toBe(404);
    const revoked = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'share.revoked'));
    expect(revoked.some((e) => (e.data as { share_id: string }).share_id === share.id)).toBe(true);
  });

  it("answers 404 for another workspace's demo and share, and changes nothing", async () => {
    const other = await t.apiKey('all');
    const share = await createShare(t, key, demoId);
    expect((await call('GET', `/v1/demos/${demoId}/shares`, undefined, other)).statusCode).toBe(404);
    expect((await call('POST', `/v1/demos/${demoId}/shares`, {}, other)).statusCode).toBe(404);
    expect((await call('GET', `/v1/shares/${share.id}`, undefined, other)).statusCode).toBe(404);
    expect((await call('PATCH', `/v1/shares/${share.id}`, { name: 'mine' }, other)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/shares/${share.id}`, undefined, other)).statusCode).toBe(404);
    expect((await call('GET', `/v1/shares/${share.id}/access-log`, undefined, other)).statusCode).toBe(404);
    expect((await call('GET', `/v1/shares/${share.id}`)).json().data.name).toBe('');
  });

  it('needs shares:read to list and shares:write to change, naming the scope', async () => {
    const readOnly = await t.apiKey(['shares:read'], admin);
    const writeOnly = await t.apiKey(['shares:write'], admin);
    const list = await call('GET', `/v1/demos/${demoId}/shares`, undefined, writeOnly);
    expect(list.statusCode).toBe(403);
    expect(list.json().error).toMatchObject({ code: 'insufficient_scope' });
    expect(list.json().error.message).toContain('shares:read');
    const create = await call('POST', `/v1/demos/${demoId}/shares`, {}, readOnly);
    expect(create.statusCode).toBe(403);
    expect(create.json().error.message).toContain('shares:write');
    expect((await call('GET', `/v1/demos/${demoId}/shares`, undefined, readOnly)).statusCode).toBe(200);
  });

  it('lets editors manage links and viewers only read them', async () => {
    const editor = await t.member(admin, 'editor');
    const viewer = await t.member(admin, 'viewer');
    const made = await editor.inject({ method: 'POST', url: `/v1/demos/${demoId}/shares`, payload: {} });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id;
    const denied = await viewer.inject({ method: 'POST', url: `/v1/demos/${demoId}/shares`, payload: {} });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('forbidden');
    expect((await viewer.inject({ method: 'DELETE', url: `/v1/shares/${id}` })).statusCode).toBe(403);
    expect((await viewer.inject({ method: 'GET', url: `/v1/demos/${demoId}/shares` })).statusCode).toBe(200);
    expect((await editor.inject({ method: 'DELETE', url: `/v1/shares/${id}` })).statusCode).toBe(204);
  });

  it('keeps the access log of a link, newest first, paginated', async () => {
    const share = await createShare(t, key, demoId, { password: 'open sesame' });
    await t.app.inject({ method: 'GET', url: `/v1/viewer/${share.token}`, remoteAddress: '198.51.100.4' });
    await t.app.inject({
      method: 'POST',
      url: `/v1/viewer/${share.token}/unlock`,
      remoteAddress: '198.51.100.4',
      headers: { 'user-agent': 'log-test' },
      payload: { password: 'wrong' },
    });
    const res = await call('GET', `/v1/shares/${share.id}/access-log?per_page=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toMatchObject({ total: 2, per_page: 1 });
    expect(res.json().data[0]).toMatchObject({ decision: 'wrong_password', ip: '198.51.100.4', user_agent: 'log-test' });
  });
});
