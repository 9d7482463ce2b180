import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { events } from '../src/events/events.tables';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

describe('viewer gates and the viewer JSON API', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;
  const clock = manualClock(new Date());

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { SHARE_PASSWORD_ATTEMPTS: 5 } });
    key = await t.apiKey('all');
    demoId = await demoWithSteps(t, key, 3);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });

  it('plays an open link: ready, cookie, demo payload with gated asset URLs', async () => {
    const share = await createShare(t, key, demoId);
    const v = viewerClient(t, share.token);
    const state = await v.call('GET', '');
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json().data).toMatchObject({ gate: 'ready', share: { require_identification: false, has_password: false } });
    const cookie = (state.cookies as Array<{ name: string; httpOnly?: boolean; sameSite?: string; path?: string }>)[0]!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const demo = await v.call('GET', '/demo');
    expect(demo.statusCode).toBe(200);
    const data = demo.json().data;
    expect(data.title).toBe('Secret roadmap tour');
    expect(data.steps).toHaveLength(3);
    expect(data.steps[0]).toMatchObject({ number: 1, title: 'Step 1', description: 'Look at part 1', width: 8, height: 4 });
    expect(data.steps[0].hotspots[0]).toMatchObject({ label: 'Click 1', action: { type: 'next' } });
    expect(data.steps[0].image_url).toMatch(new RegExp(`^/v1/viewer/${share.token}/assets/ast_`));
    const image = await v.call('GET', data.steps[0].image_url.replace(`/v1/viewer/${share.token}`, ''));
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(demo.json().meta.request_id).toBe(demo.headers['x-request-id']);
  });

  it('answers 404 for an unknown token and for a malformed one', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/viewer/${'x'.repeat(43)}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'not_found' });
    expect((await t.app.inject({ method: 'GET', url: '/v1/viewer/short' })).statusCode).toBe(400);
  });

  it('shows nothing of an unpublished demo: 404 "not published yet", on the page too', async () => {
    const draft = await demoWithSteps(t, key, 1, false);
    const share = await createShare(t, key, draft);
    const res = await t.app.inject({ method: 'GET', url: `/v1/viewer/${share.token}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('This demo is not published yet');
    expect(res.json().error.details).toEqual([{ field: 'gate', message: 'not_published' }]);
    expect(res.body).not.toContain('Secret roadmap');
    const demo = await t.app.inject({ method: 'GET', url: `/v1/viewer/${share.token}/demo` });
    expect(demo.statusCode).toBe(404);
    expect(demo.body).not.toContain('Step 1');
    const page = await t.app.inject({ method: 'GET', url: `/s/${share.token}` });
    expect(page.statusCode).toBe(404);
    // Publishing opens it at once: the cache is dropped by the edit.
    expect((await call('PATCH', `/v1/demos/${draft}`, { status: 'published' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/v1/viewer/${share.token}` })).statusCode).toBe(200);
    expect((await call('PATCH', `/v1/demos/${draft}`, { status: 'draft' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/v1/viewer/${share.token}/demo` })).statusCode).toBe(404);
  });

  it('serves a published demo’s edits once they are published (the payload cache is invalidated)', async () => {
    const share = await createShare(t, key, demoId);
    const v = viewerClient(t, share.token);
    await v.call('GET', '');
    expect((await v.call('GET', '/demo')).json().data.title).toBe('Secret roadmap tour');
    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Renamed tour' });
    expect((await v.call('GET', '/demo')).json().data.title).toBe('Secret roadmap tour');
    expect((await call('POST', `/v1/demos/${demoId}/publish`)).statusCode).toBe(200);
    expect((await v.call('GET', '/demo')).json().data.title).toBe('Renamed tour');
    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Secret roadmap tour' });
    await call('POST', `/v1/demos/${demoId}/publish`);
  });

  it('revalidates: 304 without a body for an unchanged demo or asset, after the gates; a new ETag after an edit', async () => {
    const share = await createShare(t, key, demoId, { password: 'etag pony' });
    const v = viewerClient(t, share.token, '192.0.2.44');
    await v.call('GET', '');
    const ifNoneMatch = (path: string, tag: string, withCookie = true) =>
      t.app.inject({
        method: 'GET',
        url: `/v1/viewer/${share.token}${path}`,
        remoteAddress: '192.0.2.44',
        headers: { 'if-none-match': tag, ...(withCookie ? { cookie: [...v.jar].map(([k, val]) => `${k}=${val}`).join('; ') } : {}) },
      });
    // Before the password, a validator opens nothing: the gate answers, not a 304.
    expect((await ifNoneMatch('/demo', '*')).statusCode).toBe(401);
    expect((await v.call('POST', '/unlock', { password: 'etag pony' })).statusCode).toBe(200);

    const first = await v.call('GET', '/demo');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await ifNoneMatch('/demo', `"other", ${etag}`);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // Another viewer without the cookie gets the gate, even with the right validator.
    expect((await ifNoneMatch('/demo', etag, false)).statusCode).toBe(401);

    const imagePath = first.json().data.steps[0].image_url.split(`/v1/viewer/${share.token}`)[1];
    const image = await v.call('GET', imagePath);
    expect((await ifNoneMatch(imagePath, image.headers.etag as string)).statusCode).toBe(304);
    expect((await ifNoneMatch(imagePath, '"stale"')).statusCode).toBe(200);

    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Retitled for the validator' });
    // A draft edit changes nothing a viewer sees: still a 304 until the changes are published.
    expect((await ifNoneMatch('/demo', etag)).statusCode).toBe(304);
    await call('POST', `/v1/demos/${demoId}/publish`);
    const changed = await ifNoneMatch('/demo', etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.title).toBe('Retitled for the validator');
    expect(changed.headers.etag).not.toBe(etag);
    await call('PATCH', `/v1/demos/${demoId}`, { title: 'Secret roadmap tour' });
    await call('POST', `/v1/demos/${demoId}/publish`);
  });

  it('password gate: nothing before it, 401 on a wrong one, a cookie on the right one', async () => {
    const share = await createShare(t, key, demoId, { password: 'correct pony' });
    const v = viewerClient(t, share.token, '192.0.2.10');
    const state = await v.call('GET', '');
    expect(state.json().data).toMatchObject({ gate: 'password', share: { has_password: true } });
    expect(state.body).not.toContain('Secret roadmap');
    const locked = await v.call('GET', '/demo');
    expect(locked.statusCode).toBe(401);
    expect(locked.json().error.details).toEqual([{ field: 'gate', message: 'password' }]);
    const wrong = await v.call('POST', '/unlock', { password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({ code: 'unauthorized', message: 'Wrong password' });
    const right = await v.call('POST', '/unlock', { password: 'correct pony' });
    expect(right.statusCode).toBe(200);
    expect(right.json().data.gate).toBe('ready');
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);
  });

  it('blocks brute force: 429 with Retry-After after 5 failures, even for the right password', async () => {
    const share = await createShare(t, key, demoId, { password: 'the real one' });
    const v = viewerClient(t, share.token, '192.0.2.66');
    for (let i = 0; i < 5; i++) expect((await v.call('POST', '/unlock', { password: `guess ${i}` })).statusCode).toBe(401);
    const blocked = await v.call('POST', '/unlock', { password: 'guess 6' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const right = await v.call('POST', '/unlock', { password: 'the real one' });
    expect(right.statusCode).toBe(429);
    expect((await v.call('GET', '/demo')).statusCode).toBe(401);
    // Another address is not blocked by this one's failures.
    const other = viewerClient(t, share.token, '192.0.2.67');
    expect((await other.call('POST', '/unlock', { password: 'the real one' })).statusCode).toBe(200);
    const log = await call('GET', `/v1/shares/${share.id}/access-log?per_page=100`);
    const decisions = log.json().data.map((e: { decision: string }) => e.decision);
    expect(decisions.filter((d: string) => d === 'wrong_password')).toHaveLength(5);
    expect(decisions.filter((d: string) => d === 'blocked')).toHaveLength(2);
  });

  it('a password change signs out every viewer who unlocked with the old one', async () => {
    const share = await createShare(t, key, demoId, { password: 'old password' });
    const v = viewerClient(t, share.token, '192.0.2.20');
    await v.call('POST', '/unlock', { password: 'old password' });
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);
    expect((await call('PATCH', `/v1/shares/${share.id}`, { password: 'new password' })).statusCode).toBe(200);
    expect((await v.call('GET', '/demo')).statusCode).toBe(401);
    expect((await v.call('GET', '')).json().data.gate).toBe('password');
    expect((await v.call('POST', '/unlock', { password: 'old password' })).statusCode).toBe(401);
    expect((await v.call('POST', '/unlock', { password: 'new password' })).statusCode).toBe(200);
  });

  it('a revoked link is 404 at once, even with a valid cookie; an expired one is 410', async () => {
    const revoked = await createShare(t, key, demoId);
    const v = viewerClient(t, revoked.token);
    await v.call('GET', '');
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);
    expect((await call('DELETE', `/v1/shares/${revoked.id}`)).statusCode).toBe(204);
    expect((await v.call('GET', '/demo')).statusCode).toBe(404);
    expect((await v.call('GET', '')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/s/${revoked.token}` })).statusCode).toBe(404);
    // The owners can still read who tried the revoked link.
    const revokedLog = await call('GET', `/v1/shares/${revoked.id}/access-log`);
    expect(revokedLog.statusCode).toBe(200);
    expect(revokedLog.json().data[0].decision).toBe('revoked');

    const expiring = await createShare(t, key, demoId, { expires_at: new Date(clock.now().getTime() + 60_000).toISOString() });
    const w = viewerClient(t, expiring.token);
    await w.call('GET', '');
    expect((await w.call('GET', '/demo')).statusCode).toBe(200);
    clock.advance(61_000);
    const gone = await w.call('GET', '/demo');
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error).toMatchObject({ code: 'gone', message: 'This link has expired' });
    expect((await w.call('GET', '')).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: `/embed/${expiring.token}` })).statusCode).toBe(410);
    const log = await call('GET', `/v1/shares/${expiring.id}/access-log`);
    expect(log.json().data[0].decision).toBe('expired');
  });

  it('a cookie of link A does nothing on link B', async () => {
    const a = await createShare(t, key, demoId, { password: 'alpha pass' });
    const b = await createShare(t, key, demoId, { password: 'bravo pass' });
    const v = viewerClient(t, a.token, '192.0.2.30');
    await v.call('POST', '/unlock', { password: 'alpha pass' });
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);
    // Send A's session as B's cookie and as the header: neither opens B.
    const value = [...v.jar.values()][0]!;
    const gate = (await t.app.inject({ method: 'GET', url: `/v1/viewer/${b.token}` })).json().data.gate;
    expect(gate).toBe('password');
    for (const headers of [{ 'x-viewer-session': value }, { cookie: [...v.jar].map(([k, val]) => `${k}=${val}`).join('; ') }]) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/viewer/${b.token}/demo`, headers });
      expect(res.statusCode).toBe(401);
    }
  });

  it('identification: allow-lists decide, viewer.identified is emitted, the form gates the demo', async () => {
    const share = await createShare(t, key, demoId, {
      require_identification: true,
      allowed_emails: ['ann@partner.com'],
      allowed_domains: ['acme.com'],
    });
    const v = viewerClient(t, share.token, '192.0.2.40');
    expect((await v.call('GET', '')).json().data.gate).toBe('identification');
    const locked = await v.call('GET', '/demo');
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error.details).toEqual([{ field: 'gate', message: 'identification' }]);
    const refused = await v.call('POST', '/identify', { name: 'Eve', email: 'eve@evil.com' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    expect(refused.json().error.message).toMatch(/not allowed/);
    const sub = await v.call('POST', '/identify', { name: 'Sub', email: 'x@eu.acme.com' });
    expect(sub.statusCode).toBe(403);
    expect((await v.call('POST', '/identify', { name: 'Bad', email: 'not an address' })).statusCode).toBe(400);
    const ok = await v.call('POST', '/identify', { name: 'Bob', email: 'Bob@Acme.com' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ gate: 'ready', viewer: { name: 'Bob', email: 'bob@acme.com' } });
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);
    const listed = viewerClient(t, share.token, '192.0.2.41');
    expect((await listed.call('POST', '/identify', { name: 'Ann', email: 'ann@partner.com' })).statusCode).toBe(200);
    const identified = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'viewer.identified'));
    expect(identified.map((e) => (e.data as { viewer_email: string }).viewer_email)).toEqual(
      expect.arrayContaining(['bob@acme.com', 'ann@partner.com']),
    );
    const log = await call('GET', `/v1/shares/${share.id}/access-log?per_page=100`);
    expect(log.json().data.map((e: { decision: string }) => e.decision)).toContain('not_allowed');
  });

  it('password then identification, in that order', async () => {
    const share = await createShare(t, key, demoId, { password: 'both gates', require_identification: true });
    const v = viewerClient(t, share.token, '192.0.2.50');
    expect((await v.call('POST', '/identify', { name: 'Kim', email: 'kim@x.com' })).statusCode).toBe(401);
    const unlocked = await v.call('POST', '/unlock', { password: 'both gates' });
    expect(unlocked.json().data.gate).toBe('identification');
    expect((await v.call('POST', '/identify', { name: 'Kim', email: 'kim@x.com' })).json().data.gate).toBe('ready');
  });

  it('does not serve assets of another demo through a link', async () => {
    const other = await demoWithSteps(t, key, 1);
    const detail = await call('GET', `/v1/demos/${other}`);
    const foreignAsset = detail.json().data.steps[0].image_url.split('/assets/')[1];
    const share = await createShare(t, key, demoId);
    const v = viewerClient(t, share.token);
    await v.call('GET', '');
    expect((await v.call('GET', `/assets/${foreignAsset}`)).statusCode).toBe(404);
  });

  it('serves the pages with the player shell, the JSON config block and a strict CSP', async () => {
    const share = await createShare(t, key, demoId);
    const page = await t.app.inject({ method: 'GET', url: `/s/${share.token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<script id="demoshare-player-config" type="application/json">');
    expect(page.body).toContain(`"token":"${share.token}"`);
    expect(page.body).toContain('"embed":false');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline\'; script');
    // A snapshot shown through srcdoc inherits this policy: the captured site's images, styles and fonts load.
    expect(csp).toMatch(/img-src 'self' data: http: https:/);
    expect(csp).toMatch(/style-src 'self' 'unsafe-inline' http: https:/);
    expect(csp).toMatch(/font-src 'self' data: http: https:/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    const embed = await t.app.inject({ method: 'GET', url: `/embed/${share.token}` });
    expect(embed.statusCode).toBe(200);
    expect(embed.body).toContain('"embed":true');
    expect(String(embed.headers['content-security-policy'])).toContain('frame-ancestors *');
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/s/unknown-token-123' })).statusCode).toBe(404);
  });

  it('gives a link anyone may open a preview (Open Graph, Twitter card), and a protected link none of its steps', async () => {
    const tag = (body: string, key: string) =>
      new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(body)?.[1];
    const open = await createShare(t, key, demoId);
    const page = (await t.app.inject({ method: 'GET', url: `/s/${open.token}` })).body;
    // Named after the sharing workspace, which is what a viewer knows.
    expect(page).toMatch(/<title>Secret roadmap tour · [^<]+<\/title>/);
    expect(tag(page, 'og:site_name')).toBe(/<title>Secret roadmap tour · ([^<]+)<\/title>/.exec(page)![1]);
    expect(tag(page, 'og:title')).toBe('Secret roadmap tour');
    expect(tag(page, 'og:description')).toBe('Look at part 1');
    expect(tag(page, 'og:url')).toBe(open.url);
    expect(tag(page, 'twitter:card')).toBe('summary_large_image');
    // Absolute, on APP_URL, and served to a crawler that has no viewer session.
    const image = tag(page, 'og:image')!;
    expect(image).toMatch(new RegExp(`^http://localhost:3000/v1/viewer/${open.token}/assets/ast_`));
    const fetched = await t.app.inject({ method: 'GET', url: new URL(image).pathname });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/png');

    // A protected link unfurls under the workspace's name, without the steps' text or screenshots; behind a
    // password without the title either (test/viewer-gate.test.ts covers the owner's choices).
    for (const body of [{ password: 'a long enough password' }, { require_identification: true }]) {
      const locked = await createShare(t, key, demoId, body);
      for (const path of [`/s/${locked.token}`, `/embed/${locked.token}`]) {
        const html = (await t.app.inject({ method: 'GET', url: path })).body;
        if ('password' in body) expect(html).not.toContain('Secret roadmap');
        else expect(tag(html, 'og:title')).toBe('Secret roadmap tour');
        expect(html).not.toContain('Look at part');
        expect(tag(html, 'og:image')).toBeUndefined();
        expect(html).not.toContain('/assets/');
      }
    }
  });

  it('rate-limits the pages on the viewer budget of the address (429 with Retry-After)', async () => {
    const limited = await createTestApp({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 3 } });
    try {
      const k = await limited.apiKey('all');
      const demo = await demoWithSteps(limited, k, 1);
      const share = await createShare(limited, k, demo);
      const page = (path: string, ip: string) => limited.app.inject({ method: 'GET', url: `${path}/${share.token}`, remoteAddress: ip });
      for (const path of ['/s', '/embed', '/s']) expect((await page(path, '198.51.100.77')).statusCode).toBe(200);
      const blocked = await page('/embed', '198.51.100.77');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.code).toBe('rate_limited');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Another address has a budget of its own.
      expect((await page('/s', '198.51.100.78')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
