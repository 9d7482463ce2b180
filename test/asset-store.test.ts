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
});
