import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { makePng } from './images';
import { bearer, type TestApp } from './test-app';

/** A demo with `steps` image steps (each with one hotspot), published unless told otherwise. */
export async function demoWithSteps(t: TestApp, key: string, steps = 3, publish = true) {
  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const created = await call('POST', '/v1/demos', { title: 'Secret roadmap tour', type: 'interactive' });
  if (created.statusCode !== 201) throw new Error(`demo: ${created.statusCode} ${created.body}`);
  const demo = created.json().data as { id: string };
  for (let i = 0; i < steps; i++) {
    const step = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demo.id}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(8, 4, [i * 30, 10, 10]),
    });
    if (step.statusCode !== 201) throw new Error(`step: ${step.statusCode} ${step.body}`);
    const stepId = step.json().data.id as string;
    await call('PATCH', `/v1/demos/${demo.id}/steps/${stepId}`, { title: `Step ${i + 1}`, description: `Look at part ${i + 1}` });
    const hs = await call('POST', `/v1/demos/${demo.id}/steps/${stepId}/hotspots`, {
      x: 0.1,
      y: 0.1,
      width: 0.2,
      height: 0.2,
      label: `Click ${i + 1}`,
    });
    if (hs.statusCode !== 201) throw new Error(`hotspot: ${hs.statusCode} ${hs.body}`);
  }
  if (publish) {
    const res = await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' });
    if (res.statusCode !== 200) throw new Error(`publish: ${res.statusCode} ${res.body}`);
  }
  return demo.id;
}

export async function createShare(t: TestApp, key: string, demoId: string, body: object = {}) {
  const res = await t.app.inject({ method: 'POST', url: `/v1/demos/${demoId}/shares`, headers: bearer(key), payload: body });
  if (res.statusCode !== 201) throw new Error(`share: ${res.statusCode} ${res.body}`);
  const share = res.json().data as { id: string; url: string; embed_url: string };
  return { ...share, token: share.url.split('/s/')[1]! };
}

/** A viewer with a cookie jar of its own, talking to the viewer API from one address. */
export function viewerClient(t: TestApp, token: string, ip = '203.0.113.7') {
  const jar = new Map<string, string>();
  async function call(method: 'GET' | 'POST', path: string, payload?: object, tokenOverride?: string) {
    const res: LightMyRequestResponse = await t.app.inject({
      method,
      url: `/v1/viewer/${tokenOverride ?? token}${path}`,
      remoteAddress: ip,
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), 'user-agent': 'vitest-viewer' },
      ...(payload ? { payload } : {}),
    });
    for (const c of res.cookies as Array<{ name: string; value: string }>) jar.set(c.name, c.value);
    return res;
  }
  return { call, jar };
}

/**
 * One whole view through the viewer API: opened, identified as `email` (or anonymous), `reached` steps,
 * maybe completed. With `member`, the browser is signed in to the web app: its session cookie travels with
 * the viewer requests, so the view is the team's own.
 */
export async function playView(
  t: TestApp,
  token: string,
  opts: { email?: string; name?: string; reached: number; complete?: boolean; member?: { cookie: string }; ip?: string },
) {
  const v = viewerClient(t, token, opts.ip ?? '203.0.113.9');
  if (opts.member) {
    for (const part of opts.member.cookie.split('; ')) {
      const [name, value] = part.split('=') as [string, string];
      v.jar.set(name, value);
    }
  }
  const expectStatus = (res: LightMyRequestResponse, status: number) => {
    if (res.statusCode !== status) throw new Error(`viewer: ${res.statusCode} ${res.body}`);
  };
  expectStatus(await v.call('GET', ''), 200);
  if (opts.email) expectStatus(await v.call('POST', '/identify', { name: opts.name ?? 'Someone', email: opts.email }), 200);
  const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });
  const events = [ev('view_started')];
  for (let s = 2; s <= opts.reached; s++) events.push(ev('step_reached', { step_number: s, seconds_on_previous: 3 }));
  if (opts.complete) events.push(ev('completed', { seconds_on_previous: 2 }));
  expectStatus(await v.call('POST', '/events', { events }), 202);
}
