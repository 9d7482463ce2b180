import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// The funnel names each step as the counted views saw it: the titles of the version they played, not
// today's draft, whose step 2 may by now be called something else.
describe('funnel step titles come from the versions played', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = await t.apiKey('all');
  }, 120_000);
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

  it('labels the steps of version 1 while the draft and version 2 say otherwise', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const share = await createShare(t, key, demoId);
    await playView(t, share.token, { reached: 3, complete: true });

    const steps = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps as Array<{ id: string; number: number }>;
    expect((await call('PATCH', `/v1/demos/${demoId}/steps/${steps[1]!.id}`, { title: 'Renamed in the draft' })).statusCode).toBe(200);

    const beforePublish = (await call('GET', `/v1/demos/${demoId}/analytics`)).json().data;
    expect(beforePublish.versions_played).toEqual([1]);
    expect(beforePublish.steps.map((s: { title: string }) => s.title)).toEqual(['Step 1', 'Step 2', 'Step 3']);

    // Published as version 2, the rename is what new viewers see; the one view counted still played version 1.
    expect((await call('POST', `/v1/demos/${demoId}/publish`, {})).statusCode).toBe(200);
    const afterPublish = (await call('GET', `/v1/demos/${demoId}/analytics`)).json().data;
    expect(afterPublish.steps[1]).toMatchObject({ number: 2, views: 1, title: 'Step 2' });

    // A view of version 2: step 2 now has two names among the views counted, so none; version=2 names it.
    await playView(t, share.token, { reached: 2 });
    const mixed = (await call('GET', `/v1/demos/${demoId}/analytics`)).json().data;
    expect(mixed.versions_played).toEqual([1, 2]);
    expect(mixed.steps.map((s: { title: string | null }) => s.title)).toEqual(['Step 1', null, 'Step 3']);
    const second = (await call('GET', `/v1/demos/${demoId}/analytics?version=2`)).json().data;
    expect(second.steps[1]).toMatchObject({ views: 1, title: 'Renamed in the draft' });
  });
});
