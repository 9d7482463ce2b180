import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShare, demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// docs/consent.md: before the embedding page grants consent the viewer API sets no cookie and a view has no
// visitor id; consent (POST /v1/viewer/:token/consent) sets the cookie and counts the same view as a viewer.
describe('consent-aware embeds: the viewer API before and after consent', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  /** A player that keeps its session in memory and says whether consent is pending, like player/src/api.ts. */
  function embed(token: string, pending = true) {
    let session: string | null = null;
    const call = async (method: 'GET' | 'POST', path: string, payload?: object) => {
      const res: LightMyRequestResponse = await t.app.inject({
        method,
        url: `/v1/viewer/${token}${path}`,
        remoteAddress: '203.0.113.40',
        headers: { ...(session ? { 'x-viewer-session': session } : {}), ...(pending ? { 'x-viewer-consent': 'pending' } : {}) },
        ...(payload ? { payload } : {}),
      });
      const issued = res.statusCode < 300 && path !== '/consent' ? res.json()?.data?.session_token : undefined;
      if (issued) session = issued;
      return res;
    };
    const play = async () => {
      const events = [{ id: randomUUID(), type: 'view_started' }, { id: randomUUID(), type: 'step_reached', step_number: 2, seconds_on_previous: 2 }];
      return call('POST', '/events', { events });
    };
    return { call, play, session: () => session, grant: (granted: boolean) => { pending = !granted; return call('POST', '/consent', { granted }); } };
  }

  const figures = async (demoId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { total_views: number; unique_viewers: number };
  };
  const viewsOf = async (demoId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Array<{ viewer: { email: string | null; anonymous_id: string | null } }>;
  };

  it('sets no cookie and keeps no visitor id before consent; consent sets the cookie and counts the same view as a viewer', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const share = await createShare(t, key, demoId);
    const v = embed(share.token);
    const state = await v.call('GET', '');
    expect(state.statusCode, state.body).toBe(200);
    expect(state.headers['set-cookie']).toBeUndefined();
    expect(v.session()).toEqual(expect.any(String));
    expect((await v.call('GET', '/demo')).statusCode).toBe(200);
    const sent = await v.play();
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.headers['set-cookie']).toBeUndefined();
    // Counted as a view, not as a unique viewer: it has no visitor id.
    expect(await figures(demoId)).toMatchObject({ total_views: 1, unique_viewers: 0 });
    expect((await viewsOf(demoId))[0]!.viewer).toEqual({ email: null, name: null, anonymous_id: null });

    const granted = await v.grant(true);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().data).toEqual({ granted: true, session: true });
    const cookie = (granted.cookies as Array<{ name: string; value: string; httpOnly?: boolean; sameSite?: string }>)[0]!;
    expect(cookie).toMatchObject({ name: expect.stringMatching(/^ds_view_/), value: v.session(), httpOnly: true, sameSite: 'Lax' });
    // The same view, not a new one: now with a visitor id, and counted once as a viewer.
    expect(await figures(demoId)).toMatchObject({ total_views: 1, unique_viewers: 1 });
    const [view] = await viewsOf(demoId);
    expect(view!.viewer.anonymous_id).toEqual(expect.any(String));
    // Granting twice changes nothing; the view goes on with its session.
    expect((await v.grant(true)).json().data).toEqual({ granted: true, session: true });
    expect((await v.call('POST', '/events', { events: [{ id: randomUUID(), type: 'completed', seconds_on_previous: 1 }] })).statusCode).toBe(202);
    expect(await figures(demoId)).toMatchObject({ total_views: 1, unique_viewers: 1 });
    expect((await viewsOf(demoId))[0]!.viewer.anonymous_id).toBe(view!.viewer.anonymous_id);
  });

  it('counts an identified viewer by e-mail before consent, and once after it', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const share = await createShare(t, key, demoId, { require_identification: true });
    const v = embed(share.token);
    expect((await v.call('GET', '')).json().data.gate).toBe('identification');
    const identified = await v.call('POST', '/identify', { name: 'Jane', email: 'jane@acme.com' });
    expect(identified.statusCode, identified.body).toBe(200);
    expect(identified.headers['set-cookie']).toBeUndefined();
    expect((await v.play()).statusCode).toBe(202);
    expect(await figures(demoId)).toMatchObject({ total_views: 1, unique_viewers: 1 });
    expect((await v.grant(true)).statusCode).toBe(200);
    expect(await figures(demoId)).toMatchObject({ total_views: 1, unique_viewers: 1 });
  });

  it('keeps today’s behaviour without the header, and gives a view begun after consent its visitor id at once', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const share = await createShare(t, key, demoId);
    const plain = embed(share.token, false);
    const state = await plain.call('GET', '');
    expect((state.cookies as Array<{ name: string }>)[0]?.name).toMatch(/^ds_view_/);
    expect((await plain.play()).statusCode).toBe(202);
    // Consent before the first event: the view opened afterwards has the session's visitor id.
    const early = embed(share.token);
    await early.call('GET', '');
    expect((await early.grant(true)).json().data.session).toBe(true);
    expect((await early.play()).statusCode).toBe(202);
    expect(await figures(demoId)).toMatchObject({ total_views: 2, unique_viewers: 2 });
    expect((await viewsOf(demoId)).every((v) => typeof v.viewer.anonymous_id === 'string')).toBe(true);
  });

  it('expires the cookie on withdrawal, does nothing without a session, and refuses bad input', async () => {
    const demoId = await demoWithSteps(t, key, 2);
    const share = await createShare(t, key, demoId);
    const v = embed(share.token);
    await v.call('GET', '');
    await v.grant(true);
    const withdrawn = await v.grant(false);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().data).toEqual({ granted: false, session: true });
    const cleared = (withdrawn.cookies as Array<{ name: string; value: string; expires?: Date; maxAge?: number }>)[0]!;
    expect(cleared.name).toMatch(/^ds_view_/);
    expect(cleared.value).toBe('');
    expect((cleared.expires?.getTime() ?? Date.now()) <= Date.now() || cleared.maxAge === 0).toBe(true);
    // The player goes on with its session in memory and the header; the server still knows the view.
    expect((await v.play()).statusCode).toBe(202);

    const none = embed(share.token);
    const nothing = await none.grant(true);
    expect(nothing.json().data).toEqual({ granted: true, session: false });
    expect(nothing.headers['set-cookie']).toBeUndefined();

    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
    expect((await post(`/v1/viewer/${share.token}/consent`, { granted: 'yes' })).statusCode).toBe(400);
    expect((await post(`/v1/viewer/${share.token}/consent`, { granted: true, extra: 1 })).statusCode).toBe(400);
    expect((await post(`/v1/viewer/${'x'.repeat(43)}/consent`, { granted: true })).statusCode).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/v1/shares/${share.id}`, headers: bearer(key) });
    expect((await post(`/v1/viewer/${share.token}/consent`, { granted: true })).statusCode).toBe(404);
  });
});
