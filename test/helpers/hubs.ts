// Demo hubs in tests: a hub with its collections and demos made through the API, and a hub viewer with a cookie jar of its own, as a browser on the hub page.
import type { LightMyRequestResponse } from 'fastify';
import { demoWithSteps } from './shares';
import { keyData, type TestApp } from './test-app';

export interface HubPlan {
  /** The body of POST /v1/hubs. */
  hub: Record<string, unknown>;
  /** Each collection with its entries, in order; each entry is a new published demo of `steps` steps (2). */
  collections: Array<{ name: string; entries: Array<{ title: string; description?: string }> }>;
  steps?: number;
}

/**
 * A hub as a member makes it: the hub, its collections, and an entry per demo. Answers the hub as created and
 * the entries in the plan's order, with the collection and demo of each.
 */
export async function seedHub(t: TestApp, key: string, plan: HubPlan) {
  const hub = (await keyData(t, key, 'POST', '/hubs', plan.hub)) as { id: string; url: string; embed_url: string };
  const entries: Array<{ id: string; title: string; demoId: string; collectionId: string }> = [];
  for (const collection of plan.collections) {
    const { id: collectionId } = await keyData(t, key, 'POST', `/hubs/${hub.id}/collections`, { name: collection.name });
    for (const { title, description } of collection.entries) {
      const demoId = await demoWithSteps(t, key, plan.steps ?? 2);
      const entry = await keyData(t, key, 'POST', `/hubs/${hub.id}/entries`, { demo_id: demoId, collection_id: collectionId, title, description });
      entries.push({ id: entry.id, title, demoId, collectionId });
    }
  }
  return { hub, token: hub.url.split('/h/')[1]!, entries };
}

/**
 * A hub viewer with a cookie jar of its own (or none: headers only, as an embed before consent). `cookie`:
 * more cookies sent with every request (a member's web-app session).
 */
export function hubClient(t: Pick<TestApp, 'app'>, token: string, opts: { ip?: string; cookies?: boolean; cookie?: string } = {}) {
  const jar = new Map<string, string>();
  let session: string | undefined;
  const useCookies = opts.cookies ?? true;
  async function call(method: 'GET' | 'POST', path: string, payload?: object) {
    const jarCookies = [...jar].map(([k, v]) => `${k}=${v}`);
    const res: LightMyRequestResponse = await t.app.inject({
      method,
      url: `/v1/hub-viewer/${token}${path}`,
      remoteAddress: opts.ip ?? '203.0.113.20',
      headers: {
        'user-agent': 'vitest-hub',
        ...(useCookies ? { cookie: [...jarCookies, ...(opts.cookie ? [opts.cookie] : [])].join('; ') } : { 'x-viewer-consent': 'pending' }),
        ...(session && !useCookies ? { 'x-hub-session': session } : {}),
      },
      ...(payload ? { payload } : {}),
    });
    for (const c of res.cookies as Array<{ name: string; value: string }>) jar.set(c.name, c.value);
    const json = res.statusCode === 200 && String(res.headers['content-type']).startsWith('application/json');
    const token_ = json ? (res.json().data?.session_token as string | undefined) : undefined;
    if (token_) session = token_;
    return res;
  }
  return { call, jar };
}
