import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { unchecked } from './helpers/contract';
import { engine } from './helpers/database';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server';
import { createShare, demoWithSteps } from './helpers/shares';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const APP_HOST = 'app.demoshare.test';

describe('custom domains', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  const clock = manualClock('2026-11-29T00:00:00.000Z');
  let a: TestSession;
  let b: TestSession;
  let keyA: string;
  let keyB: string;
  let linkA: { id: string; token: string; url: string };
  let linkB: { id: string; token: string; url: string };
  let demoA: string;
  /** Workspace A's hub, made once its domain is verified. */
  let hubAddress: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({
      clock,
      config: { APP_URL: `https://${APP_HOST}`, DNS_SERVERS: [dns.address], DOMAIN_RECHECK_GRACE: 3 * 3600_000 },
    });
    a = await t.signUp();
    b = await t.signUp();
    keyA = await t.apiKey('all', a);
    keyB = await t.apiKey('all', b);
    demoA = await demoWithSteps(t, keyA, 2);
    linkA = await createShare(t, keyA, demoA);
    linkB = await createShare(t, keyB, await demoWithSteps(t, keyB, 2));
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const on = (host: string, url: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { host, ...extra } });
  const add = (s: TestSession, hostname: string) => s.inject({ method: 'POST', url: '/v1/domains', payload: { hostname } });
  const verify = (s: TestSession, id: string) => s.inject({ method: 'POST', url: `/v1/domains/${id}/verify` });
  const txtOf = (domain: { records: { type: string; name: string; value: string }[] }) =>
    domain.records.find((r) => r.type === 'TXT') as { name: string; value: string };

  let domainA: { id: string; hostname: string; records: { type: string; name: string; value: string }[] };

  /** A domain of `s`'s workspace verified by its TXT record; its id. */
  const verifiedDomain = async (s: TestSession, hostname: string) => {
    const added = (await add(s, hostname)).json().data;
    dns.txt.set(txtOf(added).name, [txtOf(added).value]);
    clock.advance(60_000);
    expect((await verify(s, added.id)).json().data).toMatchObject({ status: 'verified' });
    return added.id as string;
  };

  /** The actor type and `changes` of the workspace's entries of `action` for one domain, newest first. */
  const domainEntries = async (s: TestSession, action: string, domainId: string) => {
    const res = await s.inject({ method: 'GET', url: `/v1/audit-log?action=${action}&per_page=100` });
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().data as Array<{ actor: { type: string }; target: { id: string }; changes: Record<string, unknown> }>;
    return entries.filter((e) => e.target.id === domainId).map((e) => ({ actor: e.actor.type, changes: e.changes }));
  };
  const unverifiedEntries = (s: TestSession, domainId: string) => domainEntries(s, 'domain.unverified', domainId);
  const removedEntries = (s: TestSession, domainId: string) => domainEntries(s, 'domain.removed', domainId);

  it('adds a domain in its normal form with the records to create, refusing what cannot be one', async () => {
    const res = await add(a, 'Demos.Example.COM.');
    expect(res.statusCode, res.body).toBe(201);
    domainA = res.json().data;
    expect(domainA).toMatchObject({ hostname: 'demos.example.com', status: 'pending', url: 'https://demos.example.com', verified_by: null });
    expect(domainA.records).toEqual([
      expect.objectContaining({ type: 'TXT', name: '_demoshare.demos.example.com', value: expect.stringMatching(/^demoshare-verification=\w{32}$/) }),
      expect.objectContaining({ type: 'CNAME', name: 'demos.example.com', value: APP_HOST }),
    ]);
    const idn = await add(a, 'Démos.Exemple.fr');
    expect(idn.statusCode, idn.body).toBe(201);
    expect(idn.json().data.hostname).toBe('xn--dmos-bpa.exemple.fr');
    expect((await add(a, 'demos.example.com')).statusCode).toBe(409);
    for (const bad of ['https://x.example.com/', 'x.example.com:443', '*.example.com', '10.0.0.1', '[::1]', 'localhost', 'com', APP_HOST, `tenant.${APP_HOST}`, 'a..example.com', '-x.example.com']) {
      const refused = await add(a, bad);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().error.details[0].field).toBe('hostname');
    }
    expect((await a.inject({ method: 'POST', url: '/v1/domains', payload: { hostname: 'x.example.com', extra: 1 } })).statusCode).toBe(400);
  });

  it('keeps an unverified domain unserved: the unknown-domain 404, no certificate, links on APP_URL', async () => {
    const res = await verify(a, domainA.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'pending', last_error: expect.stringContaining('no TXT record') });
    const page = await on('demos.example.com', `/s/${linkA.token}`, { accept: 'text/html' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Nothing is published on this domain');
    expect((await on('demos.example.com', `/v1/viewer/${linkA.token}`)).json().error.code).toBe('not_found');
    expect((await on(APP_HOST, '/tls/ask?domain=demos.example.com')).statusCode).toBe(404);
    const share = await t.app.inject({ method: 'GET', url: `/v1/shares/${linkA.id}`, headers: { authorization: `Bearer ${keyA}` } });
    expect(share.json().data.url).toBe(`https://${APP_HOST}/s/${linkA.token}`);
  });

  it('verifies by the TXT record; then links, demos and unfurls use the domain', async () => {
    const txt = txtOf(domainA);
    dns.txt.set(txt.name, ['v=spf1 -all', txt.value]);
    const res = await verify(a, domainA.id);
    expect(res.json().data).toMatchObject({ status: 'verified', verified_by: 'txt', last_error: null });
    const share = await t.app.inject({ method: 'GET', url: `/v1/shares/${linkA.id}`, headers: { authorization: `Bearer ${keyA}` } });
    expect(share.json().data).toMatchObject({
      url: `https://demos.example.com/s/${linkA.token}`,
      embed_url: `https://demos.example.com/embed/${linkA.token}`,
    });
    const demo = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoA}`, headers: { authorization: `Bearer ${keyA}` } });
    expect(demo.json().data.share_url).toBe(`https://demos.example.com/s/${linkA.token}`);
    // Workspace B has no domain: its links stay on APP_URL.
    const other = await t.app.inject({ method: 'GET', url: `/v1/shares/${linkB.id}`, headers: { authorization: `Bearer ${keyB}` } });
    expect(other.json().data.url).toBe(`https://${APP_HOST}/s/${linkB.token}`);
    // og:url names the domain even where the page is opened on APP_URL.
    const page = await on(APP_HOST, `/s/${linkA.token}`);
    expect(page.body).toContain(`<meta property="og:url" content="https://demos.example.com/s/${linkA.token}">`);
    expect((await on(APP_HOST, '/tls/ask?domain=DEMOS.example.com.')).statusCode).toBe(200);
    // A hub's addresses, and the links its entries open, are on the domain too.
    const hub = await t.app.inject({ method: 'POST', url: '/v1/hubs', headers: { authorization: `Bearer ${keyA}` }, payload: { name: 'Demo center', title: 'See it work' } });
    expect(hub.statusCode, hub.body).toBe(201);
    const { id: hubId, url: hubUrl, embed_url: hubEmbed } = hub.json().data as { id: string; url: string; embed_url: string };
    const hubToken = hubUrl.split('/h/')[1]!;
    expect(hubUrl).toBe(`https://demos.example.com/h/${hubToken}`);
    hubAddress = hubUrl;
    expect(hubEmbed).toBe(`https://demos.example.com/embed/h/${hubToken}`);
    const listed = await t.app.inject({ method: 'GET', url: '/v1/hubs', headers: { authorization: `Bearer ${keyA}` } });
    expect(listed.json().data[0].url).toBe(hubUrl);
    const collection = await t.app.inject({ method: 'POST', url: `/v1/hubs/${hubId}/collections`, headers: { authorization: `Bearer ${keyA}` }, payload: { name: 'Start here' } });
    const entry = await t.app.inject({
      method: 'POST',
      url: `/v1/hubs/${hubId}/entries`,
      headers: { authorization: `Bearer ${keyA}` },
      payload: { demo_id: demoA, collection_id: collection.json().data.id },
    });
    expect(entry.statusCode).toBe(201);
    const hubPage = await on('demos.example.com', `/h/${hubToken}`);
    expect(hubPage.statusCode).toBe(200);
    expect(hubPage.body).toContain(`<meta property="og:url" content="${hubUrl}">`);
    const state = await on('demos.example.com', `/v1/hub-viewer/${hubToken}`);
    expect(state.statusCode).toBe(200);
    const opened = await t.app.inject({
      method: 'POST',
      url: `/v1/hub-viewer/${hubToken}/entries/${entry.json().data.id}/open`,
      headers: { host: 'demos.example.com', cookie: [state.cookies].flat().map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data.page_url).toMatch(/^https:\/\/demos\.example\.com\/s\//);
  });

  it('serves the workspace’s links on its domain, with a host-only viewer cookie', async () => {
    for (const host of ['demos.example.com', 'DEMOS.EXAMPLE.COM.', 'demos.example.com:443']) {
      const page = await on(host, `/s/${linkA.token}`);
      expect(page.statusCode, host).toBe(200);
      expect(page.body).toContain(`content="https://demos.example.com/s/${linkA.token}"`);
    }
    expect((await on('demos.example.com', `/embed/${linkA.token}`)).statusCode).toBe(200);
    const state = await on('demos.example.com', `/v1/viewer/${linkA.token}`);
    expect(state.statusCode, state.body).toBe(200);
    const cookie = [state.headers['set-cookie']].flat().find((c) => String(c).startsWith('ds_view_')) as string;
    expect(cookie).toBeTruthy();
    expect(cookie.toLowerCase()).not.toContain('domain=');
    const demo = await t.app.inject({
      method: 'GET',
      url: `/v1/viewer/${linkA.token}/demo`,
      headers: { host: 'demos.example.com', 'x-viewer-session': state.json().data.session_token },
    });
    expect(demo.statusCode, demo.body).toBe(200);
  });

  it('answers 404 on the domain for another workspace’s link, page and API alike', async () => {
    const page = await on('demos.example.com', `/s/${linkB.token}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Secret roadmap tour');
    expect((await on('demos.example.com', `/embed/${linkB.token}`)).statusCode).toBe(404);
    expect((await on('demos.example.com', `/s/${linkB.token}/preview-image`)).statusCode).toBe(404);
    expect((await on('demos.example.com', `/v1/viewer/${linkB.token}`)).statusCode).toBe(404);
    const events = await t.app.inject({
      method: 'POST',
      url: `/v1/viewer/${linkB.token}/events`,
      headers: { host: 'demos.example.com' },
      payload: { events: [{ id: crypto.randomUUID(), type: 'view_started', occurred_at: clock.now().toISOString() }] },
    });
    expect(events.statusCode).toBe(404);
    const lead = await t.app.inject({ method: 'POST', url: `/v1/viewer/${linkB.token}/leads`, headers: { host: 'demos.example.com' }, payload: {} });
    expect(lead.statusCode).toBe(404);
    // The same link answers on the instance's own host.
    expect((await on(APP_HOST, `/s/${linkB.token}`)).statusCode).toBe(200);
  });

  it('serves nothing of the app on a custom domain, and never honours the session there', async () => {
    for (const url of ['/', '/demos', '/v1/demos', '/v1/account', '/v1/openapi.json', '/docs', '/healthz', '/oauth/authorize', '/tls/ask?domain=demos.example.com', '/mcp']) {
      // A custom domain is not a server of the API document (its `servers` is APP_URL): nothing there is promised.
      const res = await t.app.inject(unchecked({ method: 'GET' as const, url, headers: { host: 'demos.example.com', cookie: a.cookie, authorization: `Bearer ${keyA}` } }));
      expect(res.statusCode, url).toBe(404);
    }
    const me = await a.inject({ method: 'GET', url: '/v1/account', headers: { host: APP_HOST } });
    expect(me.statusCode).toBe(200);
    // Another workspace's logo is not served there either.
    expect((await on('demos.example.com', `/v1/workspace-logos/${b.workspaceId}/0123456789abcdef`)).statusCode).toBe(404);
  });

  it('sends a visitor who opens the domain itself where the workspace chose, and only there', async () => {
    const root = (host = 'demos.example.com', url = '/', method: 'GET' | 'HEAD' = 'GET') =>
      t.app.inject({ method, url, headers: { host, accept: 'text/html' } });
    const patch = (s: TestSession, id: string, payload: Record<string, unknown>) => s.inject(unchecked({ method: 'PATCH' as const, url: `/v1/domains/${id}`, payload }));
    const current = async () => (await a.inject({ method: 'GET', url: `/v1/domains/${domainA.id}` })).json().data;
    expect((await current()).root_url).toBeNull();
    expect((await root()).statusCode).toBe(404);

    const set = await patch(a, domainA.id, { root_url: hubAddress });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ hostname: 'demos.example.com', root_url: hubAddress });
    for (const [url, method] of [['/', 'GET'], ['/?utm_source=card', 'GET'], ['/', 'HEAD']] as const) {
      const res = await root('demos.example.com', url, method);
      expect(res.statusCode, `${method} ${url}`).toBe(302);
      expect(res.headers.location).toBe(hubAddress);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // Only the root: the rest of the domain is served as before, and the instance's own root is the app.
    expect((await root('demos.example.com', '/demos')).statusCode).toBe(404);
    expect((await root('demos.example.com', `/s/${linkA.token}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/', headers: { host: 'demos.example.com' } })).statusCode).toBe(404);
    expect((await root(APP_HOST)).headers.location).toBeUndefined();

    // Bad input is a 400 on the field and changes nothing; another workspace's domain is not found.
    for (const payload of [{ root_url: 'javascript:alert(1)' }, { root_url: 'ftp://example.com/' }, { root_url: 'demos.example.com' }, { root_url: `https://x.example.com/${'a'.repeat(2100)}` }, {}, { root_url: null, extra: 1 }]) {
      const refused = await patch(a, domainA.id, payload);
      expect(refused.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(refused.json().error.code).toBe('invalid_request');
    }
    expect((await patch(a, domainA.id, { root_url: 'javascript:alert(1)' })).json().error.details[0].field).toBe('root_url');
    expect((await patch(b, domainA.id, { root_url: 'https://evil.example/' })).statusCode).toBe(404);
    expect((await current()).root_url).toBe(hubAddress);
    expect((await root()).headers.location).toBe(hubAddress);

    // A domain not verified yet sends nowhere, whatever it is set to.
    const pending = ((await a.inject({ method: 'GET', url: '/v1/domains' })).json().data as { id: string; hostname: string }[]).find((d) => d.hostname === 'xn--dmos-bpa.exemple.fr')!;
    expect((await patch(a, pending.id, { root_url: 'https://www.example.com/' })).statusCode).toBe(200);
    const unverified = await root('xn--dmos-bpa.exemple.fr');
    expect(unverified.statusCode).toBe(404);
    expect(unverified.body).toContain('Nothing is published on this domain');

    // Back to nothing: the "Nothing here" page, from the next request on.
    expect((await patch(a, domainA.id, { root_url: null })).json().data.root_url).toBeNull();
    const nothing = await root();
    expect(nothing.statusCode).toBe(404);
    expect(nothing.body).toContain('This domain serves shared demos only');
    // Set once more for the audit: each change is an entry with the address before and after; the same value again is none.
    await patch(a, domainA.id, { root_url: 'https://www.example.com/product' });
    await patch(a, domainA.id, { root_url: 'https://www.example.com/product' });
    const audit = await a.inject({ method: 'GET', url: '/v1/audit-log?action=domain.changed&per_page=100' });
    const changes = (audit.json().data as Array<{ target: { label: string }; changes: { root_url: unknown } }>)
      .filter((e) => e.target.label === 'demos.example.com')
      .map((e) => e.changes.root_url);
    expect(changes).toEqual([
      { from: null, to: 'https://www.example.com/product' },
      { from: hubAddress, to: null },
      { from: null, to: hubAddress },
    ]);
    expect((await root()).headers.location).toBe('https://www.example.com/product');
  });

  it('takes X-Forwarded-Host only with TRUST_PROXY', async () => {
    const spoofed = await a.inject({ method: 'GET', url: '/v1/account', headers: { host: APP_HOST, 'x-forwarded-host': 'demos.example.com' } });
    expect(spoofed.statusCode).toBe(200);
    const proxied = await createTestApp({
      database: t.db,
      config: { APP_URL: `https://${APP_HOST}`, TRUST_PROXY: true, DNS_SERVERS: [dns.address] },
    });
    try {
      const viaProxy = await proxied.app.inject({ method: 'GET', url: `/s/${linkA.token}`, headers: { host: '127.0.0.1:3000', 'x-forwarded-host': 'demos.example.com' } });
      expect(viaProxy.statusCode).toBe(200);
      const app = await proxied.app.inject(unchecked({ method: 'GET' as const, url: '/v1/account', headers: { host: APP_HOST, cookie: a.cookie, 'x-forwarded-host': 'demos.example.com' } }));
      expect(app.statusCode).toBe(404);
      expect((await proxied.app.inject({ method: 'GET', url: `/s/${linkB.token}`, headers: { 'x-forwarded-host': 'demos.example.com' } })).statusCode).toBe(404);
    } finally {
      await proxied.close();
    }
  });

  it('lets only the workspace that verifies hold a name: a CNAME cannot take it, a TXT of another workspace neither', async () => {
    const claim = await add(b, 'demos.example.com');
    expect(claim.statusCode, claim.body).toBe(201);
    const claimB = claim.json().data;
    expect(txtOf(claimB).value).not.toBe(txtOf(domainA).value);
    dns.cname.set('demos.example.com', APP_HOST);
    const byCname = await verify(b, claimB.id);
    expect(byCname.statusCode, byCname.body).toBe(409);
    // Still A's.
    expect((await on('demos.example.com', `/s/${linkA.token}`)).statusCode).toBe(200);
    expect((await on('demos.example.com', `/s/${linkB.token}`)).statusCode).toBe(404);
    // Another workspace's id is a 404, an editor is refused.
    expect((await verify(b, domainA.id)).statusCode).toBe(404);
    expect((await b.inject({ method: 'DELETE', url: `/v1/domains/${domainA.id}` })).statusCode).toBe(404);
    const editor = await t.member(a, 'editor');
    expect((await editor.inject({ method: 'GET', url: '/v1/domains' })).statusCode).toBe(403);
    await b.inject({ method: 'DELETE', url: `/v1/domains/${claimB.id}` });
    dns.cname.delete('demos.example.com');
  });

  it('verifies by CNAME a name no one else claims, and a TXT of another workspace takes it over', async () => {
    dns.cname.set('go.example.org', `${APP_HOST}.`);
    const mine = (await add(b, 'go.example.org')).json().data;
    expect((await verify(b, mine.id)).json().data).toMatchObject({ status: 'verified', verified_by: 'cname' });
    expect((await on('go.example.org', `/s/${linkB.token}`)).statusCode).toBe(200);
    const theirs = (await add(a, 'go.example.org')).json().data;
    dns.txt.set(txtOf(theirs).name, [txtOf(theirs).value]);
    expect((await verify(a, theirs.id)).json().data).toMatchObject({ status: 'verified', verified_by: 'txt' });
    expect((await b.inject({ method: 'GET', url: `/v1/domains/${mine.id}` })).json().data).toMatchObject({
      status: 'pending',
      last_error: expect.stringContaining('TXT'),
    });
    expect((await on('go.example.org', `/s/${linkB.token}`)).statusCode).toBe(404);
    expect((await on('go.example.org', `/s/${linkA.token}`)).statusCode).toBe(200);
    // It was B's only verified domain: B's links are back on APP_URL, and the entry of the loss says so.
    const linkBNow = (await t.app.inject({ method: 'GET', url: `/v1/shares/${linkB.id}`, headers: { authorization: `Bearer ${keyB}` } })).json().data;
    expect(linkBNow.url).toBe(`https://${APP_HOST}/s/${linkB.token}`);
    expect(await unverifiedEntries(b, mine.id)).toEqual([
      { actor: 'system', changes: { reason: 'taken over by a TXT verification', links: { from: 'https://go.example.org', to: `https://${APP_HOST}` } } },
    ]);
    // Held by a TXT: a CNAME cannot take it back.
    expect((await verify(b, mine.id)).statusCode).toBe(409);
    // With two claims and no holder, a CNAME alone verifies neither.
    dns.cname.set('two.example.org', APP_HOST);
    const first = (await add(a, 'two.example.org')).json().data;
    const second = (await add(b, 'two.example.org')).json().data;
    for (const [who, row] of [[a, first], [b, second]] as const) {
      expect((await verify(who, row.id)).json().data).toMatchObject({ status: 'pending', last_error: expect.stringContaining('another workspace') });
    }
    expect((await on(APP_HOST, '/tls/ask?domain=two.example.org')).statusCode).toBe(404);
  });

  it('lets an admin choose which verified domain the links use, while the others keep serving them', async () => {
    type Row = { id: string; hostname: string; status: string; primary: boolean; root_url: string | null };
    const patch = (s: TestSession, id: string, payload: Record<string, unknown>) => s.inject({ method: 'PATCH', url: `/v1/domains/${id}`, payload });
    const listOf = async (s: TestSession) => (await s.inject({ method: 'GET', url: '/v1/domains?per_page=100' })).json().data as Row[];
    const primaries = async () => (await listOf(a)).filter((d) => d.primary).map((d) => d.hostname);
    const idOf = async (hostname: string) => (await listOf(a)).find((d) => d.hostname === hostname)!.id;
    const bearerA = { authorization: `Bearer ${keyA}` };
    const hubToken = hubAddress.split('/h/')[1];
    // Every address handed out for the workspace: a link's, a demo's, a hub's, and the unfurl of the page opened on APP_URL.
    const addresses = async (app = t.app) => {
      const share = (await app.inject({ method: 'GET', url: `/v1/shares/${linkA.id}`, headers: bearerA })).json().data;
      const demo = (await app.inject({ method: 'GET', url: `/v1/demos/${demoA}`, headers: bearerA })).json().data;
      const hub = (await app.inject({ method: 'GET', url: '/v1/hubs', headers: bearerA })).json().data[0];
      const page = await app.inject({ method: 'GET', url: `/s/${linkA.token}`, headers: { host: APP_HOST } });
      const og = /<meta property="og:url" content="([^"]+)">/.exec(page.body)?.[1];
      return { url: share.url, embed: share.embed_url, demo: demo.share_url, hub: hub.url, og };
    };
    const on_ = (host: string) => ({
      url: `https://${host}/s/${linkA.token}`,
      embed: `https://${host}/embed/${linkA.token}`,
      demo: `https://${host}/s/${linkA.token}`,
      hub: `https://${host}/h/${hubToken}`,
      og: `https://${host}/s/${linkA.token}`,
    });
    const addVerified = async (hostname: string) => {
      const added = (await add(a, hostname)).json().data;
      dns.txt.set(txtOf(added).name, [txtOf(added).value]);
      clock.advance(60_000);
      expect((await verify(a, added.id)).json().data).toMatchObject({ status: 'verified', primary: false });
      return added.id as string;
    };

    // Without a choice, the oldest verified domain is the primary one, and exactly one is.
    expect(await primaries()).toEqual(['demos.example.com']);
    expect(await addresses()).toEqual(on_('demos.example.com'));
    const goId = await idOf('go.example.org');
    // A second instance on the same database (PostgreSQL: another process's cache, fed by LISTEN/NOTIFY) caches the old address.
    const other =
      engine === 'postgres'
        ? await createTestApp({ database: t.db, config: { APP_URL: `https://${APP_HOST}`, DNS_SERVERS: [dns.address] } })
        : undefined;
    try {
      if (other) expect((await addresses(other.app)).url).toBe(on_('demos.example.com').url);

      const chosen = await patch(a, goId, { primary: true });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json().data).toMatchObject({ hostname: 'go.example.org', status: 'verified', primary: true });
      expect(await primaries()).toEqual(['go.example.org']);
      expect(await addresses()).toEqual(on_('go.example.org'));
      if (other) await expect.poll(async () => (await addresses(other.app)).url, { timeout: 3_000, interval: 50 }).toBe(on_('go.example.org').url);
    } finally {
      await other?.close();
    }
    // The domain links used before keeps serving them (its unfurl names the new one); the new one serves them too.
    for (const host of ['demos.example.com', 'go.example.org']) {
      const page = await on(host, `/s/${linkA.token}`);
      expect(page.statusCode, host).toBe(200);
      expect(page.body).toContain(`<meta property="og:url" content="https://go.example.org/s/${linkA.token}">`);
      expect((await on(host, `/embed/${linkA.token}`)).statusCode, host).toBe(200);
      expect((await on(host, `/h/${hubToken}`)).statusCode, host).toBe(200);
      expect((await on(host, `/v1/viewer/${linkA.token}`)).statusCode, host).toBe(200);
    }
    // The same choice again changes nothing (no audit entry either, counted below).
    expect((await patch(a, goId, { primary: true })).json().data.primary).toBe(true);

    // A domain not verified is refused with 409, with its root_url of the same request: nothing changes.
    const pending = (await listOf(a)).find((d) => d.hostname === 'xn--dmos-bpa.exemple.fr')!;
    for (const payload of [{ primary: true }, { primary: true, root_url: 'https://changed.example.com/' }]) {
      const refused = await patch(a, pending.id, payload);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'conflict', message: expect.stringContaining('is not verified') });
    }
    // Bad input is a 400 on the field and changes nothing, root_url included.
    const rootBefore = (await listOf(a)).find((d) => d.id === domainA.id)!.root_url;
    for (const payload of [{ primary: false }, { primary: 'yes' }, { primary: 1 }, { primary: null }, { primary: true, extra: 1 }, { primary: true, root_url: 'javascript:alert(1)' }, { root_url: 'https://x.example.com/', primary: false }]) {
      const refused = await a.inject(unchecked({ method: 'PATCH' as const, url: `/v1/domains/${domainA.id}`, payload }));
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.code).toBe('invalid_request');
    }
    const refusedFalse = (await patch(a, domainA.id, { primary: false })).json().error;
    expect(refusedFalse.details[0]).toEqual({ field: 'primary', message: expect.stringContaining('can only be true') });
    expect(refusedFalse.message).toContain('another verified domain');
    // Another workspace's domain is not found; that workspace's own pending claim is refused as not verified.
    expect((await patch(b, domainA.id, { primary: true })).statusCode).toBe(404);
    const claimB = (await listOf(b)).find((d) => d.status === 'pending')!;
    expect((await patch(b, claimB.id, { primary: true })).statusCode).toBe(409);
    expect(await primaries()).toEqual(['go.example.org']);
    expect((await listOf(a)).find((d) => d.id === domainA.id)!.root_url).toBe(rootBefore);
    expect(await addresses()).toEqual(on_('go.example.org'));

    // The database holds the rules whatever the code does: one chosen domain per workspace, only a verified one.
    const failure = async (query: ReturnType<typeof sql>) =>
      t.ctx.database.db.execute(query).then(
        () => 'accepted',
        (error: { message: string; cause?: { message: string } }) => error.cause?.message ?? error.message,
      );
    expect(await failure(sql`update custom_domains set is_primary = true where workspace_id = ${a.workspaceId} and status = 'verified'`)).toMatch(
      /custom_domains_primary_uq/,
    );
    expect(await failure(sql`update custom_domains set is_primary = true where id = ${pending.id}`)).toMatch(/custom_domains_primary_verified_ck/);

    // Two admins choosing at once: both succeed one after the other, and exactly one domain is primary.
    const raced = await Promise.all([patch(a, domainA.id, { primary: true }), patch(a, goId, { primary: true })]);
    expect(raced.map((r) => r.statusCode)).toEqual([200, 200]);
    const winner = await primaries();
    expect(winner).toHaveLength(1);
    expect((await addresses()).url).toBe(on_(winner[0]!).url);
    await patch(a, goId, { primary: true });

    // The chosen domain removed: links fall back to the oldest verified one left.
    const shortId = await addVerified('short.example.net');
    expect((await patch(a, shortId, { primary: true })).json().data.primary).toBe(true);
    expect(await addresses()).toEqual(on_('short.example.net'));
    expect((await a.inject({ method: 'DELETE', url: `/v1/domains/${shortId}` })).statusCode).toBe(204);
    expect(await primaries()).toEqual(['demos.example.com']);
    expect(await addresses()).toEqual(on_('demos.example.com'));
    // The entry of the removal says where links went, as the entry of a loss does.
    expect(await removedEntries(a, shortId)).toEqual([
      {
        actor: 'user',
        changes: { hostname: 'short.example.net', status: 'verified', links: { from: 'https://short.example.net', to: 'https://demos.example.com' } },
      },
    ]);

    // The chosen domain taken over by another workspace's TXT record: the same fallback.
    dns.cname.set('links.example.net', APP_HOST);
    const mine = (await add(a, 'links.example.net')).json().data;
    expect((await verify(a, mine.id)).json().data).toMatchObject({ status: 'verified', verified_by: 'cname' });
    expect((await patch(a, mine.id, { primary: true })).statusCode).toBe(200);
    expect((await addresses()).url).toBe(on_('links.example.net').url);
    const theirs = (await add(b, 'links.example.net')).json().data;
    dns.txt.set(txtOf(theirs).name, [txtOf(theirs).value]);
    expect((await verify(b, theirs.id)).json().data).toMatchObject({ status: 'verified', primary: true });
    expect((await a.inject({ method: 'GET', url: `/v1/domains/${mine.id}` })).json().data).toMatchObject({ status: 'pending', primary: false });
    expect(await primaries()).toEqual(['demos.example.com']);
    expect(await addresses()).toEqual(on_('demos.example.com'));
    // The entry of the loss says where links went: the oldest verified domain left.
    expect((await unverifiedEntries(a, mine.id))[0]?.changes).toEqual({
      reason: 'taken over by a TXT verification',
      links: { from: 'https://links.example.net', to: 'https://demos.example.com' },
    });

    // Each switch is a domain.changed entry per domain whose `primary` changed, with before and after.
    const audit = await a.inject({ method: 'GET', url: '/v1/audit-log?action=domain.changed&per_page=100' });
    const switches = (audit.json().data as Array<{ target: { label: string }; changes: { primary?: { from: boolean; to: boolean } } }>)
      .filter((e) => e.changes.primary)
      .map((e) => `${e.target.label}: ${e.changes.primary?.from} → ${e.changes.primary?.to}`);
    expect(switches.slice(0, 6).sort()).toEqual(
      ['demos.example.com: true → false', 'links.example.net: false → true', 'go.example.org: true → false', 'short.example.net: false → true', 'demos.example.com: true → false', 'go.example.org: false → true'].sort(),
    );
    // A pair for each switch: the first, the race's and the way back to go.example.org (two, whichever won), short.example.net
    // and links.example.net; none for the same choice again, the refusals, a removal or a take-over.
    expect(switches).toHaveLength(10);

    // Chosen explicitly once more (it is the primary already only by age), for the re-check below.
    await patch(a, goId, { primary: true });
    await patch(a, domainA.id, { primary: true });
    expect(await primaries()).toEqual(['demos.example.com']);
  });

  it('stops serving a domain whose records stay gone past the grace (re-check)', async () => {
    const txt = txtOf(domainA);
    dns.txt.delete(txt.name);
    clock.advance(7 * 3600_000);
    const first = await t.ctx.services.domains.domains.recheckDue(6 * 3600_000);
    expect(first).toEqual({ checked: expect.any(Number), lost: 0 });
    let row = (await a.inject({ method: 'GET', url: `/v1/domains/${domainA.id}` })).json().data;
    expect(row).toMatchObject({ status: 'verified', failing_since: expect.any(String), last_error: expect.stringContaining('TXT') });
    expect((await on('demos.example.com', `/s/${linkA.token}`)).statusCode).toBe(200);
    clock.advance(7 * 3600_000);
    const second = await t.ctx.services.domains.domains.recheckDue(6 * 3600_000);
    expect(second.lost).toBeGreaterThanOrEqual(1);
    row = (await a.inject({ method: 'GET', url: `/v1/domains/${domainA.id}` })).json().data;
    expect(row).toMatchObject({ status: 'failed', primary: false });
    expect((await on('demos.example.com', `/s/${linkA.token}`)).statusCode).toBe(404);
    expect((await on(APP_HOST, '/tls/ask?domain=demos.example.com')).statusCode).toBe(404);
    // It was the chosen domain: links fall back to the oldest verified one left, and the entry of the loss says so.
    const shareUrl = async () => (await t.app.inject({ method: 'GET', url: `/v1/shares/${linkA.id}`, headers: { authorization: `Bearer ${keyA}` } })).json().data.url;
    expect(await shareUrl()).toBe(`https://go.example.org/s/${linkA.token}`);
    const [lapse] = await unverifiedEntries(a, domainA.id);
    expect(lapse).toEqual({
      actor: 'system',
      changes: { reason: expect.stringContaining('TXT'), links: { from: 'https://demos.example.com', to: 'https://go.example.org' } },
    });
    // The records back and verified again: served again, but links stay where they went until an admin chooses it again.
    dns.txt.set(txt.name, [txt.value]);
    expect((await verify(a, domainA.id)).json().data).toMatchObject({ status: 'verified', primary: false });
    expect((await on('demos.example.com', `/s/${linkA.token}`)).statusCode).toBe(200);
    expect(await shareUrl()).toBe(`https://go.example.org/s/${linkA.token}`);

    // Lost again while links use another domain: nothing moves, and the entry names no links.
    dns.txt.delete(txt.name);
    for (let i = 0; i < 2; i++) {
      clock.advance(7 * 3600_000);
      await t.ctx.services.domains.domains.recheckDue(6 * 3600_000);
    }
    expect((await a.inject({ method: 'GET', url: `/v1/domains/${domainA.id}` })).json().data.status).toBe('failed');
    expect(await shareUrl()).toBe(`https://go.example.org/s/${linkA.token}`);
    const entries = await unverifiedEntries(a, domainA.id);
    expect(entries).toHaveLength(2);
    expect(entries[0]!.changes).toEqual({ reason: expect.stringContaining('TXT') });
  });

  it('forgets a removed domain at once: 404 there, no certificate, links back on APP_URL', async () => {
    const res = await a.inject({ method: 'DELETE', url: `/v1/domains/${domainA.id}` });
    expect(res.statusCode).toBe(204);
    // Failed, so links no longer used it: nothing moved, and its entry names no links.
    expect(await removedEntries(a, domainA.id)).toEqual([{ actor: 'user', changes: { hostname: 'demos.example.com', status: 'failed' } }]);
    expect((await on('demos.example.com', `/s/${linkA.token}`)).statusCode).toBe(404);
    expect((await on('demos.example.com', `/v1/viewer/${linkA.token}`)).statusCode).toBe(404);
    expect((await on(APP_HOST, '/tls/ask?domain=demos.example.com')).statusCode).toBe(404);
    const shareUrl = async () =>
      (await t.app.inject({ method: 'GET', url: `/v1/shares/${linkA.id}`, headers: { authorization: `Bearer ${keyA}` } })).json().data.url;
    // Links move to the workspace's other verified domain (the oldest left), then back to APP_URL.
    expect(await shareUrl()).toBe(`https://go.example.org/s/${linkA.token}`);
    // A verified domain links do not use, removed: nothing moves, and its entry names no links.
    const spare = await verifiedDomain(a, 'spare.example.org');
    expect((await a.inject({ method: 'DELETE', url: `/v1/domains/${spare}` })).statusCode).toBe(204);
    expect(await shareUrl()).toBe(`https://go.example.org/s/${linkA.token}`);
    expect(await removedEntries(a, spare)).toEqual([{ actor: 'user', changes: { hostname: 'spare.example.org', status: 'verified' } }]);
    const rest = (await a.inject({ method: 'GET', url: '/v1/domains' })).json().data as { id: string; hostname: string }[];
    const goId = rest.find((d) => d.hostname === 'go.example.org')!.id;
    expect((await a.inject({ method: 'DELETE', url: `/v1/domains/${goId}` })).statusCode).toBe(204);
    expect(await shareUrl()).toBe(`https://${APP_HOST}/s/${linkA.token}`);
    // The last verified domain removed: links are back on APP_URL, and the entry says so.
    expect(await removedEntries(a, goId)).toEqual([
      { actor: 'user', changes: { hostname: 'go.example.org', status: 'verified', links: { from: 'https://go.example.org', to: `https://${APP_HOST}` } } },
    ]);
    expect((await on('go.example.org', `/s/${linkA.token}`)).statusCode).toBe(404);
    const audit = await a.inject({ method: 'GET', url: '/v1/audit-log?per_page=100' });
    const actions = (audit.json().data as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['domain.added', 'domain.verified', 'domain.unverified', 'domain.removed']));
  });

  // A removal that waits for another admin's choice of the links' domain reads which domain links use once that
  // choice is in: the move was the choice's, and the removal's entry must not claim it. Held open on another
  // connection, which PGlite (one connection) cannot do.
  it.skipIf(engine !== 'postgres')('names no move in the removal entry when links moved by a choice it waited for', async () => {
    const c = await t.signUp();
    const oldest = await verifiedDomain(c, 'first.example.io');
    const other = await verifiedDomain(c, 'second.example.io');
    let release!: () => void;
    let chosen!: () => void;
    const choiceMade = new Promise<void>((resolve) => {
      chosen = resolve;
    });
    // As choosePrimary does: the workspace's domains locked, then the other one chosen, not committed yet.
    const choice = t.ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from custom_domains where workspace_id = ${c.workspaceId} order by id for update`);
      await tx.execute(sql`update custom_domains set is_primary = true where id = ${other}`);
      chosen();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await choiceMade;
    const removal = c.inject({ method: 'DELETE', url: `/v1/domains/${oldest}` });
    const waiting = async () =>
      (
        await t.db.database.executeSql(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%custom_domains%'",
        )
      ).rows[0]?.n;
    try {
      await expect.poll(waiting, { timeout: 15_000 }).toBe(1);
    } finally {
      release();
      await choice;
    }
    expect((await removal).statusCode).toBe(204);
    expect(await removedEntries(c, oldest)).toEqual([{ actor: 'user', changes: { hostname: 'first.example.io', status: 'verified' } }]);
    expect((await c.inject({ method: 'GET', url: `/v1/domains/${other}` })).json().data.primary).toBe(true);
  });
});
