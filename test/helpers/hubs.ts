// Demo hubs in tests: a hub viewer with a cookie jar of its own, as a browser on the hub page.
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app';

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
