// The links a demo hub makes for its entries: their gates are the hub's, so /v1/shares/:id refuses to change them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

describe('a hub’s entry links through /v1/shares/:id', () => {
  let t: TestApp;
  let key: string;
  let hubId: string;
  let linkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.apiKey('all');
    const demo = await demoWithSteps(t, key, 2);
    hubId = (await call('POST', '/v1/hubs', { name: 'Product tours', password: 'hub-password-1', require_identification: true, allowed_domains: ['acme.com'] })).json().data.id;
    const collection = (await call('POST', `/v1/hubs/${hubId}/collections`, { name: 'Start here' })).json().data;
    linkId = (await call('POST', `/v1/hubs/${hubId}/entries`, { demo_id: demo, collection_id: collection.id })).json().data.share_id;
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const link = async () => (await call('GET', `/v1/shares/${linkId}`)).json().data;

  it('refuses a change of the gates the hub sets with a 409 naming the hub and the fields, changing nothing', async () => {
    const before = await link();
    expect(before).toMatchObject({ hub_id: hubId, has_password: true, require_identification: true, allowed_domains: ['acme.com'] });
    for (const [payload, fields] of [
      [{ password: null }, ['password']],
      [{ password: 'another-password' }, ['password']],
      [{ expires_at: '2099-01-01T00:00:00.000Z' }, ['expires_at']],
      [{ require_identification: false, allowed_domains: [] }, ['require_identification', 'allowed_domains']],
      [{ allowed_emails: ['x@example.com'], name: 'Renamed' }, ['allowed_emails']],
    ] as const) {
      const res = await call('PATCH', `/v1/shares/${linkId}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'conflict', message: expect.stringContaining(`PATCH /v1/hubs/${hubId}`) });
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(fields);
    }
    const after = await link();
    expect(after).toEqual(before);
  });

  it('lets the link’s own fields change, and the hub’s change still reaches its gates', async () => {
    const renamed = await call('PATCH', `/v1/shares/${linkId}`, { name: 'Hub entry: tours', variables: { company: 'Acme' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Hub entry: tours', variables: { company: 'Acme' }, has_password: true });
    expect((await call('PATCH', `/v1/hubs/${hubId}`, { password: null, require_identification: false, allowed_domains: [] })).statusCode).toBe(200);
    expect(await link()).toMatchObject({ has_password: false, require_identification: false, allowed_domains: [], name: 'Hub entry: tours' });
  });

  it('still lets a link of its own change its gates', async () => {
    const demo = await demoWithSteps(t, key, 1);
    const own = (await call('POST', `/v1/demos/${demo}/shares`, { name: 'Mine' })).json().data;
    const res = await call('PATCH', `/v1/shares/${own.id}`, { password: 'a-password-1', expires_at: '2099-01-01T00:00:00.000Z' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ has_password: true, hub_id: null });
  });
});
