import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const NUL = 'a\u0000b';

interface Case {
  /** Who sends it: the admin's session, the admin's key, nobody, or a viewer of the share link. */
  as: 'session' | 'key' | 'public' | 'viewer';
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  url: (ids: Ids) => string;
  payload?: (ids: Ids) => object;
  /** The field the 400 must name. */
  field: string;
}

interface Ids {
  demo: string;
  step: string;
  hotspot: string;
  share: string;
  webhook: string;
  clientId: string;
}

const REDIRECT = 'https://client.example/callback';
const hotspotBox = { x: 0.1, y: 0.1, width: 0.2, height: 0.2 };
const authorize = (ids: Ids) => ({ client_id: ids.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'demos:read' });

// A NUL in each string field of each endpoint, one at a time.
const CASES: Array<[string, Case]> = [
  ['login email', { as: 'public', method: 'POST', url: () => '/v1/auth/login', payload: () => ({ email: NUL, password: 'x' }), field: 'email' }],
  ['login password', { as: 'public', method: 'POST', url: () => '/v1/auth/login', payload: () => ({ email: 'a@example.com', password: NUL }), field: 'password' }],
  ['signup name', { as: 'public', method: 'POST', url: () => '/v1/auth/signup', payload: () => ({ email: 'nul@example.com', password: 'long enough password', name: NUL }), field: 'name' }],
  ['signup workspace_name', { as: 'public', method: 'POST', url: () => '/v1/auth/signup', payload: () => ({ email: 'nul@example.com', password: 'long enough password', workspace_name: NUL }), field: 'workspace_name' }],
  ['signup password', { as: 'public', method: 'POST', url: () => '/v1/auth/signup', payload: () => ({ email: 'nul@example.com', password: `long enough ${NUL}` }), field: 'password' }],
  ['api key name', { as: 'session', method: 'POST', url: () => '/v1/api-keys', payload: () => ({ name: NUL, scopes: ['demos:read'] }), field: 'name' }],
  ['team invite email', { as: 'key', method: 'POST', url: () => '/v1/team/members', payload: () => ({ email: `x${NUL}@example.com`, role: 'viewer' }), field: 'email' }],
  ['demo title', { as: 'key', method: 'POST', url: () => '/v1/demos', payload: () => ({ title: NUL }), field: 'title' }],
  ['demo source_url', { as: 'key', method: 'POST', url: () => '/v1/demos', payload: () => ({ title: 't', source_url: `https://example.com/${NUL}` }), field: 'source_url' }],
  ['demo call-to-action label', { as: 'key', method: 'PATCH', url: (i) => `/v1/demos/${i.demo}`, payload: () => ({ configuration: { call_to_action: { label: NUL, url: 'https://example.com' } } }), field: 'configuration.call_to_action.label' }],
  ['demo call-to-action url', { as: 'key', method: 'PATCH', url: (i) => `/v1/demos/${i.demo}`, payload: () => ({ configuration: { call_to_action: { label: 'Go', url: `https://example.com/${NUL}` } } }), field: 'configuration.call_to_action.url' }],
  ['demo rename', { as: 'key', method: 'PATCH', url: (i) => `/v1/demos/${i.demo}`, payload: () => ({ title: NUL }), field: 'title' }],
  ['demo search', { as: 'key', method: 'GET', url: () => `/v1/demos?search=${encodeURIComponent(NUL)}`, field: 'search' }],
  ['new step title', { as: 'key', method: 'POST', url: (i) => `/v1/demos/${i.demo}/steps`, payload: () => ({ title: NUL }), field: 'title' }],
  ['new step page_url', { as: 'key', method: 'POST', url: (i) => `/v1/demos/${i.demo}/steps`, payload: () => ({ page_url: `https://example.com/${NUL}` }), field: 'page_url' }],
  ['step description', { as: 'key', method: 'PATCH', url: (i) => `/v1/demos/${i.demo}/steps/${i.step}`, payload: () => ({ description: NUL }), field: 'description' }],
  ['replaced step title', { as: 'key', method: 'PUT', url: (i) => `/v1/demos/${i.demo}/steps`, payload: (i) => ({ steps: [{ id: i.step, title: NUL }] }), field: 'steps.0.title' }],
  ['hotspot label', { as: 'key', method: 'POST', url: (i) => `/v1/demos/${i.demo}/steps/${i.step}/hotspots`, payload: () => ({ ...hotspotBox, label: NUL }), field: 'label' }],
  ['hotspot selector', { as: 'key', method: 'POST', url: (i) => `/v1/demos/${i.demo}/steps/${i.step}/hotspots`, payload: () => ({ ...hotspotBox, selector: NUL }), field: 'selector' }],
  ['hotspot url target', { as: 'key', method: 'POST', url: (i) => `/v1/demos/${i.demo}/steps/${i.step}/hotspots`, payload: () => ({ ...hotspotBox, action: { type: 'url', target: `https://example.com/${NUL}` } }), field: 'action.target' }],
  ['hotspot tooltip', { as: 'key', method: 'PATCH', url: (i) => `/v1/demos/${i.demo}/steps/${i.step}/hotspots/${i.hotspot}`, payload: () => ({ tooltip: NUL }), field: 'tooltip' }],
  ['oauth app name', { as: 'session', method: 'POST', url: () => '/v1/oauth/apps', payload: () => ({ name: NUL, redirect_uris: [REDIRECT], scopes: ['demos:read'] }), field: 'name' }],
  ['oauth app redirect uri', { as: 'session', method: 'POST', url: () => '/v1/oauth/apps', payload: () => ({ name: 'App', redirect_uris: [`${REDIRECT}${NUL}`], scopes: ['demos:read'] }), field: 'redirect_uris.0' }],
  ['authorize client_id (query)', { as: 'session', method: 'GET', url: (i) => `/v1/oauth/authorize?${new URLSearchParams({ ...authorize(i), client_id: NUL })}`, field: 'client_id' }],
  ['authorize state (query)', { as: 'session', method: 'GET', url: (i) => `/v1/oauth/authorize?${new URLSearchParams({ ...authorize(i), state: NUL })}`, field: 'state' }],
  ['authorize decision redirect_uri', { as: 'session', method: 'POST', url: () => '/v1/oauth/authorize', payload: (i) => ({ ...authorize(i), redirect_uri: NUL, decision: 'allow' }), field: 'redirect_uri' }],
  ['share name', { as: 'key', method: 'POST', url: (i) => `/v1/demos/${i.demo}/shares`, payload: () => ({ name: NUL }), field: 'name' }],
  ['share password', { as: 'key', method: 'POST', url: (i) => `/v1/demos/${i.demo}/shares`, payload: () => ({ password: NUL }), field: 'password' }],
  ['share allowed domain', { as: 'key', method: 'PATCH', url: (i) => `/v1/shares/${i.share}`, payload: () => ({ allowed_domains: [`example${NUL}.com`] }), field: 'allowed_domains.0' }],
  ['share allowed e-mail', { as: 'key', method: 'PATCH', url: (i) => `/v1/shares/${i.share}`, payload: () => ({ allowed_emails: [`a${NUL}@example.com`] }), field: 'allowed_emails.0' }],
  ['webhook url', { as: 'key', method: 'POST', url: () => '/v1/webhooks', payload: () => ({ url: `https://example.com/${NUL}`, events: ['demo.viewed'] }), field: 'url' }],
  ['webhook secret', { as: 'key', method: 'POST', url: () => '/v1/webhooks', payload: () => ({ url: 'https://example.com/h', events: ['demo.viewed'], secret: `secret-${NUL}-secret` }), field: 'secret' }],
  ['webhook new url', { as: 'key', method: 'PATCH', url: (i) => `/v1/webhooks/${i.webhook}`, payload: () => ({ url: `https://example.com/${NUL}` }), field: 'url' }],
  ['webhook rotated secret', { as: 'key', method: 'POST', url: (i) => `/v1/webhooks/${i.webhook}/rotate-secret`, payload: () => ({ secret: `secret-${NUL}-secret` }), field: 'secret' }],
  ['views viewer_email (query)', { as: 'key', method: 'GET', url: (i) => `/v1/demos/${i.demo}/views?viewer_email=${encodeURIComponent(NUL)}`, field: 'viewer_email' }],
  ['viewer identify name', { as: 'viewer', method: 'POST', url: () => '/identify', payload: () => ({ name: NUL, email: 'v@example.com' }), field: 'name' }],
  ['viewer unlock password', { as: 'viewer', method: 'POST', url: () => '/unlock', payload: () => ({ password: NUL }), field: 'password' }],
  ['viewer event referrer', { as: 'viewer', method: 'POST', url: () => '/events', payload: () => ({ events: [{ id: crypto.randomUUID(), type: 'view_started', referrer: NUL }] }), field: 'events.0.referrer' }],
];

describe('a NUL character in any request string is a 400 naming the field', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  let ids: Ids;
  let shareToken: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { RATE_LIMIT_PUBLIC_PER_MINUTE: 10_000 } });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    const demo = await demoWithSteps(t, key, 1);
    const detail = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demo}`, headers: bearer(key) })).json().data;
    const share = await createShare(t, key, demo);
    shareToken = share.token;
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(key),
      payload: { url: 'https://93.184.215.14/hooks', events: ['demo.viewed'] },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const app = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Client', redirect_uris: [REDIRECT], scopes: ['demos:read'] },
    });
    expect(app.statusCode, app.body).toBe(201);
    ids = {
      demo,
      step: detail.steps[0].id,
      hotspot: detail.hotspots[0].id,
      share: share.id,
      webhook: webhook.json().data.id,
      clientId: app.json().data.client_id,
    };
  });
  afterAll(() => t?.close());

  /** Every table's rows, hashed: what a refused request must leave as it was. */
  async function snapshot() {
    const tables = await t.ctx.database.executeSql(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
      [],
    );
    const out: Record<string, string> = {};
    for (const { table_name: name } of tables.rows as Array<{ table_name: string }>) {
      const res = await t.ctx.database.executeSql(`select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as h from "${name}" r`, []);
      out[name] = String((res.rows[0] as { h: string }).h);
    }
    return out;
  }

  it.each(CASES)('%s', async (_label, c) => {
    const viewer = viewerClient(t, shareToken, '203.0.113.60');
    if (c.as === 'viewer') expect((await viewer.call('GET', '')).statusCode).toBe(200);
    const before = await snapshot();
    const options = { method: c.method, url: c.url(ids), ...(c.payload ? { payload: c.payload(ids) } : {}) };
    const res =
      c.as === 'viewer'
        ? await viewer.call(c.method as 'POST', options.url, options.payload)
        : c.as === 'session'
          ? await admin.inject(options)
          : await t.app.inject({ ...options, headers: c.as === 'key' ? bearer(key) : {} });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    expect(res.json().error.details).toContainEqual({ field: c.field, message: expect.stringContaining('NUL') });
    expect(await snapshot()).toEqual(before);
  });

  // Found by the fuzzer: a workspace renamed to "\ud800" was a 500 (jsonb refuses a lone surrogate's escape).
  it.each([
    ['workspace name', 'session', 'PATCH', '/v1/workspace', { name: '\ud800' }, 'name'],
    ['demo title', 'key', 'POST', '/v1/demos', { title: 'x\udc25' }, 'title'],
    ['webhook secret', 'key', 'POST', '/v1/webhooks', { url: 'https://93.184.215.14/h', events: ['demo.viewed'], secret: 'secret-\ud83d-secret' }, 'secret'],
  ] as const)('a lone surrogate in the %s is a 400 naming the field', async (_label, as, method, url, payload, field) => {
    const before = await snapshot();
    const options = { method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) };
    const res = as === 'session' ? await admin.inject(options) : await t.app.inject({ ...options, headers: { ...options.headers, ...bearer(key) } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details).toContainEqual({ field, message: expect.stringContaining('Unicode') });
    expect(await snapshot()).toEqual(before);
    // A well-formed astral character is welcome.
    const fine = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'Tour 🙂' } });
    expect(fine.statusCode, fine.body).toBe(201);
  });
});
