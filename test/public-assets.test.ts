// Public links' images past Demoshare (ASSET_REDIRECT=presigned, ASSET_PUBLIC_URL) against a real S3-compatible
// server (s3rver): a public link's image redirects to a presigned address the bucket really serves, an expired one
// is refused by the bucket, and gated, revoked, expiring links and bytes kept in the database never leave the gates.
import { createHash, createHmac, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKeyOfDigest } from '../src/core/blob-store/blob-store';
import { sha256Hex } from '../src/core/crypto';
import { moveAssets } from '../src/demos/move-assets';
import { makePng } from './helpers/images';
import { startS3Server, type TestS3Server } from './helpers/s3-server';
import { createShare, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const TTL_MS = 10 * 60_000;

/** A published demo of one image step whose bytes no other demo of the file has; answers its id, bytes and asset id. */
async function demoOfOwnImage(t: TestApp, key: string) {
  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const demoId = (await call('POST', '/v1/demos', { title: 'Pricing tour', type: 'interactive' })).json().data.id as string;
  const png = makePng(6 + randomInt(40), 5, [randomInt(256), randomInt(256), randomInt(256)]);
  const step = await t.app.inject({
    method: 'POST',
    url: `/v1/demos/${demoId}/steps`,
    headers: { ...bearer(key), 'content-type': 'image/png' },
    payload: png,
  });
  expect(step.statusCode).toBe(201);
  expect((await call('PATCH', `/v1/demos/${demoId}`, { status: 'published' })).statusCode).toBe(200);
  const assetId = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps[0].image_url.split('/assets/')[1] as string;
  return { demoId, png, assetId };
}

const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** Whether a presigned GET address carries a valid AWS SigV4 query signature for `secret` (the S3 rules). */
function sigV4Holds(address: string, secret: string): boolean {
  const url = new URL(address);
  const params = [...url.searchParams].filter(([k]) => k !== 'X-Amz-Signature');
  const query = params
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const path = url.pathname.split('/').map((segment) => rfc3986(decodeURIComponent(segment))).join('/');
  const canonical = ['GET', path, query, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const [, date, region, service] = url.searchParams.get('X-Amz-Credential')!.split('/') as [string, string, string, string];
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', url.searchParams.get('X-Amz-Date'), scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return hmac(key, toSign).toString('hex') === url.searchParams.get('X-Amz-Signature');
}

describe('public assets with ASSET_REDIRECT=presigned (S3 store)', () => {
  let s3: TestS3Server;
  let t: TestApp;
  let inDatabase: TestApp;
  let key: string;
  const store = () => s3.store('instance-p/');

  beforeAll(async () => {
    s3 = await startS3Server();
    // A second app on the same database keeps its assets' bytes in their rows (ASSET_STORE=database before a switch).
    inDatabase = await createTestApp({ assetStore: null });
    t = await createTestApp({
      database: inDatabase.db,
      assetStore: store(),
      config: { ASSET_STORE: 's3', S3_BUCKET: s3.bucket, S3_PREFIX: 'instance-p/', ASSET_REDIRECT: 'presigned', ASSET_PRESIGN_TTL: TTL_MS },
    });
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    await t?.close();
    await inDatabase?.close();
    await s3?.close();
  });

  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });

  it("redirects a public link's image to a presigned address that serves its bytes, the same address for the window", async () => {
    const { demoId, png, assetId } = await demoOfOwnImage(t, key);
    const share = await createShare(t, key, demoId);
    const v = viewerClient(t, share.token);
    const imageUrl = (await v.call('GET', '/demo')).json().data.steps[0].image_url as string;
    // The payload still names Demoshare's immutable route: the redirect is decided per request, after the gates.
    expect(imageUrl).toBe(`/v1/viewer/${share.token}/assets/${assetId}`);
    const res = await v.call('GET', `/assets/${assetId}`);
    expect(res.statusCode).toBe(302);
    expect(res.body).toBe('');
    expect(res.headers['cache-control']).toBe(`private, max-age=${TTL_MS / 4000}`);
    expect(res.headers.etag).toBe(`"${sha256Hex(png)}"`);
    const location = res.headers.location as string;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/instance-p/${blobKeyOfDigest(sha256Hex(png))}?`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe(String(TTL_MS / 1000));
    expect(sigV4Holds(location, 'S3RVER')).toBe(true);
    // The bucket serves the bytes at that address, with the lifetime signed into it.
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(fetched.headers.get('cache-control')).toBe(`private, max-age=${TTL_MS / 1000}, immutable`);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(png)).toBe(true);
    // A second viewer in the same window gets the same address (caches reuse it), and the ETag still answers 304.
    const again = await viewerClient(t, share.token, '203.0.113.8').call('GET', `/assets/${assetId}`);
    expect(again.headers.location).toBe(location);
    const revalidated = await t.app.inject({
      method: 'GET',
      url: `/v1/viewer/${share.token}/assets/${assetId}`,
      headers: { 'if-none-match': `"${sha256Hex(png)}"` },
    });
    expect(revalidated.statusCode).toBe(304);
    // The editor's route never redirects.
    const editor = await call('GET', `/v1/demos/${demoId}/assets/${assetId}`);
    expect(editor.statusCode).toBe(200);
    expect(editor.rawPayload.equals(png)).toBe(true);
  });

  it('has the bucket refuse a presigned address once it has expired, and signs each for its object, lifetime and bucket', async () => {
    const { png } = await demoOfOwnImage(t, key);
    const blob = blobKeyOfDigest(sha256Hex(png));
    const signer = store();
    try {
      const expired = await signer.presignGet!(blob, { expiresInSeconds: 60, signedAt: new Date(Date.now() - 3_600_000) });
      const refused = await fetch(expired);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('Request has expired');
      const valid = await signer.presignGet!(blob, { expiresInSeconds: 60, signedAt: new Date() });
      expect((await fetch(valid)).status).toBe(200);
      // s3rver checks the expiry but not SigV4 signatures (unimplemented there): the signature is checked here,
      // recomputed from the canonical request with the bucket's secret, as S3, MinIO and R2 check it.
      expect(sigV4Holds(valid, 'S3RVER')).toBe(true);
      expect(sigV4Holds(expired, 'S3RVER')).toBe(true);
      expect(sigV4Holds(valid, 'another secret')).toBe(false);
      for (const [param, value] of [
        ['X-Amz-Expires', '604800'], // a longer life
        ['X-Amz-Date', new Date(Date.now() + 3_600_000).toISOString().replace(/[-:]|\.\d{3}/g, '')], // a later start
        ['response-cache-control', 'public, max-age=31536000'],
      ] as const) {
        const altered = new URL(valid);
        altered.searchParams.set(param, value);
        expect(sigV4Holds(altered.href, 'S3RVER'), param).toBe(false);
      }
      const otherObject = new URL(valid);
      otherObject.pathname = otherObject.pathname.replace(/[0-9a-f]{64}$/, '0'.repeat(64));
      expect(sigV4Holds(otherObject.href, 'S3RVER')).toBe(false);
    } finally {
      await signer.close();
    }
  });

  it("serves a gated link's image only after its gate, from Demoshare, never as a redirect", async () => {
    const { demoId, png, assetId } = await demoOfOwnImage(t, key);
    for (const gate of [
      { password: 'open sesame 123' },
      { require_identification: true },
      { require_identification: true, allowed_domains: ['example.com'] },
    ]) {
      const share = await createShare(t, key, demoId, gate);
      const v = viewerClient(t, share.token);
      const before = await v.call('GET', `/assets/${assetId}`);
      expect([401, 403]).toContain(before.statusCode);
      expect(before.headers.location).toBeUndefined();
      if ('password' in gate) expect((await v.call('POST', '/unlock', { password: gate.password })).statusCode).toBe(200);
      else expect((await v.call('POST', '/identify', { name: 'Ada', email: 'ada@example.com' })).statusCode).toBe(200);
      const after = await v.call('GET', `/assets/${assetId}`);
      expect(after.statusCode).toBe(200);
      expect(after.headers.location).toBeUndefined();
      expect(after.headers['cache-control']).toBe('private, max-age=3600');
      expect(after.rawPayload.equals(png)).toBe(true);
    }
    // An expiring link has no gate to pass, but an address handed out could outlive it: served from here too.
    const expiring = await createShare(t, key, demoId, { expires_at: new Date(Date.now() + 86_400_000).toISOString() });
    const res = await viewerClient(t, expiring.token).call('GET', `/assets/${assetId}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(png)).toBe(true);
  });

  it('stops redirecting at once when the link gets a password or is revoked', async () => {
    const { demoId, png, assetId } = await demoOfOwnImage(t, key);
    const share = await createShare(t, key, demoId);
    const v = viewerClient(t, share.token);
    expect((await v.call('GET', `/assets/${assetId}`)).statusCode).toBe(302);
    expect((await call('PATCH', `/v1/shares/${share.id}`, { password: 'now it is secret 1' })).statusCode).toBe(200);
    const gated = await v.call('GET', `/assets/${assetId}`);
    expect(gated.statusCode).toBe(401);
    expect(gated.headers.location).toBeUndefined();
    expect((await v.call('POST', '/unlock', { password: 'now it is secret 1' })).statusCode).toBe(200);
    const unlocked = await v.call('GET', `/assets/${assetId}`);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.rawPayload.equals(png)).toBe(true);

    const other = await createShare(t, key, demoId);
    const w = viewerClient(t, other.token);
    expect((await w.call('GET', `/assets/${assetId}`)).statusCode).toBe(302);
    expect((await call('DELETE', `/v1/shares/${other.id}`)).statusCode).toBe(204);
    const revoked = await w.call('GET', `/assets/${assetId}`);
    expect(revoked.statusCode).toBe(404);
    expect(revoked.headers.location).toBeUndefined();
  });

  it('serves assets whose bytes are in the database from Demoshare, as before', async () => {
    const ownerKey = key;
    const { demoId, png, assetId } = await demoOfOwnImage(inDatabase, ownerKey);
    const row = (await t.ctx.database.executeSql('select blob_key, bytes is not null as has_bytes from assets where id = $1', [assetId])).rows[0] as {
      blob_key: string | null;
      has_bytes: boolean;
    };
    expect(row).toEqual({ blob_key: null, has_bytes: true });
    const share = await createShare(t, key, demoId);
    const res = await viewerClient(t, share.token).call('GET', `/assets/${assetId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.rawPayload.equals(png)).toBe(true);
  });
});

describe('CDN addresses with ASSET_PUBLIC_URL (S3 store, Demoshare as the CDN origin)', () => {
  const CDN = 'https://cdn.example.test/v1/public-assets';
  let s3: TestS3Server;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({
      assetStore: s3.store(),
      config: { ASSET_STORE: 's3', S3_BUCKET: s3.bucket, ASSET_PUBLIC_URL: `${CDN}/` },
    });
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  /** What the CDN would ask Demoshare for, given an address on it. */
  const origin = (cdnUrl: string) => t.app.inject({ method: 'GET', url: cdnUrl.slice('https://cdn.example.test'.length) });

  it('names immutable CDN addresses in the payload of an ungated link only, and its origin serves them only then', async () => {
    const { demoId, png, assetId } = await demoOfOwnImage(t, key);
    const digest = sha256Hex(png);
    const open = await createShare(t, key, demoId);
    const v = viewerClient(t, open.token);
    const step = (await v.call('GET', '/demo')).json().data.steps[0];
    expect(step.image_url).toBe(`${CDN}/sha256/${digest}`);
    const served = await origin(step.image_url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers.etag).toBe(`"${digest}"`);
    expect(served.rawPayload.equals(png)).toBe(true);
    // Without presigned redirects, the gated route still serves the bytes itself.
    expect((await v.call('GET', `/assets/${assetId}`)).statusCode).toBe(200);

    // A gated link of the same demo: its payload (past the gate) names Demoshare's gated route.
    const gated = await createShare(t, key, demoId, { password: 'open sesame 123' });
    const g = viewerClient(t, gated.token);
    expect((await g.call('POST', '/unlock', { password: 'open sesame 123' })).statusCode).toBe(200);
    expect((await g.call('GET', '/demo')).json().data.steps[0].image_url).toBe(`/v1/viewer/${gated.token}/assets/${assetId}`);

    // The open link gets a password: its payload (cached a moment ago) names the gated route at once, and the
    // origin stops serving the image (the other link is gated too).
    expect((await call('PATCH', `/v1/shares/${open.id}`, { password: 'closed now 12345' })).statusCode).toBe(200);
    expect((await v.call('GET', '/demo')).statusCode).toBe(401);
    expect((await v.call('POST', '/unlock', { password: 'closed now 12345' })).statusCode).toBe(200);
    expect((await v.call('GET', '/demo')).json().data.steps[0].image_url).toBe(`/v1/viewer/${open.token}/assets/${assetId}`);
    const refused = await origin(`${CDN}/sha256/${digest}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('not_found');
  });

  it("never serves a gated, draft or revoked demo's image at the origin", async () => {
    const gatedDemo = await demoOfOwnImage(t, key);
    await createShare(t, key, gatedDemo.demoId, { require_identification: true });
    expect((await origin(`${CDN}/sha256/${sha256Hex(gatedDemo.png)}`)).statusCode).toBe(404);

    const revokedDemo = await demoOfOwnImage(t, key);
    const share = await createShare(t, key, revokedDemo.demoId);
    const url = (await viewerClient(t, share.token).call('GET', '/demo')).json().data.steps[0].image_url as string;
    expect((await origin(url)).statusCode).toBe(200);
    expect((await call('DELETE', `/v1/shares/${share.id}`)).statusCode).toBe(204);
    expect((await origin(url)).statusCode).toBe(404);

    const draft = await demoOfOwnImage(t, key);
    const drafted = await createShare(t, key, draft.demoId);
    expect((await call('PATCH', `/v1/demos/${draft.demoId}`, { status: 'draft' })).statusCode).toBe(200);
    expect((await viewerClient(t, drafted.token).call('GET', '/demo')).statusCode).toBe(404);
    expect((await origin(`${CDN}/sha256/${sha256Hex(draft.png)}`)).statusCode).toBe(404);

    // Nothing at all, and a malformed digest.
    expect((await origin(`${CDN}/sha256/${'0'.repeat(64)}`)).statusCode).toBe(404);
    const bad = await origin(`${CDN}/sha256/NOT-A-DIGEST`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_request');
  });

  // Last: it moves every asset of the file's app back into the database.
  it('keeps serving an address it named once the bytes are moved back into the database (demoshare assets move --to database)', async () => {
    const { demoId, png } = await demoOfOwnImage(t, key);
    const share = await createShare(t, key, demoId);
    const url = (await viewerClient(t, share.token).call('GET', '/demo')).json().data.steps[0].image_url as string;
    expect(url).toBe(`${CDN}/sha256/${sha256Hex(png)}`);

    const report = await moveAssets({ db: t.ctx.database.db, to: 'database', from: s3.store(), batchSize: 100 });
    expect(report.ok).toBe(true);
    expect(report.after.blobs.assets).toBe(0);
    // A browser or the CDN may hold the address for a year (immutable): the origin finds the image by its digest.
    const served = await origin(url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect(served.headers.etag).toBe(`"${sha256Hex(png)}"`);
    // Still only while a public link shows it.
    expect((await call('DELETE', `/v1/shares/${share.id}`)).statusCode).toBe(204);
    expect((await origin(url)).statusCode).toBe(404);
  });
});
