import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets } from '../src/demos/demos.tables';
import { makeJpegHeader, makePng, makeWebpHeader } from './helpers/images';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

describe('demo editor: steps, hotspots, images', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { STEP_IMAGE_MAX_BYTES: 64 * 1024 } });
    key = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: unknown) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });
  const upload = (url: string, body: Buffer, type = 'image/png') =>
    t.app.inject({ method: 'POST', url, headers: { ...bearer(key), 'content-type': type }, payload: body });
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

  async function newDemo() {
    const res = await call('POST', '/v1/demos', { title: 'Editor demo' });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  }
  async function addSteps(id: string, titles: string[]) {
    const out = [];
    for (const title of titles) {
      const res = await call('POST', `/v1/demos/${id}/steps`, { title });
      expect(res.statusCode, res.body).toBe(201);
      out.push(res.json().data);
    }
    return out;
  }
  const demo = async (id: string) => (await call('GET', `/v1/demos/${id}`)).json().data;
  const assetCount = async () => (await t.ctx.database.db.select({ n: count() }).from(assets))[0]!.n;

  describe('steps', () => {
    it('adds blank steps at the end or at a given number', async () => {
      const id = await newDemo();
      await addSteps(id, ['A', 'C']);
      const res = await call('POST', `/v1/demos/${id}/steps`, { title: 'B', description: 'between', number: 2 });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ number: 2, title: 'B', description: 'between', image_url: null, width: null });
      expect((await demo(id)).steps.map((s: { title: string; number: number }) => `${s.number}${s.title}`)).toEqual(['1A', '2B', '3C']);
    });

    it('edits step text with PATCH', async () => {
      const id = await newDemo();
      const [step] = await addSteps(id, ['Old']);
      const res = await call('PATCH', `/v1/demos/${id}/steps/${step.id}`, { title: 'New', description: 'Click Save', page_url: 'https://example.com/x' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: step.id, number: 1, title: 'New', description: 'Click Save', page_url: 'https://example.com/x' });
      const bad = await call('PATCH', `/v1/demos/${id}/steps/${step.id}`, { title: 'x'.repeat(201) });
      expect(bad.statusCode).toBe(400);
      expect((await demo(id)).steps[0].title).toBe('New');
    });

    it('deletes a step and renumbers the rest', async () => {
      const id = await newDemo();
      const [a, b] = await addSteps(id, ['A', 'B', 'C']);
      expect((await call('DELETE', `/v1/demos/${id}/steps/${b.id}`)).statusCode).toBe(204);
      expect((await demo(id)).steps.map((s: { title: string; number: number }) => `${s.number}${s.title}`)).toEqual(['1A', '2C']);
      expect((await call('DELETE', `/v1/demos/${id}/steps/${b.id}`)).statusCode).toBe(404);
      expect((await call('PATCH', `/v1/demos/${id}/steps/${b.id}`, { title: 'x' })).statusCode).toBe(404);
      expect(a.number).toBe(1);
    });

    it('reorders, deletes, edits and adds with PUT', async () => {
      const id = await newDemo();
      const [a, b, c] = await addSteps(id, ['A', 'B', 'C']);
      const hs = await call('POST', `/v1/demos/${id}/steps/${a.id}/hotspots`, {
        x: 0.5, y: 0.5, width: 0.1, height: 0.1, action: { type: 'goto', target: 3 },
      });
      expect(hs.json().data.action).toEqual({ type: 'goto', target: 3 });
      const res = await call('PUT', `/v1/demos/${id}/steps`, { steps: [c.id, { id: a.id, title: 'A2' }, { title: 'New' }] });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json().data;
      expect(body.steps.map((s: { title: string; number: number }) => `${s.number}${s.title}`)).toEqual(['1C', '2A2', '3New']);
      expect(body.steps.some((s: { id: string }) => s.id === b.id)).toBe(false);
      // The goto target follows the step it points at, wherever it moved.
      expect(body.hotspots[0]).toMatchObject({ step_id: a.id, step_number: 2, action: { type: 'goto', target: 1 } });
    });

    it.each([
      ['an unknown step', (ids: string[]) => [...ids, 'step_01jd3k7q9x8v2m4n6p0r5s7t9w'], 'not a step of this demo'],
      ['a duplicate', (ids: string[]) => [ids[0], ids[0]], 'listed twice'],
    ])('refuses a list with %s (400) and changes nothing', async (_label, build, message) => {
      const id = await newDemo();
      const steps = await addSteps(id, ['A', 'B']);
      const before = await demo(id);
      const res = await call('PUT', `/v1/demos/${id}/steps`, { steps: build(steps.map((s) => s.id)) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].message).toContain(message);
      expect(await demo(id)).toEqual(before);
    });

    it('keeps at least one step in a published demo (409)', async () => {
      const id = await newDemo();
      const [only] = await addSteps(id, ['Only']);
      expect((await call('PATCH', `/v1/demos/${id}`, { status: 'published' })).statusCode).toBe(200);
      expect((await call('DELETE', `/v1/demos/${id}/steps/${only.id}`)).statusCode).toBe(409);
      expect((await call('PUT', `/v1/demos/${id}/steps`, { steps: [] })).statusCode).toBe(409);
      expect((await demo(id)).step_count).toBe(1);
    });

    it('refuses step edits while the demo is generating (409)', async () => {
      const res = await call('POST', '/v1/demos', { source_url: 'https://example.com', generate_with_ai: true });
      const id = res.json().data.id;
      const edit = await call('POST', `/v1/demos/${id}/steps`, { title: 'x' });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().error.message).toContain('being generated');
    });
  });

  describe('images', () => {
    it('creates a step from an uploaded PNG and serves it with ETag and private caching', async () => {
      const id = await newDemo();
      const png = makePng(64, 32);
      const res = await upload(`/v1/demos/${id}/steps`, png);
      expect(res.statusCode, res.body).toBe(201);
      const step = res.json().data;
      expect(step).toMatchObject({ number: 1, width: 64, height: 32 });
      expect(step.image_url).toMatch(new RegExp(`/v1/demos/${id}/assets/ast_[0-9a-z]{26}$`));
      expect((await demo(id)).thumbnail_url).toBe(step.image_url);

      const img = await call('GET', path(step.image_url));
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect(img.headers['cache-control']).toContain('private');
      expect(img.rawPayload.equals(png)).toBe(true);
      const again = await t.app.inject({
        method: 'GET',
        url: path(step.image_url),
        headers: { ...bearer(key), 'if-none-match': img.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
      const reader = await t.apiKey(['team:read']);
      expect((await t.app.inject({ method: 'GET', url: path(step.image_url), headers: bearer(reader) })).statusCode).toBe(403);
    });

    it('replaces a step image, reading the type from the bytes, and drops the old asset', async () => {
      const id = await newDemo();
      const step = (await upload(`/v1/demos/${id}/steps`, makePng(10, 10))).json().data;
      const before = await assetCount();
      // Declared as PNG, actually a JPEG: the bytes win.
      const res = await upload(`/v1/demos/${id}/steps/${step.id}/image`, makeJpegHeader(300, 200), 'image/png');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ width: 300, height: 200 });
      expect(res.json().data.image_url).not.toBe(step.image_url);
      expect(await assetCount()).toBe(before);
      const img = await call('GET', path(res.json().data.image_url));
      expect(img.headers['content-type']).toBe('image/jpeg');
      expect((await call('GET', path(step.image_url))).statusCode).toBe(404);

      const webp = await upload(`/v1/demos/${id}/steps/${step.id}/image`, makeWebpHeader(1280, 720), 'image/webp');
      expect(webp.json().data).toMatchObject({ width: 1280, height: 720 });
    });

    it.each([
      ['text pretending to be a PNG', Buffer.from('definitely not an image, just text'), 'image/png', 415],
      ['a truncated PNG', makePng(4, 4).subarray(0, 12), 'image/png', 415],
      ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif', 415],
      ['an image over STEP_IMAGE_MAX_BYTES', Buffer.concat([makePng(4, 4), Buffer.alloc(70 * 1024)]), 'image/png', 413],
    ])('refuses %s and stores nothing', async (_label, body, type, status) => {
      const id = await newDemo();
      const [step] = await addSteps(id, ['A']);
      const before = await assetCount();
      const res = await upload(`/v1/demos/${id}/steps/${step.id}/image`, body, type);
      expect(res.statusCode).toBe(status);
      expect(res.json().error.code).toBe(status === 413 ? 'payload_too_large' : 'unsupported_media_type');
      // The refusal states the limit it went over: this route's, not the server's BODY_LIMIT.
      if (status === 413) expect(res.json().error.message).toBe('Request body is too large: the limit is 64 KB');
      const created = await upload(`/v1/demos/${id}/steps`, body, type);
      expect(created.statusCode).toBe(status);
      expect(await assetCount()).toBe(before);
      expect((await demo(id)).steps).toHaveLength(1);
      expect((await demo(id)).steps[0].image_url).toBeNull();
    });

    it('refuses a JSON body on the image route (400)', async () => {
      const id = await newDemo();
      const [step] = await addSteps(id, ['A']);
      const res = await call('POST', `/v1/demos/${id}/steps/${step.id}/image`, { url: 'https://example.com/x.png' });
      expect(res.statusCode).toBe(400);
    });

    it('refuses unknown fields in a JSON step (400)', async () => {
      const id = await newDemo();
      const res = await call('POST', `/v1/demos/${id}/steps`, { title: 'x', image: 'data:...' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toContainEqual({ field: 'image', message: 'unknown field' });
      expect((await demo(id)).steps).toHaveLength(0);
    });
  });

  describe('hotspots', () => {
    it('adds, moves, relabels and deletes a hotspot', async () => {
      const id = await newDemo();
      const [step] = await addSteps(id, ['A']);
      const created = await call('POST', `/v1/demos/${id}/steps/${step.id}/hotspots`, {
        x: 0.1, y: 0.2, width: 0.3, height: 0.1, selector: '#save', label: 'Save', tooltip: 'Click to save',
        action: { type: 'url', target: 'https://example.com/signup' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const hs = created.json().data;
      expect(hs).toMatchObject({ id: expect.stringMatching(/^hs_/), step_number: 1, selector: '#save', action: { type: 'url', target: 'https://example.com/signup' } });
      // Relabelling keeps the selector; moving the box by hand drops it, so the player keeps the new place.
      const relabelled = await call('PATCH', `/v1/demos/${id}/steps/${step.id}/hotspots/${hs.id}`, { x: 0.1, label: 'Keep' });
      expect(relabelled.json().data).toMatchObject({ label: 'Keep', selector: '#save' });
      const moved = await call('PATCH', `/v1/demos/${id}/steps/${step.id}/hotspots/${hs.id}`, { x: 0.6, y: 0.7, label: 'Moved' });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data).toMatchObject({ x: 0.6, y: 0.7, width: 0.3, height: 0.1, label: 'Moved', tooltip: 'Click to save', selector: null });
      const pinned = await call('PATCH', `/v1/demos/${id}/steps/${step.id}/hotspots/${hs.id}`, { width: 0.2, selector: '#other' });
      expect(pinned.json().data).toMatchObject({ width: 0.2, selector: '#other' });
      expect((await call('DELETE', `/v1/demos/${id}/steps/${step.id}/hotspots/${hs.id}`)).statusCode).toBe(204);
      expect((await demo(id)).hotspots).toEqual([]);
      expect((await call('DELETE', `/v1/demos/${id}/steps/${step.id}/hotspots/${hs.id}`)).statusCode).toBe(404);
    });

    it.each([
      [{ x: -0.1, y: 0, width: 0.1, height: 0.1 }, 'x'],
      [{ x: 0, y: 1.2, width: 0.1, height: 0.1 }, 'y'],
      [{ x: 0, y: 0, width: 0, height: 0.1 }, 'width'],
      [{ x: 0.8, y: 0, width: 0.3, height: 0.1 }, 'width'],
      [{ x: 0, y: 0.95, width: 0.1, height: 0.1 }, 'height'],
      [{ x: 0, y: 0, width: 0.1 }, 'height'],
      [{ x: 0, y: 0, width: 0.1, height: 0.1, action: { type: 'goto', target: 9 } }, 'action.target'],
      [{ x: 0, y: 0, width: 0.1, height: 0.1, action: { type: 'url', target: 'javascript:alert(1)' } }, 'action.target'],
      [{ x: 0, y: 0, width: 0.1, height: 0.1, action: { type: 'jump' } }, 'action.type'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const id = await newDemo();
      const [step] = await addSteps(id, ['A']);
      const res = await call('POST', `/v1/demos/${id}/steps/${step.id}/hotspots`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect((await demo(id)).hotspots).toEqual([]);
    });

    it('refuses a move that would leave the image (400) and keeps the hotspot where it was', async () => {
      const id = await newDemo();
      const [step] = await addSteps(id, ['A']);
      const hs = (await call('POST', `/v1/demos/${id}/steps/${step.id}/hotspots`, { x: 0.1, y: 0.1, width: 0.5, height: 0.5 })).json().data;
      const res = await call('PATCH', `/v1/demos/${id}/steps/${step.id}/hotspots/${hs.id}`, { x: 0.6 });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].field).toBe('width');
      expect((await demo(id)).hotspots[0].x).toBe(0.1);
    });

    it('answers 404 for a hotspot addressed through another step', async () => {
      const id = await newDemo();
      const [a, b] = await addSteps(id, ['A', 'B']);
      const hs = (await call('POST', `/v1/demos/${id}/steps/${a.id}/hotspots`, { x: 0, y: 0, width: 0.5, height: 0.5 })).json().data;
      expect((await call('PATCH', `/v1/demos/${id}/steps/${b.id}/hotspots/${hs.id}`, { x: 0.1 })).statusCode).toBe(404);
      expect((await call('DELETE', `/v1/demos/${id}/steps/${b.id}/hotspots/${hs.id}`)).statusCode).toBe(404);
    });
  });

  describe('GET /v1/demos/:id after writes (the detail is cached per revision)', () => {
    it('shows every kind of write at once, with the same body the write itself answered', async () => {
      const id = await newDemo();
      const [step] = await addSteps(id, ['First']);
      const seen = async () => {
        const res = await call('GET', `/v1/demos/${id}`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        return res.json().data;
      };
      expect((await seen()).steps.map((s: { title: string }) => s.title)).toEqual(['First']);

      const renamed = await call('PATCH', `/v1/demos/${id}`, { title: 'Renamed', configuration: { theme_color: '#123456' } });
      expect(renamed.statusCode).toBe(200);
      expect(await seen()).toEqual(renamed.json().data);

      await call('PATCH', `/v1/demos/${id}/steps/${step.id}`, { description: 'Now described' });
      expect((await seen()).steps[0].description).toBe('Now described');

      const hs = (await call('POST', `/v1/demos/${id}/steps/${step.id}/hotspots`, { x: 0.1, y: 0.1, width: 0.2, height: 0.2 })).json().data;
      expect((await seen()).hotspots.map((h: { id: string }) => h.id)).toEqual([hs.id]);
      await call('PATCH', `/v1/demos/${id}/steps/${step.id}/hotspots/${hs.id}`, { x: 0.5 });
      expect((await seen()).hotspots[0].x).toBe(0.5);

      await upload(`/v1/demos/${id}/steps/${step.id}/image`, makePng(40, 30));
      const withImage = await seen();
      expect(withImage.steps[0]).toMatchObject({ width: 40, height: 30, image_url: expect.any(String) });
      expect(withImage.thumbnail_url).toBe(withImage.steps[0].image_url);

      // share_url follows the links of a published demo: created, then revoked.
      expect((await call('PATCH', `/v1/demos/${id}`, { status: 'published' })).statusCode).toBe(200);
      expect((await seen()).share_url).toBeNull();
      const share = (await call('POST', `/v1/demos/${id}/shares`, {})).json().data;
      expect((await seen()).share_url).toBe(share.url);
      expect((await call('DELETE', `/v1/shares/${share.id}`)).statusCode).toBe(204);
      expect((await seen()).share_url).toBeNull();

      expect((await call('DELETE', `/v1/demos/${id}`)).statusCode).toBe(204);
      expect((await call('GET', `/v1/demos/${id}`)).statusCode).toBe(404);
    });

    it('does not serve a cached demo to another workspace', async () => {
      const id = await newDemo();
      expect((await call('GET', `/v1/demos/${id}`)).statusCode).toBe(200);
      const other = await t.apiKey('all');
      const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${id}`, headers: bearer(other) });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    });
  });
});
