import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKeyOfDigest } from '../src/core/blob-store/blob-store';
import { createFilesystemStore } from '../src/core/blob-store/filesystem-store';
import { sha256Hex } from '../src/core/crypto';
import { demos } from '../src/demos/demos.tables';
import { events } from '../src/events/events.tables';
import { RECORDING_TTL_MS } from '../src/recordings/recordings.service';
import { recordingChunks, recordingUploads } from '../src/recordings/recordings.tables';
import { findStored, textColumns } from './helpers/database-scan';
import { makePng } from './helpers/images';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const PASSWORD = 'pw-Zq7x!recorded-secret-93';
const CARD = '4242424242424242';
const TYPED = 'typed-into-password-field-71';
const LIMITS = { STEP_IMAGE_MAX_BYTES: 64 * 1024, RECORDING_SNAPSHOT_MAX_BYTES: 32 * 1024, RECORDING_STEP_MAX_BYTES: 256 * 1024 };
const APP_URL = 'https://demoshare.example.com';

type Json = Record<string, unknown>;

const digest = (body: string | Buffer) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** A page as the recorder sends it: a script, a handler, a password, a card number and a marked name in it. */
function snapshotHtml(n: number) {
  return (
    `<!doctype html><html><head><title>Invoices ${n}</title><script>steal()</script></head><body>` +
    `<h1 onclick="steal()">Invoices page ${n}</h1><button id="create-${n}">Create invoice</button>` +
    `<form><input type="password" name="pw" value="${PASSWORD}"><input autocomplete="billing cc-number" value="${CARD}">` +
    '<input name="search" value="kept search text"></form>' +
    '<div data-demoshare-redact><span>Customer Jane Roe</span></div></body></html>'
  );
}

/** Step `n` of a recording: a click on a 256×40 button at (128, 80) of a 1280×800 viewport, by default. */
function recordedStep(n: number, overrides: Json = {}): Json {
  return {
    action: 'click',
    title: `Click “Create invoice” ${n}`,
    description: `Step ${n}: create the invoice.`,
    page_url: `https://app.example.com/invoices/${n}`,
    viewport: { width: 1280, height: 800 },
    target: { x: 128, y: 80, width: 256, height: 40, selector: `#create-${n}`, label: 'Create invoice' },
    screenshot: dataUrl(makePng(320, 200, [n * 30, 90, 160])),
    snapshot: snapshotHtml(n),
    ...overrides,
  };
}

describe('recording upload API', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  /** Added to the real time: lets a test move past an upload's expiry. */
  let offset = 0;

  beforeAll(async () => {
    t = await createTestApp({
      config: { ...LIMITS, APP_URL, RATE_LIMIT_PER_MINUTE: 100_000 },
      clock: { now: () => new Date(Date.now() + offset) },
    });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: unknown, as = key) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(as), ...(payload === undefined ? {} : { payload: payload as object }) });

  /** PUT a step as a client would: the exact bytes and their digest (or the headers given instead). */
  const put = (id: string, n: number | string, step: Json | string, headers?: Record<string, string>, as = key) => {
    const body = typeof step === 'string' ? step : JSON.stringify(step);
    return t.app.inject({
      method: 'PUT',
      url: `/v1/recordings/${id}/steps/${n}`,
      headers: { ...bearer(as), 'content-type': 'application/json', ...(headers ?? { 'content-digest': digest(body) }) },
      payload: body,
    });
  };

  async function startRecording(body: Json, as = key) {
    const res = await call('POST', '/v1/recordings', body, as);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Json & { id: string };
  }

  async function uploadAll(id: string, numbers: number[], make = recordedStep) {
    for (const n of numbers) {
      const res = await put(id, n, make(n));
      expect(res.statusCode, res.body).toBe(200);
    }
  }

  const recording = async (id: string) => (await call('GET', `/v1/recordings/${id}`)).json().data;
  const demo = async (id: string) => (await call('GET', `/v1/demos/${id}`)).json().data;
  const asset = async (url: string) => (await call('GET', url.replace(/^https?:\/\/[^/]+/, ''))).body;
  const demoCount = async () => (await t.ctx.database.db.select({ n: count() }).from(demos))[0]!.n;
  const chunks = async (id: string) =>
    t.ctx.database.db
      .select({ number: recordingChunks.number, digest: recordingChunks.digest, createdAt: recordingChunks.createdAt })
      .from(recordingChunks)
      .where(eq(recordingChunks.recordingId, id))
      .orderBy(recordingChunks.number);
  /** Each asset of the demo: its row's digest, size and type, and the digest and length of its bytes, in its row or its blob. */
  const assetFacts = async (demoId: string) => {
    const { rows } = await t.ctx.database.executeSql('select content_type, size, sha256, bytes, blob_key from assets where demo_id = $1', [demoId]);
    return Promise.all(
      (rows as Array<{ content_type: string; size: number; sha256: string; bytes: Uint8Array | null; blob_key: string | null }>).map(async (row) => {
        const bytes = row.bytes ? Buffer.from(row.bytes) : await t.ctx.assetStore!.get(row.blob_key!);
        return { content_type: row.content_type, size: row.size, sha256: row.sha256, actual: sha256Hex(bytes!), length: bytes!.length };
      }),
    );
  };
  const expectError = (res: { statusCode: number; body: string; json(): Json }, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const { error } = res.json() as { error: Json };
    expect(error.code).toBe(code);
    return error as { code: string; message: string; details?: Array<{ field: string; message: string }> };
  };

  it('uploads out of order, resumes from GET, completes into a draft demo with clean snapshots and hotspots', async () => {
    const created = await startRecording({ step_count: 3 });
    expect(created).toMatchObject({
      status: 'uploading',
      mode: 'new',
      step_count: 3,
      received: [],
      missing: [1, 2, 3],
      demo_id: null,
      editor_url: null,
      max_step_bytes: LIMITS.RECORDING_STEP_MAX_BYTES,
      completed_at: null,
    });
    expect(created.id).toMatch(/^rec_[0-9a-z]{26}$/);
    expect(Date.parse(created.expires_at as string) - Date.parse(created.created_at as string)).toBe(RECORDING_TTL_MS);

    // Step 3 first, then 1; the client is interrupted before 2.
    await uploadAll(created.id, [3, 1]);
    expect(await recording(created.id)).toMatchObject({ status: 'uploading', received: [1, 3], missing: [2] });
    // Resuming: the client sends what GET says is missing.
    await uploadAll(created.id, (await recording(created.id)).missing);

    const done = await call('POST', `/v1/recordings/${created.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    const completed = done.json().data;
    expect(completed).toMatchObject({ status: 'completed', received: [1, 2, 3], missing: [], completed_at: expect.any(String) });
    expect(completed.demo_id).toMatch(/^demo_/);
    expect(completed.editor_url).toBe(`${APP_URL}/demos/${completed.demo_id}`);

    const built = await demo(completed.demo_id);
    expect(built).toMatchObject({
      title: 'Recording of app.example.com',
      source_url: 'https://app.example.com/invoices/1',
      type: 'interactive',
      status: 'draft',
      step_count: 3,
    });
    expect(built.thumbnail_url).toBe(built.steps[0].image_url);
    expect(built.steps.map((s: Json) => [s.number, s.title, s.page_url, s.width, s.height])).toEqual(
      [1, 2, 3].map((n) => [n, `Click “Create invoice” ${n}`, `https://app.example.com/invoices/${n}`, 320, 200]),
    );
    for (const [i, step] of (built.steps as Json[]).entries()) {
      const png = await t.app.inject({ method: 'GET', url: (step.image_url as string).replace(/^https?:\/\/[^/]+/, ''), headers: bearer(key) });
      expect(png.rawPayload.equals(makePng(320, 200, [(i + 1) * 30, 90, 160]))).toBe(true);
      const html = await asset(step.html_url as string);
      expect(html).toContain(`Invoices page ${i + 1}`);
      expect(html).toContain('kept search text');
      expect(html).not.toMatch(/<script|onclick|steal\(\)/i);
      expect(html).not.toContain(PASSWORD);
      expect(html).not.toContain(CARD);
      expect(html).not.toContain('Jane Roe');
      expect(html).toContain('•••••••• •••• •••');
    }
    // One hotspot per step, at the target's fractions of the viewport, its tooltip the step's description.
    expect(built.hotspots).toHaveLength(3);
    for (const h of built.hotspots as Json[]) {
      expect(h).toMatchObject({ x: 0.1, y: 0.1, width: 0.2, height: 0.05, label: 'Create invoice', action: { type: 'next' } });
      expect(h.selector).toBe(`#create-${h.step_number}`);
      expect(h.tooltip).toBe(`Step ${h.step_number}: create the invoice.`);
    }
    // The assets were copied from the upload (inside the database, or into the store): their digest, size and type are their bytes'.
    expect(await assetFacts(completed.demo_id)).toEqual(
      expect.arrayContaining([
        ...[1, 2, 3].map((n) => {
          const png = makePng(320, 200, [n * 30, 90, 160]);
          return { content_type: 'image/png', size: png.length, sha256: sha256Hex(png), actual: sha256Hex(png), length: png.length };
        }),
      ]),
    );
    for (const row of await assetFacts(completed.demo_id)) expect([row.sha256, row.size]).toEqual([row.actual, row.length]);
    expect((await assetFacts(completed.demo_id)).map((r) => r.content_type).sort()).toEqual([...Array(3).fill('image/png'), ...Array(3).fill('text/html; charset=utf-8')].sort());
    // The stored steps are gone; the demo's events are in the outbox like any other demo's.
    expect(await chunks(created.id)).toEqual([]);
    const kinds = await t.ctx.database.db
      .select({ kind: events.kind })
      .from(events)
      .where(and(eq(events.workspaceId, admin.workspaceId), eq(events.kind, 'demo.created')));
    expect(kinds.length).toBeGreaterThan(0);
  });

  it('never stores a password, a card number, a marked element’s text or a typed value anywhere', async () => {
    const created = await startRecording({ step_count: 2, title: 'Secrets tour' });
    await put(created.id, 1, recordedStep(1));
    const typed = await put(created.id, 2, recordedStep(2, { action: 'type', value: TYPED, target: null }));
    expect(typed.statusCode, typed.body).toBe(200);
    const columns = await textColumns(t.ctx.database);
    expect(columns.length).toBeGreaterThan(50);
    expect(columns.map((c) => `${c.table_name}.${c.column_name}`)).toEqual(
      expect.arrayContaining(['recording_chunks.snapshot', 'recording_chunks.fields', 'assets.bytes', 'events.data']),
    );
    // Not even while the upload waits for completion...
    for (const secret of [PASSWORD, CARD, TYPED, 'Jane Roe']) expect(await findStored(t.ctx, secret), secret).toEqual([]);
    const done = await call('POST', `/v1/recordings/${created.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    // ...nor after, in the demo's steps, assets, events or anywhere else.
    for (const secret of [PASSWORD, CARD, TYPED, 'Jane Roe']) expect(await findStored(t.ctx, secret), secret).toEqual([]);
    // The scan does find what is stored: the marker of a control whose value it took, and a kept value.
    expect(await findStored(t.ctx, 'kept search text')).toContain(t.ctx.assetStore ? 'asset store' : 'public.assets.bytes');
    const built = await demo(done.json().data.demo_id);
    expect(built.title).toBe('Secrets tour');
    expect(built.hotspots).toHaveLength(1);
  });

  it('takes the same step again as a no-op, and a different body as a replacement', async () => {
    const created = await startRecording({ step_count: 1 });
    const body = JSON.stringify(recordedStep(1));
    expect((await put(created.id, 1, body)).statusCode).toBe(200);
    const [first] = await chunks(created.id);
    const again = await put(created.id, 1, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ received: [1], missing: [] });
    expect(await chunks(created.id)).toEqual([first]);

    const replaced = await put(created.id, 1, recordedStep(1, { title: 'Replaced title' }));
    expect(replaced.statusCode).toBe(200);
    const [second] = await chunks(created.id);
    expect(second!.digest).not.toBe(first!.digest);
    const done = (await call('POST', `/v1/recordings/${created.id}/complete`)).json().data;
    expect((await demo(done.demo_id)).steps.map((s: Json) => s.title)).toEqual(['Replaced title']);
  });

  it('completes steps stored before their digests were kept, reading their bytes', async () => {
    const created = await startRecording({ step_count: 2 });
    await uploadAll(created.id, [1, 2]);
    // An upload stored by an earlier version: its rows' fields say nothing of the blobs.
    await t.ctx.database.executeSql(`update recording_chunks set fields = fields - 'blobs' where recording_id = $1 and number = 2`, [created.id]);
    const done = await call('POST', `/v1/recordings/${created.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    const built = await demo(done.json().data.demo_id);
    for (const [i, step] of (built.steps as Json[]).entries()) {
      expect([step.width, step.height]).toEqual([320, 200]);
      const png = await t.app.inject({ method: 'GET', url: (step.image_url as string).replace(/^https?:\/\/[^/]+/, ''), headers: bearer(key) });
      expect(png.rawPayload.equals(makePng(320, 200, [(i + 1) * 30, 90, 160]))).toBe(true);
      expect(await asset(step.html_url as string)).toContain(`Invoices page ${i + 1}`);
    }
    const facts = await assetFacts(built.id);
    expect(facts).toHaveLength(4);
    for (const row of facts) expect([row.sha256, row.size]).toEqual([row.actual, row.length]);
  });

  it('requires a Content-Digest that matches the body', async () => {
    const created = await startRecording({ step_count: 1 });
    const body = JSON.stringify(recordedStep(1));
    const missing = expectError(await put(created.id, 1, body, {}), 400, 'invalid_request');
    expect(missing.message).toContain('Content-Digest');
    expect(missing.details).toEqual([{ field: 'Content-Digest', message: 'required' }]);
    const malformed = expectError(await put(created.id, 1, body, { 'content-digest': 'sha-256=abc' }), 400, 'invalid_request');
    expect(malformed.details?.[0]?.field).toBe('Content-Digest');
    const md5Only = await put(created.id, 1, body, { 'content-digest': 'md5=:AAAA:' });
    expectError(md5Only, 400, 'invalid_request');
    const mismatch = expectError(await put(created.id, 1, body, { 'content-digest': digest(`${body} `) }), 400, 'checksum_mismatch');
    expect(mismatch.details).toEqual([{ field: 'Content-Digest', message: 'does not match the sha-256 of the body' }]);
    // A body changed on the way, even into one that no longer validates, is a checksum error.
    expectError(await put(created.id, 1, '{"action": "click"}', { 'content-digest': digest(body) }), 400, 'checksum_mismatch');
    expect(await chunks(created.id)).toEqual([]);
    // sha-512 beside sha-256 (RFC 9530 allows several) is checked too.
    const sha512 = `sha-512=:${createHash('sha512').update(body).digest('base64')}:`;
    expect((await put(created.id, 1, body, { 'content-digest': `${digest(body)}, ${sha512}` })).statusCode).toBe(200);
    const badSha512 = `sha-512=:${createHash('sha512').update('other').digest('base64')}:`;
    expectError(await put(created.id, 1, body, { 'content-digest': `${digest(body)}, ${badSha512}` }), 400, 'checksum_mismatch');
  });

  it('answers 413 naming the limit for an oversize screenshot, snapshot or body, and 415 for a non-image', async () => {
    const created = await startRecording({ step_count: 1 });
    const bigImage = dataUrl(Buffer.concat([makePng(10, 10), randomBytes(LIMITS.STEP_IMAGE_MAX_BYTES)]));
    const image = expectError(await put(created.id, 1, recordedStep(1, { screenshot: bigImage })), 413, 'payload_too_large');
    expect(image.message).toMatch(/screenshot .*the limit is 64 KB \(STEP_IMAGE_MAX_BYTES\)/);
    expect(image.details?.[0]?.field).toBe('screenshot');

    const bigSnapshot = `<html><body>${'x'.repeat(LIMITS.RECORDING_SNAPSHOT_MAX_BYTES)}</body></html>`;
    const snapshot = expectError(await put(created.id, 1, recordedStep(1, { snapshot: bigSnapshot })), 413, 'payload_too_large');
    expect(snapshot.message).toMatch(/snapshot .*the limit is 32 KB \(RECORDING_SNAPSHOT_MAX_BYTES\)/);

    const bigBody = recordedStep(1, { description: 'y'.repeat(4000), snapshot: 'z'.repeat(LIMITS.RECORDING_STEP_MAX_BYTES) });
    const body = expectError(await put(created.id, 1, bigBody), 413, 'payload_too_large');
    expect(body.message).toMatch(/the limit is 256 KB \(RECORDING_STEP_MAX_BYTES\)/);

    const notImage = expectError(
      await put(created.id, 1, recordedStep(1, { screenshot: dataUrl(Buffer.from('not an image at all')) })),
      415,
      'unsupported_media_type',
    );
    expect(notImage.details?.[0]?.field).toBe('screenshot');
    expectError(await put(created.id, 1, recordedStep(1, { screenshot: 'data:image/gif;base64,R0lGOD==' })), 400, 'invalid_request');
    expectError(await put(created.id, 1, recordedStep(1, { screenshot: 'data:image/png;base64,@@@@' })), 400, 'invalid_request');
    expect(await chunks(created.id)).toEqual([]);
    expect((await recording(created.id)).missing).toEqual([1]);
  });

  it('refuses to complete with steps missing (409 listing them), and completes once, however often asked', async () => {
    const before = await demoCount();
    const created = await startRecording({ step_count: 4 });
    await uploadAll(created.id, [2, 4]);
    const incomplete = expectError(await call('POST', `/v1/recordings/${created.id}/complete`), 409, 'recording_incomplete');
    expect(incomplete.message).toContain('step 1, 3 of 4');
    expect(incomplete.details).toEqual([
      { field: 'steps.1', message: 'not uploaded yet' },
      { field: 'steps.3', message: 'not uploaded yet' },
    ]);
    expect(await demoCount()).toBe(before);
    expect(await recording(created.id)).toMatchObject({ status: 'uploading', received: [2, 4] });

    await uploadAll(created.id, [1, 3]);
    const first = await call('POST', `/v1/recordings/${created.id}/complete`);
    const second = await call('POST', `/v1/recordings/${created.id}/complete`);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toEqual(first.json().data);
    expect(await demoCount()).toBe(before + 1);
    expect((await demo(first.json().data.demo_id)).step_count).toBe(4);
    // Its steps cannot change any more.
    expectError(await put(created.id, 2, recordedStep(2)), 409, 'conflict');
  });

  it('appends steps to an existing demo', async () => {
    const target = (await call('POST', '/v1/demos', { title: 'Existing tour' })).json().data;
    await call('POST', `/v1/demos/${target.id}/steps`, { title: 'Made in the editor' });
    expectError(await call('POST', '/v1/recordings', { step_count: 2, mode: 'append' }), 400, 'invalid_request');
    expectError(await call('POST', '/v1/recordings', { step_count: 2, mode: 'append', demo_id: target.id, title: 'x' }), 400, 'invalid_request');

    const created = await startRecording({ step_count: 2, mode: 'append', demo_id: target.id });
    expect(created).toMatchObject({ mode: 'append', demo_id: target.id, editor_url: null });
    await uploadAll(created.id, [1, 2]);
    const done = (await call('POST', `/v1/recordings/${created.id}/complete`)).json().data;
    expect(done).toMatchObject({ status: 'completed', demo_id: target.id, editor_url: `${APP_URL}/demos/${target.id}` });
    const after = await demo(target.id);
    expect(after.title).toBe('Existing tour');
    expect(after.steps.map((s: Json) => s.title)).toEqual(['Made in the editor', 'Click “Create invoice” 1', 'Click “Create invoice” 2']);
    expect(after.hotspots.map((h: Json) => h.step_number).sort()).toEqual([2, 3]);
  });

  it('replaces one step’s image, snapshot, text and hotspots', async () => {
    const target = (await call('POST', '/v1/demos', { title: 'Tour to fix' })).json().data;
    const image = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${target.id}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(40, 20),
    });
    const old = image.json().data;
    await call('POST', `/v1/demos/${target.id}/steps`, { title: 'Second' });
    await call('POST', `/v1/demos/${target.id}/steps/${old.id}/hotspots`, { x: 0.5, y: 0.5, width: 0.1, height: 0.1, label: 'Old' });

    expectError(await call('POST', '/v1/recordings', { step_count: 2, mode: 'replace_step', demo_id: target.id, step_id: old.id }), 400, 'invalid_request');
    expectError(await call('POST', '/v1/recordings', { step_count: 1, mode: 'replace_step', demo_id: target.id }), 400, 'invalid_request');
    const unknownStep = `step_${'0'.repeat(26)}`;
    expectError(await call('POST', '/v1/recordings', { step_count: 1, mode: 'replace_step', demo_id: target.id, step_id: unknownStep }), 404, 'not_found');
    expectError(await call('POST', '/v1/recordings', { step_count: 1, mode: 'append', demo_id: `demo_${'0'.repeat(26)}` }), 404, 'not_found');

    const created = await startRecording({ step_count: 1, mode: 'replace_step', demo_id: target.id, step_id: old.id });
    await put(created.id, 1, recordedStep(7, { target: { x: -100, y: 790, width: 50, height: 50, selector: null, label: null }, description: '' }));
    const done = await call('POST', `/v1/recordings/${created.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    const after = await demo(target.id);
    expect(after.steps.map((s: Json) => [s.id, s.title, s.width])).toEqual([
      [old.id, 'Click “Create invoice” 7', 320],
      [after.steps[1].id, 'Second', null],
    ]);
    expect(after.steps[0].image_url).not.toBe(old.image_url);
    expect(after.steps[0].html_url).not.toBeNull();
    expectError(await call('GET', old.image_url.replace(/^https?:\/\/[^/]+/, '')), 404, 'not_found');
    // The old hotspot is gone; the new one is clamped into the image and says the title (no description).
    expect(after.hotspots).toHaveLength(1);
    const [h] = after.hotspots;
    expect(h).toMatchObject({ step_number: 1, x: 0, selector: null, label: '', tooltip: 'Click “Create invoice” 7' });
    expect(h.width).toBeCloseTo(0.01, 6);
    expect(h.y + h.height).toBeLessThanOrEqual(1);
    expect(h.y).toBeCloseTo(790 / 800, 6);
  });

  it('keeps a recording to the member who made it: other workspaces and members get 404', async () => {
    const created = await startRecording({ step_count: 1 });
    await put(created.id, 1, recordedStep(1));
    const stranger = await t.apiKey('all');
    const colleague = await t.apiKey('all', await t.member(admin, 'editor'));
    for (const other of [stranger, colleague]) {
      expectError(await call('GET', `/v1/recordings/${created.id}`, undefined, other), 404, 'not_found');
      expectError(await put(created.id, 1, recordedStep(1, { title: 'hijack' }), undefined, other), 404, 'not_found');
      expectError(await call('POST', `/v1/recordings/${created.id}/complete`, undefined, other), 404, 'not_found');
      expectError(await call('DELETE', `/v1/recordings/${created.id}`, undefined, other), 404, 'not_found');
    }
    // Nor can another workspace's demo be the target.
    const foreign = (await call('POST', '/v1/demos', { title: 'Theirs' }, stranger)).json().data;
    expectError(await call('POST', '/v1/recordings', { step_count: 1, mode: 'append', demo_id: foreign.id }), 404, 'not_found');
    expect(await recording(created.id)).toMatchObject({ status: 'uploading', received: [1] });
    // A viewer may not upload at all.
    const viewer = await t.apiKey('all', await t.member(admin, 'viewer'));
    expectError(await call('POST', '/v1/recordings', { step_count: 1 }, viewer), 403, 'forbidden');
  });

  it('discards an upload with DELETE', async () => {
    const created = await startRecording({ step_count: 2 });
    await put(created.id, 1, recordedStep(1));
    const res = await call('DELETE', `/v1/recordings/${created.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await call('GET', `/v1/recordings/${created.id}`), 404, 'not_found');
    expect(await chunks(created.id)).toEqual([]);
  });

  it('expires 24 hours after creation: 410 until swept, never completed, then 404', async () => {
    const created = await startRecording({ step_count: 1 });
    await put(created.id, 1, recordedStep(1));
    const before = await demoCount();
    offset = RECORDING_TTL_MS + 1;
    try {
      const gone = expectError(await call('GET', `/v1/recordings/${created.id}`), 410, 'gone');
      expect(gone.message).toContain('expired');
      expectError(await put(created.id, 1, recordedStep(1, { title: 'late' })), 410, 'gone');
      expectError(await call('POST', `/v1/recordings/${created.id}/complete`), 410, 'gone');
      expect(await demoCount()).toBe(before);
      expect(await t.ctx.services.recordings.recordings.sweepExpired()).toBeGreaterThanOrEqual(1);
      expectError(await call('GET', `/v1/recordings/${created.id}`), 404, 'not_found');
      const left = await t.ctx.database.db.select({ n: count() }).from(recordingUploads).where(eq(recordingUploads.id, created.id));
      expect(left[0]!.n).toBe(0);
      expect(await chunks(created.id)).toEqual([]);
    } finally {
      offset = 0;
    }
  });

  it('refuses bad input with a 4xx that changes nothing, never a 500', async () => {
    const created = await startRecording({ step_count: 2 });
    await put(created.id, 1, recordedStep(1));
    const state = async () => ({ recording: await recording(created.id), chunks: await chunks(created.id), demos: await demoCount() });
    const before = await state();
    const steps: Array<[string, Json | string]> = [
      ['unknown field', recordedStep(2, { extra: true })],
      ['bad action', recordedStep(2, { action: 'hover' })],
      ['long title', recordedStep(2, { title: 'x'.repeat(201) })],
      ['NUL in title', recordedStep(2, { title: 'a\u0000b' })],
      ['NUL in snapshot', recordedStep(2, { snapshot: '<p>a\u0000b</p>' })],
      ['ftp page', recordedStep(2, { page_url: 'ftp://example.com/x' })],
      ['no viewport', recordedStep(2, { viewport: undefined })],
      ['zero viewport', recordedStep(2, { viewport: { width: 0, height: 800 } })],
      ['fractional viewport', recordedStep(2, { viewport: { width: 1.5, height: 800 } })],
      ['negative target size', recordedStep(2, { target: { x: 1, y: 1, width: -5, height: 5, selector: null, label: null } })],
      ['target without label', recordedStep(2, { target: { x: 1, y: 1, width: 5, height: 5, selector: null } })],
      ['string screenshot', recordedStep(2, { screenshot: 'hello' })],
      ['number snapshot', recordedStep(2, { snapshot: 42 })],
      ['array body', '[1, 2]'],
      ['null body', 'null'],
      ['malformed json', '{"action": '],
      ['proto pollution', '{"__proto__": {"admin": true}}'],
    ];
    for (const [label, body] of steps) {
      const res = await put(created.id, 2, body);
      expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
    }
    for (const n of ['0', '3', '201', '1.5', 'two', '-1']) {
      const res = await put(created.id, n, recordedStep(2));
      expect(res.statusCode, `number ${n}: ${res.body}`).toBe(400);
    }
    const wrongType = await t.app.inject({
      method: 'PUT',
      url: `/v1/recordings/${created.id}/steps/2`,
      headers: { ...bearer(key), 'content-type': 'text/plain', 'content-digest': digest('x') },
      payload: 'x',
    });
    expect(wrongType.statusCode).toBe(415);
    for (const [method, url] of [
      ['GET', '/v1/recordings/rec_nope'],
      ['GET', `/v1/recordings/${created.id.replace('rec_', 'demo_')}`],
      ['POST', '/v1/recordings/rec_nope/complete'],
      ['DELETE', '/v1/recordings/42'],
    ] as const) {
      expect((await call(method, url)).statusCode, `${method} ${url}`).toBe(400);
    }
    const creates: Json[] = [
      {},
      { step_count: 0 },
      { step_count: 201 },
      { step_count: 1.5 },
      { step_count: 1, mode: 'rewrite' },
      { step_count: 1, title: '' },
      { step_count: 1, title: 'x'.repeat(201) },
      { step_count: 1, demo_id: created.id },
      { step_count: 1, step_id: `step_${'0'.repeat(26)}` },
      { step_count: 1, owner: 'someone' },
    ];
    const recordingsBefore = (await t.ctx.database.db.select({ n: count() }).from(recordingUploads))[0]!.n;
    for (const body of creates) {
      const res = await call('POST', '/v1/recordings', body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
    }
    expect((await t.ctx.database.db.select({ n: count() }).from(recordingUploads))[0]!.n).toBe(recordingsBefore);
    expect(await state()).toEqual(before);
  });

  it('documents every route, field and error in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const schema = doc.components.schemas.Recording;
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['completed_at', 'created_at', 'demo_id', 'editor_url', 'expires_at', 'id', 'max_step_bytes', 'missing', 'mode', 'received', 'status', 'step_count'],
    );
    for (const [name, property] of Object.entries(schema.properties as Record<string, Json>)) expect(property.description, name).toBeTruthy();
    const ops = {
      create: doc.paths['/v1/recordings'].post,
      get: doc.paths['/v1/recordings/{id}'].get,
      put: doc.paths['/v1/recordings/{id}/steps/{number}'].put,
      complete: doc.paths['/v1/recordings/{id}/complete'].post,
      remove: doc.paths['/v1/recordings/{id}'].delete,
    };
    expect(Object.keys(ops.put.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '410', '413', '415', '429', '500', '503']);
    expect(Object.keys(ops.complete.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '410', '413', '415', '429', '500', '503']);
    expect(Object.keys(ops.create.responses)).toContain('201');
    expect(ops.remove.responses['204']).toBeDefined();
    expect(ops.get.security).toEqual([{ bearerAuth: ['demos:read'] }, { oauth2: ['demos:read'] }]);
    expect(ops.put.description).toContain('Content-Digest');
    expect(ops.put.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'content-digest', required: true })]),
    );
    for (const op of Object.values(ops)) {
      for (const parameter of op.parameters ?? []) expect(parameter.description, parameter.name).toBeTruthy();
    }
    const stepBody = ops.put.requestBody.content['application/json'].schema;
    for (const [name, property] of Object.entries(stepBody.properties as Record<string, Json>)) expect(property.description, name).toBeTruthy();
    expect(ops.put.responses['200'].content['application/json'].schema.properties.data.$ref).toBe('#/components/schemas/Recording');
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['checksum_mismatch', 'recording_incomplete']),
    );
  });
});

describe('recording completion into a blob store (ASSET_STORE=filesystem)', () => {
  let t: TestApp;
  let key: string;
  let dir: string;
  const store = () => createFilesystemStore(join(dir, 'blobs'));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'demoshare-recording-blobs-'));
    t = await createTestApp({ config: { ...LIMITS, APP_URL }, assetStore: store() });
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts each step’s screenshot and snapshot in the store, the rows naming them by digest', async () => {
    const created = (await t.app.inject({ method: 'POST', url: '/v1/recordings', headers: bearer(key), payload: { step_count: 2 } })).json().data;
    for (const n of [1, 2]) {
      const body = JSON.stringify(recordedStep(n));
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/recordings/${created.id}/steps/${n}`,
        headers: { ...bearer(key), 'content-type': 'application/json', 'content-digest': digest(body) },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const done = await t.app.inject({ method: 'POST', url: `/v1/recordings/${created.id}/complete`, headers: bearer(key) });
    expect(done.statusCode, done.body).toBe(200);
    const demoId = done.json().data.demo_id as string;
    const rows = (
      await t.ctx.database.executeSql('select content_type, size, sha256, blob_key, bytes is null as no_bytes from assets where demo_id = $1', [demoId])
    ).rows as Array<{ content_type: string; size: number; sha256: string; blob_key: string; no_bytes: boolean }>;
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.no_bytes).toBe(true);
      expect(row.blob_key).toBe(blobKeyOfDigest(row.sha256));
      const bytes = await store().get(row.blob_key);
      expect(bytes && [sha256Hex(bytes), bytes.length]).toEqual([row.sha256, row.size]);
    }
    const built = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) })).json().data;
    for (const [i, step] of (built.steps as Json[]).entries()) {
      const png = await t.app.inject({ method: 'GET', url: (step.image_url as string).replace(/^https?:\/\/[^/]+/, ''), headers: bearer(key) });
      expect(png.rawPayload.equals(makePng(320, 200, [(i + 1) * 30, 90, 160]))).toBe(true);
      const html = await t.app.inject({ method: 'GET', url: (step.html_url as string).replace(/^https?:\/\/[^/]+/, ''), headers: bearer(key) });
      expect(html.body).toContain(`Invoices page ${i + 1}`);
      expect(html.body).not.toContain(PASSWORD);
    }
  });
});
