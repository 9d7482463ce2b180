// Demo assets in a blob store (ASSET_STORE=filesystem|s3): written through the store, served as before (immutable
// URLs, the viewer's gates), a store that is down answers 503 with nothing referenced, and a blurred original
// leaves the store. The S3 backend is tested against a real S3-compatible server (s3rver) over HTTP.
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKeyOfDigest, type BlobStore } from '../src/core/blob-store/blob-store';
import { createFilesystemStore } from '../src/core/blob-store/filesystem-store';
import { sha256Hex } from '../src/core/crypto';
import { collectBlobs } from '../src/demos/blob-collector';
import { makeMockupPng, makePng } from './helpers/images';
import { startS3Server, type TestS3Server } from './helpers/s3-server';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

interface Backend {
  name: 'filesystem' | 's3';
  store: BlobStore;
  /** Makes the store unreachable, and back. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

async function filesystemBackend(): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), 'demoshare-blobs-'));
  const root = join(dir, 'blobs');
  return {
    name: 'filesystem',
    store: createFilesystemStore(root),
    // A file where the store's folder should be: every write fails, as on a full or read-only disk.
    async down() {
      await rm(root, { recursive: true, force: true });
      await writeFile(root, 'not a folder');
    },
    up: () => rm(root, { force: true }),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

async function s3Backend(server: TestS3Server): Promise<Backend> {
  const store = server.store('instance-a/');
  return { name: 's3', store, down: () => server.stop(), up: () => server.start(), close: () => store.close() };
}

describe.each(['filesystem', 's3'] as const)('demo assets in the %s store', (kind) => {
  let t: TestApp;
  let key: string;
  let backend: Backend;
  let s3: TestS3Server | undefined;

  beforeAll(async () => {
    if (kind === 's3') s3 = await startS3Server();
    backend = kind === 's3' ? await s3Backend(s3!) : await filesystemBackend();
    t = await createTestApp({ assetStore: backend.store });
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    await t?.close();
    await backend?.close();
    await s3?.close();
  });

  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  type AssetRow = { id: string; sha256: string; blob_key: string | null; has_bytes: boolean };
  const assetRows = async (demoId: string) =>
    (
      await t.ctx.database.executeSql('select id, sha256, blob_key, bytes is not null as has_bytes from assets where demo_id = $1 order by id', [
        demoId,
      ])
    ).rows as AssetRow[];

  it('writes the bytes to the store, the row keeps the digest and key, and both asset URLs serve them as before', async () => {
    const demoId = await demoWithSteps(t, key, 2);
    const rows = await assetRows(demoId);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.has_bytes).toBe(false);
      expect(row.blob_key).toBe(blobKeyOfDigest(row.sha256));
      const stored = await backend.store.get(row.blob_key!);
      expect(stored && sha256Hex(stored)).toBe(row.sha256);
    }
    const step = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps[1];
    // The editor's URL: immutable, as it was.
    const editor = await call('GET', step.image_url);
    expect(editor.statusCode).toBe(200);
    expect(editor.headers['content-type']).toBe('image/png');
    expect(editor.headers['cache-control']).toBe('private, max-age=86400, immutable');
    expect(editor.rawPayload.equals(makePng(8, 4, [30, 10, 10]))).toBe(true);
    // The viewer's, through a share link, with its ETag (the digest) and a 304 on revalidation.
    const share = await createShare(t, key, demoId);
    const v = viewerClient(t, share.token);
    const played = (await v.call('GET', '/demo')).json().data.steps[1].image_url as string;
    const path = played.replace(`/v1/viewer/${share.token}`, '');
    const seen = await v.call('GET', path);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['cache-control']).toBe('private, max-age=3600');
    expect(seen.headers.etag).toBe(`"${sha256Hex(seen.rawPayload)}"`);
    expect(seen.rawPayload.equals(editor.rawPayload)).toBe(true);
  });

  it('keeps a gated demo’s assets behind its gate', async () => {
    const demoId = await demoWithSteps(t, key, 1);
    const share = await createShare(t, key, demoId, { password: 'open sesame 123' });
    const asset = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps[0].image_url.split('/assets/')[1];
    const res = await t.app.inject({ method: 'GET', url: `/v1/viewer/${share.token}/assets/${asset}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
  });

  it('answers 503 while the store is down, and references nothing it could not write', async () => {
    const demoId = await demoWithSteps(t, key, 1, false);
    const before = await assetRows(demoId);
    const steps = async () => (await call('GET', `/v1/demos/${demoId}`)).json().data.steps.length as number;
    await backend.down();
    try {
      const upload = await t.app.inject({
        method: 'POST',
        url: `/v1/demos/${demoId}/steps`,
        headers: { ...bearer(key), 'content-type': 'image/png' },
        payload: makePng(8, 4, [200, 1, 2]),
      });
      expect(upload.statusCode, upload.body).toBe(503);
      expect(upload.headers['retry-after']).toBe('5');
      expect(upload.json().error).toMatchObject({ code: 'unavailable', request_id: upload.headers['x-request-id'] });
      expect(upload.json().error.message).toMatch(/asset store/);
      const stepId = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps[0].id;
      const replace = await t.app.inject({
        method: 'POST',
        url: `/v1/demos/${demoId}/steps/${stepId}/image`,
        headers: { ...bearer(key), 'content-type': 'image/png' },
        payload: makePng(8, 4, [201, 1, 2]),
      });
      expect(replace.statusCode).toBe(503);
      // Reading needs the store too: the asset is a 503, not a 500 or an empty body.
      const served = await call('GET', (await call('GET', `/v1/demos/${demoId}`)).json().data.steps[0].image_url);
      expect(served.statusCode).toBe(503);
      expect(served.json().error.code).toBe('unavailable');
    } finally {
      await backend.up();
    }
    expect(await assetRows(demoId)).toEqual(before);
    expect(await steps()).toBe(1);
    // Back up: the same upload goes through.
    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(8, 4, [200, 1, 2]),
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(await steps()).toBe(2);
  });

  it('answers 503 unavailable, not 500, for an asset whose blob was lost from the store', async () => {
    const created = await call('POST', '/v1/demos', { title: 'Lost bytes', type: 'interactive' });
    const demoId = created.json().data.id as string;
    const png = makePng(8, 4, [7, 77, 177]); // bytes of this test alone: no other asset shares the blob
    const step = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: png,
    });
    expect(step.statusCode, step.body).toBe(201);
    await backend.store.delete(blobKeyOfDigest(sha256Hex(png)));
    const lost = await call('GET', step.json().data.image_url);
    expect(lost.statusCode).toBe(503);
    expect(lost.json().error).toMatchObject({ code: 'unavailable', request_id: lost.headers['x-request-id'] });
    expect(lost.json().error.message).toContain('does not hold this asset');
    // No retry will bring them back: no Retry-After, unlike a store out of reach.
    expect(lost.headers['retry-after']).toBeUndefined();
    expect((await call('DELETE', `/v1/demos/${demoId}`)).statusCode).toBe(204);
  });

  it('removes a blurred original from the store once no asset names it', async () => {
    const created = await call('POST', '/v1/demos', { title: 'Blur me', type: 'interactive' });
    const demoId = created.json().data.id as string;
    const original = makeMockupPng(320, 160);
    const step = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: original,
    });
    expect(step.statusCode).toBe(201);
    const originalKey = blobKeyOfDigest(sha256Hex(original));
    expect(await backend.store.exists(originalKey)).toBe(true);
    const blurred = await call('POST', `/v1/demos/${demoId}/steps/${step.json().data.id}/redactions`, {
      regions: [{ x: 0.1, y: 0.1, width: 0.5, height: 0.5 }],
    });
    expect(blurred.statusCode, blurred.body).toBe(200);
    expect(await backend.store.exists(originalKey)).toBe(false);
    const [row] = await assetRows(demoId);
    expect(row!.sha256).not.toBe(sha256Hex(original));
    expect(await backend.store.exists(row!.blob_key!)).toBe(true);
  });

  it('collects the blobs no asset names once they are past ASSET_GC_GRACE, and keeps every blob a row names', async () => {
    // Pictures of their own (other tests' demos name the usual ones): `kept` shows the first of `gone`'s.
    const demoOf = async (title: string, colours: [number, number, number][]) => {
      const id = (await call('POST', '/v1/demos', { title, type: 'interactive' })).json().data.id as string;
      for (const rgb of colours) {
        const step = await t.app.inject({
          method: 'POST',
          url: `/v1/demos/${id}/steps`,
          headers: { ...bearer(key), 'content-type': 'image/png' },
          payload: makePng(8, 4, rgb),
        });
        expect(step.statusCode, step.body).toBe(201);
      }
      return id;
    };
    const gone = await demoOf('Deleted soon', [
      [7, 77, 177],
      [8, 88, 188],
    ]);
    const kept = await demoOf('Kept', [[7, 77, 177]]);
    const shared = blobKeyOfDigest(sha256Hex(makePng(8, 4, [7, 77, 177])));
    const only = blobKeyOfDigest(sha256Hex(makePng(8, 4, [8, 88, 188])));
    expect((await assetRows(gone)).map((r) => r.blob_key).sort()).toEqual([shared, only].sort());
    expect((await assetRows(kept))[0]!.blob_key).toBe(shared);
    expect((await call('DELETE', `/v1/demos/${gone}`)).statusCode).toBe(204);
    const collect = (hoursAhead: number) =>
      collectBlobs({
        database: t.ctx.database,
        assetStore: backend.store,
        clock: { now: () => new Date(Date.now() + hoursAhead * 3_600_000) },
        graceMs: 24 * 3_600_000,
      });
    // What rows name before the collection (the filesystem's 503 test above removed the folder under some).
    const namedKeys = async () =>
      ((await t.ctx.database.executeSql('select distinct blob_key from assets where blob_key is not null')).rows as { blob_key: string }[]).map(
        (r) => r.blob_key,
      );
    const present = new Set<string>();
    for (const k of await namedKeys()) if (await backend.store.exists(k)) present.add(k);
    expect(present.has(shared)).toBe(true);
    // Within the grace period nothing goes, named or not.
    expect((await collect(0)).deleted).toBe(0);
    expect(await backend.store.exists(only!)).toBe(true);
    const done = await collect(25);
    expect(done.deleted).toBeGreaterThanOrEqual(1);
    expect(done.listed).toBeGreaterThan(done.deleted);
    expect(await backend.store.exists(only!)).toBe(false);
    expect(await backend.store.exists(shared!)).toBe(true);
    // Every blob any row names is still there, and the demo that shares one serves it.
    for (const k of present) expect(await backend.store.exists(k), k).toBe(true);
    const detail = (await call('GET', `/v1/demos/${kept}`)).json().data;
    expect((await call('GET', detail.steps[0].image_url)).statusCode).toBe(200);
    // A second pass finds nothing more to do.
    expect((await collect(25)).deleted).toBe(0);
  });
});

describe('the filesystem store', () => {
  it('shards by digest, leaves no temporary file, and refuses keys that are not content addresses', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'demoshare-blobs-'));
    try {
      const store = createFilesystemStore(dir);
      const bytes = Buffer.from('<p>hello</p>');
      const digest = sha256Hex(bytes);
      const key = blobKeyOfDigest(digest);
      await store.put(key, bytes, 'text/html');
      const file = join(dir, 'sha256', digest.slice(0, 2), digest.slice(2, 4), digest);
      await utimes(file, new Date(0), new Date(0));
      await store.put(key, bytes, 'text/html');
      // Put again: the same file, its time renewed.
      expect((await stat(file)).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
      expect(await readdir(join(dir, 'sha256', digest.slice(0, 2), digest.slice(2, 4)))).toEqual([digest]);
      expect((await store.get(key))?.equals(bytes)).toBe(true);
      await store.delete(key);
      expect(await store.exists(key)).toBe(false);
      expect(await store.get(key)).toBeUndefined();
      await expect(store.put('sha256/../../etc/passwd', bytes, 'text/plain')).rejects.toThrow();
      expect(() => blobKeyOfDigest('../x')).toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists blobs with their times, and sweeps only one whose last put is older than asked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'demoshare-blobs-'));
    try {
      const store = createFilesystemStore(dir);
      const blob = async (text: string) => {
        const bytes = Buffer.from(text);
        const digest = sha256Hex(bytes);
        await store.put(blobKeyOfDigest(digest), bytes, 'text/plain');
        const file = join(dir, 'sha256', digest.slice(0, 2), digest.slice(2, 4), digest);
        await utimes(file, new Date('2026-01-01'), new Date('2026-01-01'));
        return { key: blobKeyOfDigest(digest), bytes, file };
      };
      const old = await blob('old and unnamed');
      const again = await blob('old, then put again');
      // A crash's leftover beside a blob is not a blob.
      await writeFile(`${old.file}.abc123.tmp`, 'torn');
      const listed = [];
      for await (const page of store.list()) listed.push(...page);
      expect(listed.map((b) => b.key).sort()).toEqual([old.key, again.key].sort());
      expect(listed.every((b) => b.modifiedAt.getTime() === new Date('2026-01-01').getTime())).toBe(true);

      const cutoff = new Date(Date.now() - 3_600_000);
      await store.put(again.key, again.bytes, 'text/plain');
      expect(await store.sweep(again.key, cutoff)).toBe(false);
      expect((await store.get(again.key))?.equals(again.bytes)).toBe(true);
      expect(await store.sweep(old.key, cutoff)).toBe(true);
      expect(await store.exists(old.key)).toBe(false);
      expect(await store.sweep(old.key, cutoff)).toBe(false);
      // Nothing set aside is left behind by either outcome.
      const folder = join(dir, 'sha256', sha256Hex(again.bytes).slice(0, 2), sha256Hex(again.bytes).slice(2, 4));
      expect(await readdir(folder)).toEqual([sha256Hex(again.bytes)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
