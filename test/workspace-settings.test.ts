import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from './helpers/images';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

describe('workspace settings and branding', () => {
  let t: TestApp;
  let admin: TestSession;
  let editor: TestSession;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signUp();
    editor = await t.member(admin, 'editor');
    key = await t.apiKey('all', admin);
  });
  afterAll(() => t?.close());

  const get = async (who: TestSession = admin) => (await who.inject({ method: 'GET', url: '/v1/workspace' })).json().data;
  const patch = (payload: object, who: TestSession = admin) => who.inject({ method: 'PATCH', url: '/v1/workspace', payload });
  const putLogo = (body: Buffer, type = 'image/png', who: TestSession = admin) =>
    who.inject({ method: 'PUT', url: '/v1/workspace/logo', payload: body, headers: { 'content-type': type } });
  const audit = async (action: string) =>
    (await admin.inject({ method: 'GET', url: `/v1/audit-log?action=${action}` })).json().data as Array<{ changes: Record<string, unknown> }>;

  it('starts with the defaults, and every member reads them', async () => {
    const settings = await get(editor);
    expect(settings).toMatchObject({
      id: admin.workspaceId,
      branding: { brand_color: null, font: 'system', logo_url: null, logo: null },
      share_defaults: { require_identification: false, expires_in_days: null },
    });
    // Web session only: no contract scope covers workspace settings.
    const byKey = await t.app.inject({ method: 'GET', url: '/v1/workspace', headers: bearer(key) });
    expect(byKey.statusCode).toBe(403);
  });

  it('refuses bad values with the field named, and changes nothing', async () => {
    const before = await get();
    const cases: Array<[object, string]> = [
      [{ branding: { brand_color: 'red' } }, 'branding.brand_color'],
      [{ branding: { brand_color: '#12345' } }, 'branding.brand_color'],
      [{ branding: { font: 'comic-sans' } }, 'branding.font'],
      [{ share_defaults: { expires_in_days: 0 } }, 'share_defaults.expires_in_days'],
      [{ share_defaults: { expires_in_days: 366 } }, 'share_defaults.expires_in_days'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(121) }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const unknown = await patch({ branding: { css: 'body{}' } });
    expect(unknown.statusCode).toBe(400);
    expect(await get()).toEqual(before);
  });

  it('lets admins alone change them, and records what changed', async () => {
    expect((await patch({ name: 'Editors rule' }, editor)).statusCode).toBe(403);
    expect((await putLogo(makePng(40, 20), 'image/png', editor)).statusCode).toBe(403);
    expect((await editor.inject({ method: 'DELETE', url: '/v1/workspace/logo' })).statusCode).toBe(403);

    const res = await patch({ name: 'Acme', branding: { brand_color: '#0F766E', font: 'serif' }, share_defaults: { expires_in_days: 14 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Acme',
      branding: { brand_color: '#0f766e', font: 'serif' },
      share_defaults: { require_identification: false, expires_in_days: 14 },
    });
    const [entry] = await audit('workspace.changed');
    expect(entry!.changes).toEqual({
      name: { from: expect.any(String), to: 'Acme' },
      brand_color: { from: null, to: '#0f766e' },
      font: { from: 'system', to: 'serif' },
      'share_defaults.expires_in_days': { from: null, to: 14 },
    });
    // The same values again change nothing and record nothing.
    const count = (await audit('workspace.changed')).length;
    expect((await patch({ name: 'Acme', branding: { font: 'serif' } })).statusCode).toBe(200);
    expect(await audit('workspace.changed')).toHaveLength(count);
    // The session shows the new name.
    expect((await admin.inject({ method: 'GET', url: '/v1/auth/session' })).json().data.workspace.name).toBe('Acme');
  });

  it('takes a PNG, JPEG or WebP logo read from its bytes, within its limits, and serves it publicly', async () => {
    const svg = await putLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    expect(svg.statusCode).toBe(415);
    const text = await putLogo(Buffer.from('not an image at all'), 'image/png');
    expect(text.statusCode).toBe(415);
    expect(text.json().error.message).toMatch(/not a PNG, JPEG or WebP/);
    const huge = await putLogo(Buffer.concat([makePng(10, 10), randomBytes(600 * 1024)]));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.message).toContain('512 KB');
    const wide = await putLogo(makePng(3000, 2));
    expect(wide.statusCode).toBe(400);
    expect(wide.json().error.message).toContain('3000 × 2');
    expect((await get()).branding.logo).toBeNull();

    const png = makePng(120, 40, [15, 118, 110]);
    const res = await putLogo(png);
    expect(res.statusCode, res.body).toBe(200);
    const { logo_url, logo } = res.json().data.branding;
    expect(logo).toEqual({ content_type: 'image/png', width: 120, height: 40 });
    expect(logo_url).toMatch(new RegExp(`^/v1/workspace-logos/${admin.workspaceId}/[0-9a-f]{16}$`));

    const served = await t.app.inject({ method: 'GET', url: logo_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(png)).toBe(true);

    // A new logo gets a new address; the old one is gone.
    const second = (await putLogo(makePng(60, 20, [200, 10, 10]))).json().data.branding.logo_url;
    expect(second).not.toBe(logo_url);
    expect((await t.app.inject({ method: 'GET', url: logo_url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v1/workspace-logos/${admin.workspaceId}/zz` })).statusCode).toBe(400);

    expect((await admin.inject({ method: 'DELETE', url: '/v1/workspace/logo' })).statusCode).toBe(204);
    expect((await get()).branding).toMatchObject({ logo_url: null, logo: null });
    expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(404);
    const logoEntries = (await audit('workspace.changed')).filter((e) => 'logo' in e.changes);
    expect(logoEntries.length).toBeGreaterThanOrEqual(3);
  });

  it('gives new links the share defaults where a request leaves them out', async () => {
    const demoId = await demoWithSteps(t, key, 1);
    expect((await patch({ share_defaults: { require_identification: true, expires_in_days: 14 } })).statusCode).toBe(200);
    const defaulted = await t.app.inject({ method: 'POST', url: `/v1/demos/${demoId}/shares`, headers: bearer(key), payload: {} });
    const share = defaulted.json().data;
    expect(share.require_identification).toBe(true);
    const days = (Date.parse(share.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const explicit = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/shares`,
      headers: bearer(key),
      payload: { require_identification: false, expires_at: null },
    });
    expect(explicit.json().data).toMatchObject({ require_identification: false, expires_at: null });
    await patch({ share_defaults: { require_identification: false, expires_in_days: null } });
    const plain = await t.app.inject({ method: 'POST', url: `/v1/demos/${demoId}/shares`, headers: bearer(key), payload: {} });
    expect(plain.json().data).toMatchObject({ require_identification: false, expires_at: null });
  });

  it('gives demos without a colour of their own the brand colour, in the editor and for viewers at once', async () => {
    await patch({ branding: { brand_color: '#0f766e', font: 'serif' } });
    const demoId = await demoWithSteps(t, key, 1);
    const demo = async () => (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) })).json().data;
    expect((await demo()).configuration.theme_color).toBe('#0f766e');

    const link = await createShare(t, key, demoId);
    const viewer = viewerClient(t, link.token);
    await viewer.call('GET', '');
    const payload = async () => (await viewer.call('GET', '/demo')).json().data;
    const first = await payload();
    expect(first.configuration.theme_color).toBe('#0f766e');
    expect(first.brand).toEqual({ name: 'Acme', color: '#0f766e', font: 'serif', logo_url: null });

    // A change of brand shows to viewers and in the editor right away (caches follow it).
    await patch({ branding: { brand_color: '#b42318' } });
    expect((await payload()).configuration.theme_color).toBe('#b42318');
    expect((await demo()).configuration.theme_color).toBe('#b42318');

    // A demo's own colour wins; null makes it follow the brand again.
    const own = await t.app.inject({ method: 'PATCH', url: `/v1/demos/${demoId}`, headers: bearer(key), payload: { configuration: { theme_color: '#123456' } } });
    expect(own.json().data.configuration.theme_color).toBe('#123456');
    await patch({ branding: { brand_color: '#0f766e' } });
    expect((await demo()).configuration.theme_color).toBe('#123456');
    const back = await t.app.inject({ method: 'PATCH', url: `/v1/demos/${demoId}`, headers: bearer(key), payload: { configuration: { theme_color: null } } });
    expect(back.json().data.configuration.theme_color).toBe('#0f766e');
    // Published demos follow too: the brand is applied when the version is served, not frozen in it.
    await t.app.inject({ method: 'POST', url: `/v1/demos/${demoId}/publish`, headers: bearer(key) });
    expect((await payload()).configuration.theme_color).toBe('#0f766e');
  });

  it('puts the brand on the share page of a live link, and none on an unknown one', async () => {
    const demoId = await demoWithSteps(t, key, 1);
    const link = await createShare(t, key, demoId, { password: 'a long enough password' });
    const page = await t.app.inject({ method: 'GET', url: `/s/${link.token}` });
    const boot = JSON.parse(/<script id="demoshare-player-config" type="application\/json">(.*?)<\/script>/.exec(page.body)![1]!);
    expect(boot.brand).toMatchObject({ name: 'Acme', color: '#0f766e', font: 'serif' });
    // A locked link shows who shares it, never what: no title, no preview.
    expect(page.body).not.toContain('Secret roadmap');
    const unknown = await t.app.inject({ method: 'GET', url: '/s/no-such-link-token-at-all' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).not.toContain('"brand"');
  });
});
