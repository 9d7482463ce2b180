import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQueuedGeneration } from './helpers/demos';
import type { GenerationResult } from '../src/generation/generation.types';
import { makeMockupPng } from './helpers/images';
import { createShare, viewerClient } from './helpers/shares';
import { findStored } from './helpers/database-scan';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// POST /v1/demos/:id/steps/:step_id/redactions: what is blurred is gone from what is stored — the step's
// new image and snapshot replace the old ones in the step, the thumbnail and published versions, and the
// old assets are deleted.

const SECRET = 'jane.cooper@acme-secret.test';
const WIDTH = 320;
const HEIGHT = 200;

/** A snapshot with the secret in text, a link, a title, an input's value and placeholder. */
const SNAPSHOT = `<!doctype html><html><head><title>Account</title><style>body{font:16px sans-serif;margin:0}</style></head><body>
<header><h1>Settings</h1></header>
<section id="account" style="background-image:url('https://cdn.example.com/jane.png')">
<h2>Jane Cooper</h2>
<p class="email">${SECRET}</p>
<a href="mailto:${SECRET}" title="Write to ${SECRET}">Write to Jane</a>
<input type="email" value="${SECRET}" placeholder="${SECRET}">
<textarea>Notes about ${SECRET}</textarea>
<img src="https://cdn.example.com/avatar.png" alt="Jane Cooper" width="40" height="40">
</section>
<p id="plan">Plan: Business</p>
</body></html>`;

/**
 * A page whose region (40..280 × 40..120 px) holds fine stripes, as text does: a variance to lose. The rest
 * is the mockup page.
 */
async function stripedPng(): Promise<Buffer> {
  const { data, info } = await sharp(makeMockupPng(WIDTH, HEIGHT)).raw().toBuffer({ resolveWithObject: true });
  for (let y = 40; y < 120; y++) {
    for (let x = 40; x < 280; x++) {
      const v = (x >> 1) % 2 === (y >> 2) % 2 ? 20 : 235;
      const i = (y * info.width + x) * info.channels;
      data[i] = v;
      data[i + 1] = v;
      data[i + 2] = v;
    }
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png().toBuffer();
}

/** The region the tests blur, in fractions: exactly the striped block. */
const REGION = { x: 40 / WIDTH, y: 40 / HEIGHT, width: 240 / WIDTH, height: 80 / HEIGHT };

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

type Pixels = Awaited<ReturnType<typeof pixels>>;
const inRegion = (x: number, y: number) => x >= 40 && x < 280 && y >= 40 && y < 120;

/** Variance of the red channel over the region: stripes give thousands, a blur next to nothing. */
function regionVariance(p: Pixels): number {
  let sum = 0;
  let squares = 0;
  let n = 0;
  for (let y = 40; y < 120; y++) {
    for (let x = 40; x < 280; x++) {
      const v = p.data[(y * p.width + x) * p.channels]!;
      sum += v;
      squares += v * v;
      n++;
    }
  }
  const mean = sum / n;
  return squares / n - mean * mean;
}

function changedOutside(a: Pixels, b: Pixels): number {
  let changed = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (inRegion(x, y)) continue;
      for (let c = 0; c < 3; c++) {
        if (a.data[(y * a.width + x) * a.channels + c] !== b.data[(y * b.width + x) * b.channels + c]) changed++;
      }
    }
  }
  return changed;
}

function generationResult(url: string, image: Buffer): GenerationResult {
  return {
    captureMode: 'html',
    writer: 'builtin',
    title: 'Account tour',
    warnings: [],
    pages: [url],
    steps: [
      // A snapshot step, as HTML capture makes them.
      {
        title: 'Your account',
        description: 'Where your details live.',
        pageUrl: url,
        html: SNAPSHOT,
        width: WIDTH,
        height: HEIGHT,
        hotspots: [{ x: 0.1, y: 0.1, width: 0.2, height: 0.2, selector: '#plan', label: 'Plan', tooltip: 'Your plan', action: { type: 'next' } }],
      },
      // A step with a screenshot and a snapshot of the same page, as a recording makes them.
      {
        title: 'Both',
        description: 'Image and snapshot.',
        pageUrl: url,
        image: { data: image, contentType: 'image/png', width: WIDTH, height: HEIGHT },
        html: SNAPSHOT,
        width: WIDTH,
        height: HEIGHT,
        hotspots: [],
      },
    ],
  };
}

describe('step redactions (blur)', () => {
  let t: TestApp;
  let key: string;
  let striped: Buffer;

  beforeAll(async () => {
    striped = await stripedPng();
    // No job workers: the generation of snapshot steps is run here, to its end (a worker still completing
    // its job when the app closes would outlive the database).
    t = await createTestApp({ generator: async (options) => generationResult(options.url, striped) });
    key = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: unknown, headers = bearer(key)) =>
    t.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  const assetId = (url: string | null) => url?.split('/assets/')[1] ?? null;
  const redact = (demoId: string, stepId: string, body: unknown, headers = bearer(key)) =>
    call('POST', `/v1/demos/${demoId}/steps/${stepId}/redactions`, body, headers);

  async function imageDemo(publish: boolean) {
    const created = await call('POST', '/v1/demos', { title: 'Balances' });
    const id = created.json().data.id as string;
    const step = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${id}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: striped,
    });
    expect(step.statusCode, step.body).toBe(201);
    if (publish) expect((await call('POST', `/v1/demos/${id}/publish`)).statusCode).toBe(200);
    return { id, step: step.json().data as { id: string; image_url: string } };
  }

  async function snapshotDemo() {
    const res = await call('POST', '/v1/demos', { source_url: 'https://example.com/account', type: 'interactive', generate_with_ai: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    await runQueuedGeneration(t.ctx, id);
    const demo = (await call('GET', `/v1/demos/${id}`)).json().data;
    expect(demo.status).toBe('draft');
    return demo as { id: string; steps: { id: string; image_url: string | null; html_url: string | null }[] };
  }

  /** Every column of every table that holds `needle`: text, arrays and JSON as text, bytea as bytes. */
  /** Where the snapshots' bytes are kept: the asset store (the embedded default, files) or the asset rows. */
  const bytesPlace = () => (t.ctx.assetStore ? 'asset store' : 'public.assets.bytes');

  /** What a refused request must leave as it was: the step, the demo's assets, the demo's revision. */
  async function state(demoId: string) {
    const { database } = t.ctx;
    const steps = await database.executeSql(
      'select id, image_asset_id, html_asset_id, edited_at, updated_at from steps where demo_id = $1 order by position',
      [demoId],
    );
    const assets = await database.executeSql('select id, sha256 from assets where demo_id = $1 order by id', [demoId]);
    const demo = await database.executeSql('select revision, thumbnail_asset_id from demos where id = $1', [demoId]);
    return JSON.stringify({ steps: steps.rows, assets: assets.rows, demo: demo.rows });
  }

  it('blurs a region of the image for good: new pixels, old asset gone, published version and thumbnail follow', async () => {
    const { id, step } = await imageDemo(true);
    const share = await createShare(t, key, id);
    const viewer = viewerClient(t, share.token);
    const seen = (await viewer.call('GET', '/demo')).json().data;
    const oldId = assetId(step.image_url)!;
    expect(seen.steps[0].image_url).toContain(oldId);
    const before = await pixels(striped);
    expect(regionVariance(before)).toBeGreaterThan(5000);
    const revision = Number((await t.ctx.database.executeSql('select revision from demos where id = $1', [id])).rows[0]!.revision);

    const res = await redact(id, step.id, { regions: [REGION] });
    expect(res.statusCode, res.body).toBe(200);
    const redacted = res.json().data;
    expect(redacted).toMatchObject({ id: step.id, number: 1, width: WIDTH, height: HEIGHT });
    expect(redacted.edited_at).toEqual(expect.any(String));
    const newId = assetId(redacted.image_url)!;
    expect(newId).not.toBe(oldId);

    // The stored image: the region is flat, everything else is as it was, pixel for pixel.
    const served = await call('GET', path(redacted.image_url));
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const after = await pixels(served.rawPayload);
    expect([after.width, after.height]).toEqual([WIDTH, HEIGHT]);
    expect(regionVariance(after)).toBeLessThan(regionVariance(before) / 50);
    expect(changedOutside(before, after)).toBe(0);

    // The original is nowhere: its URL is a 404, its row is gone.
    expect((await call('GET', path(step.image_url))).statusCode).toBe(404);
    expect((await t.ctx.database.executeSql('select count(*)::int as n from assets where id = $1', [oldId])).rows[0]!.n).toBe(0);

    // The thumbnail and the published version now name the new image, and the demo's revision moved on.
    const demo = (await call('GET', `/v1/demos/${id}`)).json().data;
    expect(assetId(demo.thumbnail_url)).toBe(newId);
    expect(demo.has_unpublished_changes).toBe(false);
    const versions = await t.ctx.database.executeSql('select snapshot, asset_ids from demo_versions where demo_id = $1', [id]);
    expect(versions.rows).toHaveLength(1);
    const version = versions.rows[0]! as { snapshot: { steps: { image_asset_id: string }[] }; asset_ids: string[] };
    expect(version.snapshot.steps[0]!.image_asset_id).toBe(newId);
    expect(version.asset_ids).toEqual([newId]);
    const now = Number((await t.ctx.database.executeSql('select revision from demos where id = $1', [id])).rows[0]!.revision);
    expect(now).toBeGreaterThan(revision);

    // Viewers of the published version get the new image, and not the old one.
    const again = (await viewer.call('GET', '/demo')).json().data;
    expect(again.steps[0].image_url).toContain(newId);
    const viewed = await viewer.call('GET', `/assets/${newId}`);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.rawPayload.equals(served.rawPayload)).toBe(true);
    expect((await viewer.call('GET', `/assets/${oldId}`)).statusCode).toBe(404);

    // Recorded in the audit log, with counts and not the request itself.
    const audit = await t.ctx.database.executeSql("select changes from audit_log where action = 'demo.redacted' and target_id = $1", [id]);
    expect(audit.rows).toEqual([
      { changes: { step_id: step.id, step_number: 1, regions: 1, selectors: 0, style: 'blur', versions_rewritten: [1] } },
    ]);
  });

  it('fills a region with a solid colour', async () => {
    const { id, step } = await imageDemo(false);
    const res = await redact(id, step.id, { regions: [REGION], style: 'solid' });
    expect(res.statusCode, res.body).toBe(200);
    const after = await pixels((await call('GET', path(res.json().data.image_url))).rawPayload);
    expect(regionVariance(after)).toBe(0);
    const i = (60 * after.width + 100) * after.channels;
    expect([after.data[i], after.data[i + 1], after.data[i + 2]]).toEqual([31, 41, 55]);
    expect(changedOutside(await pixels(striped), after)).toBe(0);
  });

  it('blurs elements of a snapshot: the text is gone from the stored bytes and from every row of the database', async () => {
    const demo = await snapshotDemo();
    const [snapshotStep, bothStep] = demo.steps;
    expect(snapshotStep!.image_url).toBeNull();
    const oldHtml = assetId(snapshotStep!.html_url)!;
    // The scan does find the secret where it is (rows and blobs), so an empty answer later means something.
    expect(await findStored(t.ctx, SECRET)).toEqual([bytesPlace()]);

    const res = await redact(demo.id, snapshotStep!.id, { selectors: ['#account'] });
    expect(res.statusCode, res.body).toBe(200);
    const step = res.json().data;
    expect(step.image_url).toBeNull();
    const html = (await call('GET', path(step.html_url))).body;
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain('Jane');
    expect(html).not.toContain('cdn.example.com');
    // Text becomes bullets of the same length; what is outside the element stays.
    expect(html).toContain('•'.repeat(SECRET.length));
    expect(html).toContain('<p id="plan">Plan: Business</p>');
    expect(html).toMatch(/<section id="account" style="[^"]*filter: blur\(/);
    expect((await call('GET', path(snapshotStep!.html_url!))).statusCode).toBe(404);
    expect(assetId(step.html_url)).not.toBe(oldHtml);

    // The other step still has it (its own copy): blur its snapshot and, at the element's place, its image.
    expect(await findStored(t.ctx, SECRET)).toEqual([bytesPlace()]);
    const both = await redact(demo.id, bothStep!.id, { selectors: ['#account', 'title'], regions: [REGION] });
    expect(both.statusCode, both.body).toBe(200);
    expect(assetId(both.json().data.image_url)).not.toBe(assetId(bothStep!.image_url));
    expect(assetId(both.json().data.html_url)).not.toBe(assetId(bothStep!.html_url));
    expect((await call('GET', path(bothStep!.image_url!))).statusCode).toBe(404);
    expect((await call('GET', path(bothStep!.html_url!))).statusCode).toBe(404);
    expect(await findStored(t.ctx, SECRET)).toEqual([]);
  });

  describe('refusals change nothing', () => {
    let other: string;
    beforeAll(async () => {
      other = await t.apiKey('all');
    });

    it.each([
      ['a region outside the image', () => ({ regions: [{ x: 0.9, y: 0.1, width: 0.2, height: 0.1 }] }), 400, 'x + width must be at most 1'],
      ['a negative coordinate', () => ({ regions: [{ x: -0.1, y: 0.1, width: 0.2, height: 0.1 }] }), 400, ''],
      ['an empty region', () => ({ regions: [{ x: 0.1, y: 0.1, width: 0, height: 0.1 }] }), 400, 'greater than 0'],
      ['neither regions nor selectors', () => ({}), 400, 'at least one region or selector'],
      ['empty lists', () => ({ regions: [], selectors: [] }), 400, 'at least one region or selector'],
      ['an unknown field', () => ({ regions: [REGION], blur_radius: 40 }), 400, 'unknown field'],
      ['an unknown style', () => ({ regions: [REGION], style: 'sparkles' }), 400, ''],
      ['51 regions', () => ({ regions: Array.from({ length: 51 }, () => REGION) }), 400, ''],
      ['a selector on a step without a snapshot', () => ({ selectors: ['h1'] }), 400, 'no HTML snapshot'],
      ['an invalid selector', () => ({ selectors: ['div['] }), 400, 'not a CSS selector'],
      ['a pseudo-element', () => ({ selectors: ['p::before'] }), 400, 'not a CSS selector'],
      ['a selector of 501 characters', () => ({ selectors: [`#${'a'.repeat(500)}`] }), 400, ''],
    ])('%s', async (_label, body, status, message) => {
      const { id, step } = await imageDemo(true);
      const before = await state(id);
      const res = await redact(id, step.id, body());
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.code).toBe('invalid_request');
      if (message) expect(res.body).toContain(message);
      expect(await state(id)).toBe(before);
      expect((await call('GET', path(step.image_url))).statusCode).toBe(200);
    });

    it('refuses selectors that match nothing, saying which, and regions on a step without an image', async () => {
      const demo = await snapshotDemo();
      const step = demo.steps[0]!;
      const before = await state(demo.id);
      const none = await redact(demo.id, step.id, { selectors: ['#account', '.no-such-thing'] });
      expect(none.statusCode).toBe(400);
      expect(none.json().error.message).toContain('matches no element');
      expect(none.json().error.details).toEqual([{ field: 'selectors.1', message: 'matches no element of the step’s snapshot' }]);
      const noImage = await redact(demo.id, step.id, { regions: [REGION], selectors: ['#account'] });
      expect(noImage.statusCode).toBe(400);
      expect(noImage.json().error.details).toEqual([{ field: 'regions', message: 'the step has no image' }]);
      expect(await state(demo.id)).toBe(before);
    });

    it('answers 404 for an unknown step, another workspace’s demo, and 403 without demos:write', async () => {
      const { id, step } = await imageDemo(true);
      const before = await state(id);
      expect((await redact(id, 'step_01jd3k7q9x8v2m4n6p0r5s7t9w', { regions: [REGION] })).statusCode).toBe(404);
      expect((await redact('demo_01jd3k7q9x8v2m4n6p0r5s7t9w', step.id, { regions: [REGION] })).statusCode).toBe(404);
      const foreign = await redact(id, step.id, { regions: [REGION] }, bearer(other));
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe('not_found');
      const reader = await t.apiKey(['demos:read']);
      expect((await redact(id, step.id, { regions: [REGION] }, bearer(reader))).statusCode).toBe(403);
      expect(await state(id)).toBe(before);
    });
  });

  it('is in the OpenAPI document with its body and errors', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).json();
    const operation = doc.paths['/v1/demos/{id}/steps/{step_id}/redactions']?.post;
    expect(operation).toBeDefined();
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '429']));
    const body = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['regions', 'selectors', 'style']);
    expect(body.additionalProperties).toBe(false);
  });
});
