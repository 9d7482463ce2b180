import type { FastifyInstance } from 'fastify';
import type { Scope } from '../src/auth/permissions';
import { makePng } from '../test/helpers/images';

/** One in-process request that must succeed (seeding only: the measured traffic goes over HTTP). */
export function caller(app: FastifyInstance) {
  return async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await app.inject({ method: method as 'GET', url: path, headers, ...(body ? { payload: body as object } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
    return res;
  };
}

/**
 * A fresh account, an API key with `scopes`, and a demo of `steps` steps (small PNGs) with 2 hotspots each:
 * the demo the demos and viewer benchmarks read.
 */
export async function seedDemo(app: FastifyInstance, scopes: Scope[], steps = 10) {
  const call = caller(app);
  const signup = await call('POST', '/v1/auth/signup', { email: `bench.${Date.now()}@example.com`, password: 'correct horse battery staple' });
  const cookies = signup.cookies as Array<{ name: string; value: string }>;
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const csrf = cookies.find((c) => c.name === 'ds_csrf')!.value;
  const keyRes = await call('POST', '/v1/api-keys', { name: 'bench', scopes }, { cookie, 'x-csrf-token': csrf });
  const auth = { authorization: `Bearer ${keyRes.json().data.key}` };

  const demo = (await call('POST', '/v1/demos', { title: 'Bench demo', source_url: 'https://example.com' }, auth)).json().data as { id: string };
  for (let i = 0; i < steps; i++) {
    const step = (
      await app.inject({
        method: 'POST',
        url: `/v1/demos/${demo.id}/steps`,
        headers: { ...auth, 'content-type': 'image/png' },
        payload: makePng(64, 40),
      })
    ).json().data;
    await call('PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, { title: `Step ${i + 1}`, description: 'Click here to continue.' }, auth);
    for (let h = 0; h < 2; h++) {
      await call('POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, { x: 0.1 + h * 0.4, y: 0.2, width: 0.3, height: 0.1, label: 'Next' }, auth);
    }
  }
  return { call, auth, demo };
}
