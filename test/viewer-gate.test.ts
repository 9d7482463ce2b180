// The one gate (POST /v1/viewer/:token/access), what a gated link shows before it, and its link unfurls.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../src/events/events.tables';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const BOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const PASSWORD = 'lighthouse-42';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** The content of a `<meta property|name="key">` of a page, unescaped. */
const tag = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1]?.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

describe('the one gate and link unfurls', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;
  let stepImage: string;
  let workspaceName: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { SHARE_PASSWORD_ATTEMPTS: 3 } });
    key = await t.apiKey('all');
    demoId = await demoWithSteps(t, key, 2);
    const demo = (await call('GET', `/v1/demos/${demoId}`)).json().data;
    stepImage = /ast_[A-Za-z0-9_-]+$/.exec(demo.steps[1].image_url)![0];
    const open = await createShare(t, key, demoId);
    workspaceName = (await viewerClient(t, open.token).call('GET', '')).json().data.brand.name;
    expect(workspaceName).toBeTruthy();
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const page = async (path: string) => {
    const res = await t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': BOT } });
    return { status: res.statusCode, html: res.body };
  };

  it('keeps the new share fields optional, validated and clearable', async () => {
    const plain = await call('POST', `/v1/demos/${demoId}/shares`, {});
    expect(plain.json().data).toMatchObject({
      preview_title: null,
      preview_description: null,
      preview_image_asset_id: null,
      preview_image_url: null,
      show_title_before_unlock: false,
    });
    const made = await call('POST', `/v1/demos/${demoId}/shares`, {
      preview_title: '  Invoicing in two minutes ',
      preview_image_asset_id: stepImage,
      show_title_before_unlock: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    const share = made.json().data;
    expect(share).toMatchObject({ preview_title: 'Invoicing in two minutes', preview_image_asset_id: stepImage, show_title_before_unlock: true });
    expect(share.preview_image_url).toBe(`${share.url}/preview-image`);

    // An image of another demo, an unknown id, a malformed one, an empty title: 400 on the field, nothing changed.
    const other = await demoWithSteps(t, key, 1);
    const otherImage = /ast_[A-Za-z0-9_-]+$/.exec((await call('GET', `/v1/demos/${other}`)).json().data.steps[0].image_url)![0];
    for (const [body, field] of [
      [{ preview_image_asset_id: otherImage }, 'preview_image_asset_id'],
      [{ preview_image_asset_id: 'ast_nope' }, 'preview_image_asset_id'],
      [{ preview_image_asset_id: 'shr_x' }, 'preview_image_asset_id'],
      [{ preview_title: '' }, 'preview_title'],
      [{ preview_title: 'x'.repeat(101) }, 'preview_title'],
      [{ preview_description: 'x'.repeat(201) }, 'preview_description'],
      [{ show_title_before_unlock: 'yes' }, 'show_title_before_unlock'],
    ] as const) {
      const res = await call('PATCH', `/v1/shares/${share.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await call('GET', `/v1/shares/${share.id}`)).json().data.preview_image_asset_id).toBe(stepImage);
    const cleared = await call('PATCH', `/v1/shares/${share.id}`, { preview_title: null, preview_image_asset_id: null });
    expect(cleared.json().data).toMatchObject({ preview_title: null, preview_image_asset_id: null, preview_image_url: null });
  });

  it('tells the gate what it needs: fields, the workspace, and the title only where allowed', async () => {
    const both = await createShare(t, key, demoId, { password: PASSWORD, require_identification: true });
    const state = (await viewerClient(t, both.token).call('GET', '')).json().data;
    expect(state).toMatchObject({ gate: 'password', fields: ['password', 'name', 'email'], title: null });
    expect(state.brand.name).toBe(workspaceName);
    expect(JSON.stringify(state)).not.toContain('Secret roadmap');

    const shown = await createShare(t, key, demoId, { password: PASSWORD, show_title_before_unlock: true });
    expect((await viewerClient(t, shown.token).call('GET', '')).json().data).toMatchObject({
      fields: ['password'],
      title: 'Secret roadmap tour',
    });
    const named = await createShare(t, key, demoId, { password: PASSWORD, preview_title: 'A tour for Acme' });
    expect((await viewerClient(t, named.token).call('GET', '')).json().data.title).toBe('A tour for Acme');
    const identify = await createShare(t, key, demoId, { require_identification: true });
    expect((await viewerClient(t, identify.token).call('GET', '')).json().data).toMatchObject({
      gate: 'identification',
      fields: ['name', 'email'],
      title: 'Secret roadmap tour',
    });
  });

  it('passes password and identification in one submit, with each error on its field and nothing stored before', async () => {
    const share = await createShare(t, key, demoId, {
      password: PASSWORD,
      require_identification: true,
      allowed_domains: ['acme.com'],
    });
    const v = viewerClient(t, share.token, '198.51.100.21');
    const fields = (res: { json(): { error: { details: { field: string }[] } } }) =>
      res.json().error.details.map((d) => d.field);

    const empty = await v.call('POST', '/access', {});
    expect(empty.statusCode).toBe(400);
    expect(fields(empty)).toEqual(['password', 'name', 'email']);
    const badEmail = await v.call('POST', '/access', { password: PASSWORD, name: 'Jane', email: 'jane@' });
    expect(badEmail.statusCode).toBe(400);
    expect(fields(badEmail)).toEqual(['email']);

    const wrong = await v.call('POST', '/access', { password: 'guess', name: 'Jane', email: 'jane@acme.com' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.details).toEqual([
      { field: 'gate', message: 'password' },
      { field: 'password', message: 'That password is not correct' },
    ]);
    const outsider = await v.call('POST', '/access', { password: PASSWORD, name: 'Eve', email: 'eve@globex.com' });
    expect(outsider.statusCode).toBe(403);
    expect(fields(outsider)).toEqual(['gate', 'email']);
    // Nothing was stored by the refused submits: the password gate is still closed.
    expect((await v.call('GET', '')).json().data).toMatchObject({ gate: 'password', fields: ['password', 'name', 'email'] });
    expect((await v.call('GET', '/demo')).statusCode).toBe(401);

    const passed = await v.call('POST', '/access', { password: PASSWORD, name: 'Jane Doe', email: 'Jane@Acme.com' });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json().data).toMatchObject({
      gate: 'ready',
      fields: [],
      title: 'Secret roadmap tour',
      viewer: { name: 'Jane Doe', email: 'jane@acme.com' },
    });
    expect(passed.json().data.session_token).toBeTruthy();
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);

    const identified = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'viewer.identified'));
    expect(identified.some((e) => (e.data as { share_id: string }).share_id === share.id)).toBe(true);
    const log = (await call('GET', `/v1/shares/${share.id}/access-log?per_page=100`)).json().data;
    const decisions = log.map((e: { decision: string }) => e.decision);
    expect(decisions).toEqual(expect.arrayContaining(['wrong_password', 'not_allowed', 'unlocked', 'identified']));
  });

  it('shares the password budget with /unlock: no new way to guess', async () => {
    const share = await createShare(t, key, demoId, { password: PASSWORD });
    const v = viewerClient(t, share.token, '198.51.100.22');
    for (let i = 0; i < 2; i++) expect((await v.call('POST', '/access', { password: `guess ${i}` })).statusCode).toBe(401);
    expect((await v.call('POST', '/unlock', { password: 'guess 3' })).statusCode).toBe(401);
    // The budget (3) is spent across both routes: even the right password is refused on either.
    const blocked = await v.call('POST', '/access', { password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await v.call('POST', '/unlock', { password: PASSWORD })).statusCode).toBe(429);
  });

  it('still takes the two steps of before: /unlock, then /identify', async () => {
    const share = await createShare(t, key, demoId, { password: PASSWORD, require_identification: true });
    const v = viewerClient(t, share.token, '198.51.100.23');
    const unlocked = await v.call('POST', '/unlock', { password: PASSWORD });
    expect(unlocked.json().data).toMatchObject({ gate: 'identification', fields: ['name', 'email'], title: 'Secret roadmap tour' });
    expect((await v.call('POST', '/identify', { name: 'Ann', email: 'ann@example.com' })).json().data.gate).toBe('ready');
    // And the one form for the rest of a gate half passed: only the fields still asked.
    const w = viewerClient(t, share.token, '198.51.100.24');
    await w.call('POST', '/unlock', { password: PASSWORD });
    const rest = await w.call('POST', '/access', { name: 'Bo', email: 'bo@example.com' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().data.gate).toBe('ready');
  });

  it('unfurls an open link with its demo, named after the workspace', async () => {
    const open = await createShare(t, key, demoId);
    const { status, html } = await page(`/s/${open.token}`);
    expect(status).toBe(200);
    expect(tag(html, 'og:site_name')).toBe(workspaceName);
    expect(tag(html, 'og:title')).toBe('Secret roadmap tour');
    expect(tag(html, 'og:description')).toBe('Look at part 1');
    expect(tag(html, 'og:image')).toMatch(new RegExp(`^http://localhost:3000/v1/viewer/${open.token}/assets/ast_`));
  });

  it('unfurls a password link without its title, text or screenshots unless the owner chose them', async () => {
    const locked = await createShare(t, key, demoId, { password: PASSWORD });
    for (const path of [`/s/${locked.token}`, `/embed/${locked.token}`]) {
      const { status, html } = await page(path);
      expect(status).toBe(200);
      expect(tag(html, 'og:site_name')).toBe(workspaceName);
      expect(tag(html, 'og:title')).toBe(`${workspaceName} shared a demo with you`);
      expect(tag(html, 'og:image')).toBeUndefined();
      expect(html).not.toContain('Secret roadmap');
      expect(html).not.toContain('Look at part');
      expect(html).not.toContain('/assets/');
    }
    const chosen = await createShare(t, key, demoId, {
      password: PASSWORD,
      preview_title: 'Acme × Us: the tour',
      preview_description: 'Two minutes, no sign-up.',
      preview_image_asset_id: stepImage,
    });
    const { html } = await page(`/s/${chosen.token}`);
    expect(tag(html, 'og:title')).toBe('Acme × Us: the tour');
    expect(tag(html, 'og:description')).toBe('Two minutes, no sign-up.');
    expect(tag(html, 'twitter:card')).toBe('summary_large_image');
    expect(html).not.toContain('Secret roadmap');
    const image = tag(html, 'og:image')!;
    expect(image).toBe(`http://localhost:3000/s/${chosen.token}/preview-image`);
    // A crawler has no session and no password: the chosen image is served to it all the same.
    const fetched = await t.app.inject({ method: 'GET', url: new URL(image).pathname, headers: { 'user-agent': BOT } });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/png');
    // ...but the demo's other assets stay behind the password.
    const step = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps[0].image_url as string;
    const asset = /ast_[A-Za-z0-9_-]+$/.exec(step)![0];
    expect((await t.app.inject({ method: 'GET', url: `/v1/viewer/${chosen.token}/assets/${asset}` })).statusCode).toBe(401);

    const shown = await createShare(t, key, demoId, { password: PASSWORD, show_title_before_unlock: true });
    const titled = (await page(`/s/${shown.token}`)).html;
    expect(tag(titled, 'og:title')).toBe('Secret roadmap tour');
    expect(titled).not.toContain('Look at part');
    expect(tag(titled, 'og:image')).toBeUndefined();
  });

  it('unfurls an identification link with its title but none of its steps', async () => {
    const share = await createShare(t, key, demoId, { require_identification: true });
    const { html } = await page(`/s/${share.token}`);
    expect(tag(html, 'og:title')).toBe('Secret roadmap tour');
    expect(tag(html, 'og:site_name')).toBe(workspaceName);
    expect(html).not.toContain('Look at part');
    expect(html).not.toContain('/assets/');
  });

  it('serves no preview image for a link without one, nor for a revoked or expired link', async () => {
    const none = await createShare(t, key, demoId);
    expect((await t.app.inject({ method: 'GET', url: `/s/${none.token}/preview-image` })).statusCode).toBe(404);
    const chosen = await createShare(t, key, demoId, { preview_image_asset_id: stepImage });
    expect((await t.app.inject({ method: 'GET', url: `/s/${chosen.token}/preview-image` })).statusCode).toBe(200);
    expect((await call('DELETE', `/v1/shares/${chosen.id}`)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/s/${chosen.token}/preview-image` })).statusCode).toBe(404);
  });
});
