import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { createFilesystemStore } from '../../src/core/blob-store/filesystem-store';
import { openDatabase } from '../../src/db/client';
import { JobQueue } from '../../src/jobs/queue';
import { createShare, demoWithSteps, playView } from './shares';
import { defaultAssetStore } from '../../src/config';
import { bearer, createTestApp, TEST_SECRET } from './test-app';

export const OWNER = { email: 'owner@backup.example.com', password: 'correct horse battery staple' };

/** What a seeded instance holds, as the checks afterwards need it. */
export interface Seeded {
  key: string;
  demoId: string;
  shareToken: string;
  webhookId: string;
  oauthClientId: string;
  /** Path (and bytes) of the first step's image, as the server serves it. */
  imagePath: string;
  image: Buffer;
  views: number;
  deliveries: number;
}

/**
 * Fills a DATA_DIR through the app itself, in this process, on the embedded database in that directory:
 * an account with a password, an API key, a published demo with image steps and hotspots, a share link
 * viewed twice, a webhook whose deliveries are still pending (no worker runs), an OAuth app, and the
 * account e-mail jobs left queued. The secret key file holds the secret the app used. The assets' bytes go
 * where `demoshare start` puts them by default, DATA_DIR/blobs, or with `assetStore: 'database'` into their rows.
 */
export async function seedDataDir(dataDir: string, options: { assetStore?: 'filesystem' | 'database' } = {}): Promise<Seeded> {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, 'secret.key'), `${TEST_SECRET}\n`, { mode: 0o600 });
  const database = await openDatabase({ dataDir });
  await database.migrate();
  const queue = new JobQueue(database, { work: false });
  await queue.start(() => {});
  await queue.stop(1_000);
  // As `demoshare start` runs by default: the blobs in DATA_DIR/blobs, the rows naming them.
  const store = options.assetStore ?? defaultAssetStore('pglite');
  const t = await createTestApp({
    database: { database, drop: () => database.close() },
    config: { ASSET_STORE: store, DATA_DIR: dataDir },
    assetStore: store === 'filesystem' ? createFilesystemStore(path.join(dataDir, 'blobs')) : null,
  });
  try {
    const admin = await t.signUp(OWNER.email, OWNER.password);
    const key = await t.apiKey('all', admin);
    const hook = await admin.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: 'https://93.184.215.14/hooks/demoshare', events: ['demo.viewed', 'demo.completed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const oauth = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Acme CRM', redirect_uris: ['https://crm.example.com/callback'], scopes: ['demos:read'] },
    });
    expect(oauth.statusCode, oauth.body).toBe(201);
    const demoId = await demoWithSteps(t, key, 3);
    const share = await createShare(t, key, demoId);
    await playView(t, share.token, { email: 'viewer@example.com', name: 'Vera Viewer', reached: 3, complete: true });
    await playView(t, share.token, { reached: 2, ip: '203.0.113.20' });

    const demo = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) });
    const imagePath = new URL(demo.json().data.steps[0].image_url as string, 'http://x').pathname;
    const image = await t.app.inject({ method: 'GET', url: imagePath, headers: bearer(key) });
    expect(image.statusCode).toBe(200);
    const webhookId = hook.json().data.id as string;
    const deliveries = await admin.inject({ method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries` });
    const views = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: bearer(key) });
    return {
      key,
      demoId,
      shareToken: share.token,
      webhookId,
      oauthClientId: oauth.json().data.client_id as string,
      imagePath,
      image: image.rawPayload,
      views: views.json().meta.total as number,
      deliveries: deliveries.json().meta.total as number,
    };
  } finally {
    await t.close();
    await database.close();
  }
}

/** Signs in over HTTP with the owner's password; returns the session cookie. */
export async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * Checks, over real HTTP against a running server, that the seeded instance is all there: the password
 * signs in, the API key works, the demo and its step image are served, views and pending deliveries kept.
 */
export async function expectSeededInstance(url: string, seeded: Seeded, extraViews = 0) {
  const cookie = await signIn(url);
  const auth = { authorization: `Bearer ${seeded.key}` };
  const demo = await fetch(`${url}/v1/demos/${seeded.demoId}`, { headers: auth });
  expect(demo.status).toBe(200);
  expect(((await demo.json()) as { data: { steps: unknown[] } }).data.steps).toHaveLength(3);
  const image = await fetch(`${url}${seeded.imagePath}`, { headers: auth });
  expect(image.status).toBe(200);
  expect(Buffer.from(await image.arrayBuffer()).equals(seeded.image)).toBe(true);
  const views = await fetch(`${url}/v1/demos/${seeded.demoId}/views`, { headers: auth });
  expect(((await views.json()) as { meta: { total: number } }).meta.total).toBe(seeded.views + extraViews);
  const deliveries = await fetch(`${url}/v1/webhooks/${seeded.webhookId}/deliveries`, { headers: { cookie } });
  expect(deliveries.status).toBe(200);
  expect(((await deliveries.json()) as { meta: { total: number } }).meta.total).toBeGreaterThanOrEqual(seeded.deliveries);
  const apps = await fetch(`${url}/v1/oauth/apps`, { headers: { cookie } });
  expect(JSON.stringify(await apps.json())).toContain(seeded.oauthClientId);
}

/** One more view over real HTTP through the share link; resolves once the events are acknowledged (202). */
export async function viewOverHttp(url: string, token: string, steps: number): Promise<void> {
  const page = await fetch(`${url}/v1/viewer/${token}`, { headers: { 'user-agent': 'crash-test' } });
  expect(page.status).toBe(200);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const events = [{ id: randomUUID(), type: 'view_started' }];
  for (let s = 2; s <= steps; s++) events.push({ id: randomUUID(), type: 'step_reached', step_number: s, seconds_on_previous: 1 } as never);
  const res = await fetch(`${url}/v1/viewer/${token}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'user-agent': 'crash-test' },
    body: JSON.stringify({ events }),
  });
  expect(res.status, await res.clone().text()).toBe(202);
}
