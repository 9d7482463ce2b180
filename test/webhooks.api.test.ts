import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '../src/core/crypto';
import { EVENT_KINDS } from '../src/events/event-kinds';
import { webhooks as webhooksTable } from '../src/webhooks/webhooks.tables';
import { REFUSED_URLS } from './helpers/ssrf-addresses';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

// Public IP literals: the guard accepts them without DNS, and nothing is delivered here (no workers).
const PUBLIC_URL = 'https://93.184.215.14/hooks/demoshare';

describe('webhooks API', () => {
  let t: TestApp;
  let admin: TestSession;

  beforeAll(async () => {
    // The guard's production policy: no private range opened.
    t = await createTestApp();
    admin = await t.signUp();
  });
  afterAll(() => t?.close());

  const create = (payload: Record<string, unknown>, session = admin) => session.inject({ method: 'POST', url: '/v1/webhooks', payload });
  const count = async () => (await t.ctx.database.db.select().from(webhooksTable)).length;

  it('creates a webhook with a generated secret shown once, sealed at rest', async () => {
    const res = await create({ url: PUBLIC_URL, events: ['demo.viewed', 'demo.completed', 'demo.viewed'] });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      url: PUBLIC_URL,
      events: ['demo.viewed', 'demo.completed'],
      active: true,
      last_delivery_at: null,
      consecutive_failures: 0,
      disabled_at: null,
    });
    expect(data.id).toMatch(/^whk_[0-9a-z]{26}$/);
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(data.secret_hint).toBe(`whsec_…${data.secret.slice(-4)}`);
    expect(data.standard_webhooks_secret).toBe(`whsec_${Buffer.from(data.secret).toString('base64')}`);

    const [row] = await t.ctx.database.db.select().from(webhooksTable);
    expect(JSON.stringify(row)).not.toContain(data.secret);
    expect(unseal(t.ctx.secrets.sealing, row!.secretSealed)).toBe(data.secret);

    const list = await admin.inject({ method: 'GET', url: '/v1/webhooks' });
    expect(list.statusCode).toBe(200);
    expect(list.json().meta).toMatchObject({ total: 1, page: 1, per_page: 20 });
    expect(list.body).not.toContain(data.secret);
    expect(Object.keys(list.json().data[0]).sort()).toEqual(
      [
        'id', 'url', 'events', 'active', 'created_at', 'updated_at', 'secret_hint', 'last_delivery_at',
        'consecutive_failures', 'disabled_at', 'disabled_reason', 'previous_secret_expires_at',
      ].sort(),
    );

    const one = await admin.inject({ method: 'GET', url: `/v1/webhooks/${data.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toEqual(list.json().data[0]);
    expect(one.body).not.toContain(data.secret);
    expect((await admin.inject({ method: 'GET', url: '/v1/webhooks/whk_01jd3k7q9x8v2m4n6p0r5s7t9w' })).statusCode).toBe(404);
  });

  it('keeps a given secret and never returns it again', async () => {
    const res = await create({ url: PUBLIC_URL, events: ['demo.viewed'], secret: 'my-own-secret-value' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.secret).toBe('my-own-secret-value');
    const list = await admin.inject({ method: 'GET', url: '/v1/webhooks' });
    expect(list.body).not.toContain('my-own-secret-value');
  });

  it('refuses unknown event kinds with a 400 listing the valid ones, and creates nothing', async () => {
    const before = await count();
    const res = await create({ url: PUBLIC_URL, events: ['demo.viewed', 'demo.exploded'] });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('invalid_request');
    expect(error.details[0].field).toBe('events.1');
    for (const kind of EVENT_KINDS) expect(error.details[0].message).toContain(kind);
    expect(await count()).toBe(before);
  });

  it.each([
    [{ events: ['demo.viewed'] }, 'url'],
    [{ url: PUBLIC_URL }, 'events'],
    [{ url: PUBLIC_URL, events: [] }, 'events'],
    [{ url: PUBLIC_URL, events: ['demo.viewed'], secret: 'short' }, 'secret'],
    [{ url: PUBLIC_URL, events: ['demo.viewed'], active: false }, 'active'],
  ])('refuses %j with a 400 on %s', async (payload, field) => {
    const before = await count();
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe(field);
    expect(await count()).toBe(before);
  });

  it.each([...REFUSED_URLS, 'http://localhost:9/'])('refuses %s at creation with a 400', async (url) => {
    const before = await count();
    const res = await create({ url, events: ['demo.viewed'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    expect(await count()).toBe(before);
  });

  it('refuses a private URL on update too, and changes nothing', async () => {
    const id = (await create({ url: PUBLIC_URL, events: ['demo.viewed'] })).json().data.id;
    const res = await admin.inject({ method: 'PATCH', url: `/v1/webhooks/${id}`, payload: { url: 'http://169.254.169.254/' } });
    expect(res.statusCode).toBe(400);
    const list = await admin.inject({ method: 'GET', url: '/v1/webhooks?per_page=100' });
    expect(list.json().data.find((w: { id: string }) => w.id === id).url).toBe(PUBLIC_URL);
  });

  it('updates, disables and re-enables (resetting the failure count)', async () => {
    const id = (await create({ url: PUBLIC_URL, events: ['demo.viewed'] })).json().data.id;
    await t.ctx.database.db
      .update(webhooksTable)
      .set({ consecutiveFailures: 7, failingSince: new Date() })
      .where((await import('drizzle-orm')).eq(webhooksTable.id, id));
    const off = await admin.inject({ method: 'PATCH', url: `/v1/webhooks/${id}`, payload: { active: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ active: false, disabled_reason: 'manual' });
    expect(off.json().data.disabled_at).not.toBeNull();
    const on = await admin.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${id}`,
      payload: { active: true, events: ['demo.completed'], url: 'https://93.184.215.15/other' },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().data).toMatchObject({
      active: true,
      disabled_at: null,
      disabled_reason: null,
      consecutive_failures: 0,
      events: ['demo.completed'],
      url: 'https://93.184.215.15/other',
    });
  });

  it('rotates the secret, showing the new one once and keeping the old one for the grace period', async () => {
    const created = (await create({ url: PUBLIC_URL, events: ['demo.viewed'], secret: 'first-secret-0001' })).json().data;
    const res = await admin.inject({ method: 'POST', url: `/v1/webhooks/${created.id}/rotate-secret` });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.secret).toMatch(/^whsec_/);
    expect(data.secret_hint).not.toBe(created.secret_hint);
    const grace = new Date(data.previous_secret_expires_at).getTime() - Date.now();
    expect(grace).toBeGreaterThan(23 * 3_600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3_600_000);
    const given = await admin.inject({
      method: 'POST',
      url: `/v1/webhooks/${created.id}/rotate-secret`,
      payload: { secret: 'third-secret-0003' },
    });
    expect(given.json().data.secret).toBe('third-secret-0003');
  });

  it('takes a secret of any characters, hinting at whole ones (an astral character at the cut was a 500, found by the fuzzer)', async () => {
    const secret = '𖠓〥ว🗦🛌Ⴅﾊ𛰥⫈𐼥';
    const created = await create({ url: PUBLIC_URL, events: ['demo.viewed'], secret });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.secret_hint).toBe('…');
    const rotated = await admin.inject({ method: 'POST', url: `/v1/webhooks/${created.json().data.id}/rotate-secret`, payload: { secret: `${secret}${secret}` } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().data.secret_hint).toBe('…ﾊ𛰥⫈𐼥');
  });

  it('deletes with 204, then answers 404', async () => {
    const id = (await create({ url: PUBLIC_URL, events: ['demo.viewed'] })).json().data.id;
    const res = await admin.inject({ method: 'DELETE', url: `/v1/webhooks/${id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await admin.inject({ method: 'DELETE', url: `/v1/webhooks/${id}` })).statusCode).toBe(404);
  });

  it('answers 404 for another workspace’s webhook on every route, and changes nothing', async () => {
    const id = (await create({ url: PUBLIC_URL, events: ['demo.viewed'] })).json().data.id;
    const other = await t.signUp();
    const deliveryId = 'dlv_01jd3k7q9x8v2m4n6p0r5s7t9w';
    for (const [method, url, payload] of [
      ['GET', `/v1/webhooks/${id}`, undefined],
      ['PATCH', `/v1/webhooks/${id}`, { active: false }],
      ['DELETE', `/v1/webhooks/${id}`, undefined],
      ['POST', `/v1/webhooks/${id}/rotate-secret`, undefined],
      ['POST', `/v1/webhooks/${id}/test`, undefined],
      ['GET', `/v1/webhooks/${id}/deliveries`, undefined],
      ['GET', `/v1/webhooks/${id}/deliveries/${deliveryId}`, undefined],
      ['POST', `/v1/webhooks/${id}/deliveries/${deliveryId}/redeliver`, undefined],
    ] as const) {
      const res = await other.inject({ method, url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const mine = await admin.inject({ method: 'GET', url: '/v1/webhooks?per_page=100' });
    expect(mine.json().data.find((w: { id: string }) => w.id === id).active).toBe(true);
    expect((await other.inject({ method: 'GET', url: '/v1/webhooks' })).json().data).toEqual([]);
  });

  it('answers 400 for malformed ids', async () => {
    const res = await admin.inject({ method: 'DELETE', url: '/v1/webhooks/not-an-id' });
    expect(res.statusCode).toBe(400);
  });

  it('requires webhooks:write and the admin role (403 otherwise)', async () => {
    const narrowKey = await t.apiKey(['demos:read', 'team:write'], admin);
    const noScope = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: bearer(narrowKey) });
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json().error.code).toBe('insufficient_scope');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(narrowKey),
      payload: { url: PUBLIC_URL, events: ['demo.viewed'] },
    });
    expect(created.statusCode).toBe(403);

    const fullKey = await t.apiKey(['webhooks:write'], admin);
    expect((await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: bearer(fullKey) })).statusCode).toBe(200);

    // An editor, by session and by a key carrying webhooks:write: the role decides. Sessions open in the
    // user's own workspace, so its admin brings in a second admin and steps down to editor.
    const editor = await t.signUp();
    const editorKey = await t.apiKey(['webhooks:write'], editor);
    await t.member(editor, 'admin');
    const demoted = await editor.inject({
      method: 'PATCH',
      url: `/v1/team/members/${editor.memberId}`,
      payload: { role: 'editor' },
    });
    expect(demoted.statusCode).toBe(200);
    const before = await count();
    for (const res of [
      await editor.inject({ method: 'GET', url: '/v1/webhooks' }),
      await editor.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: PUBLIC_URL, events: ['demo.viewed'] } }),
      await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: bearer(editorKey),
        payload: { url: PUBLIC_URL, events: ['demo.viewed'] },
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect(await count()).toBe(before);
  });

  it('documents the routes in the OpenAPI document with the webhooks:write scope', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    for (const path of ['/v1/webhooks', '/v1/webhooks/{id}', '/v1/webhooks/{id}/deliveries']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/v1/webhooks'].post.security).toEqual([{ bearerAuth: ['webhooks:write'] }, { oauth2: ['webhooks:write'] }]);
  });
});
