import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

describe('A/B tests on a share link', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    key = await t.apiKey('all');
    otherKey = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object, k = key) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(k), ...(payload ? { payload } : {}) });

  /** A published demo named `title` with `steps` steps. */
  async function namedDemo(title: string, steps: number, k = key) {
    const id = await demoWithSteps(t, k, steps, false);
    const res = await call('PATCH', `/v1/demos/${id}`, { title, status: 'published' }, k);
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });

  /** A fresh viewer: opens the link, gets the payload. */
  async function visit(token: string, i: number) {
    const v = viewerClient(t, token, `198.51.100.${(i % 250) + 1}`);
    expect((await v.call('GET', '')).statusCode).toBe(200);
    const demo = await v.call('GET', '/demo');
    expect(demo.statusCode, demo.body).toBe(200);
    return { v, demo, title: demo.json().data.title as string };
  }

  it('validates arms: at least two, distinct, positive integer weights, published demos of the workspace', async () => {
    const a = await namedDemo('Arm A', 2);
    const b = await namedDemo('Arm B', 3);
    const draft = await demoWithSteps(t, key, 1, false);
    const foreign = await namedDemo('Theirs', 1, otherKey);
    const link = await createShare(t, key, a);
    const start = (body: object) => call('POST', `/v1/shares/${link.id}/experiment`, body);
    const field = async (body: object) => {
      const res = await start(body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error.details.map((d: { field: string }) => d.field);
    };
    expect(await field({ arms: [{ demo_id: a, weight: 1 }] })).toContain('arms');
    expect(await field({ arms: [{ demo_id: a, weight: 0 }, { demo_id: b, weight: 1 }] })).toContain('arms.0.weight');
    expect(await field({ arms: [{ demo_id: a, weight: 1.5 }, { demo_id: b, weight: 1 }] })).toContain('arms.0.weight');
    expect(await field({ arms: [{ demo_id: a, weight: -2 }, { demo_id: b, weight: 1 }] })).toContain('arms.0.weight');
    expect(await field({ arms: [{ demo_id: a, weight: 1 }, { demo_id: a, weight: 2 }] })).toEqual(['arms.1']);
    expect(await field({ arms: [{ demo_id: a, weight: 1 }, { demo_id: foreign, weight: 1 }] })).toEqual(['arms.1.demo_id']);
    expect(await field({ arms: [{ demo_id: a, weight: 1 }, { demo_id: draft, weight: 1 }] })).toEqual(['arms.1.demo_id']);
    expect(await field({ arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1, version: 7 }] })).toEqual(['arms.1.version']);
    expect((await start({ arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1 }], colour: 'red' })).statusCode).toBe(400);
    // Nothing was created by any of these.
    expect((await call('GET', `/v1/shares/${link.id}/experiment`)).statusCode).toBe(404);
    // Another workspace's link is no link.
    const theirs = await createShare(t, otherKey, foreign);
    const arms = [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1 }];
    expect((await call('POST', `/v1/shares/${theirs.id}/experiment`, { arms })).statusCode).toBe(404);
    expect((await call('GET', `/v1/shares/${theirs.id}/experiment`)).statusCode).toBe(404);
    // One running experiment per link.
    expect((await start({ arms })).statusCode).toBe(201);
    const again = await start({ arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 2 }] });
    expect(again.statusCode, again.body).toBe(409);
  });

  it('splits fresh viewers by weight, keeps each on its arm, and the payload, assets and events follow the arm', async () => {
    const a = await namedDemo('Short tour', 2);
    const b = await namedDemo('Full tour', 3);
    const link = await createShare(t, key, a);
    const started = await call('POST', `/v1/shares/${link.id}/experiment`, {
      name: 'Short vs full',
      arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 3 }],
    });
    expect(started.statusCode, started.body).toBe(201);
    const experiment = started.json().data;
    expect(experiment).toMatchObject({ status: 'running', metric: 'completion', name: 'Short vs full', winner_arm_id: null });
    expect(experiment.arms.map((x: { label: string; share: number; serving: boolean }) => [x.label, x.share, x.serving])).toEqual([
      ['Short tour', 0.25, true],
      ['Full tour', 0.75, true],
    ]);
    const [armA, armB] = experiment.arms.map((x: { id: string }) => x.id);

    const seen = { 'Short tour': [] as Awaited<ReturnType<typeof visit>>[], 'Full tour': [] as Awaited<ReturnType<typeof visit>>[] };
    for (let i = 0; i < 80; i++) {
      const visitor = await visit(link.token, i);
      seen[visitor.title as keyof typeof seen].push(visitor);
    }
    // Binomial(80, 0.25): mean 20, sd ≈ 3.9; 4 sd either side.
    expect(seen['Short tour'].length).toBeGreaterThanOrEqual(5);
    expect(seen['Short tour'].length).toBeLessThanOrEqual(36);
    const onA = seen['Short tour'][0]!;
    const onB = seen['Full tour'][0]!;
    // Sticky: the same viewer gets the same arm again and again.
    for (let n = 0; n < 3; n++) expect((await onA.v.call('GET', '/demo')).json().data.title).toBe('Short tour');
    // The ETag names the arm's payload: each arm has its own, and a 304 comes only for one's own.
    const etagA = onA.demo.headers.etag as string;
    const etagB = onB.demo.headers.etag as string;
    expect(etagA).not.toBe(etagB);
    expect((await t.app.inject({ method: 'GET', url: `/v1/viewer/${link.token}/demo`, headers: { cookie: cookieOf(onA.v), 'if-none-match': etagA } })).statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url: `/v1/viewer/${link.token}/demo`, headers: { cookie: cookieOf(onA.v), 'if-none-match': etagB } })).statusCode).toBe(200);
    // Assets: only the arm's own demo's.
    const imageA = onA.demo.json().data.steps[0].image_url.replace(`/v1/viewer/${link.token}`, '');
    const imageB = onB.demo.json().data.steps[0].image_url.replace(`/v1/viewer/${link.token}`, '');
    expect((await onA.v.call('GET', imageA)).statusCode).toBe(200);
    expect((await onA.v.call('GET', imageB)).statusCode).toBe(404);
    expect((await onB.v.call('GET', imageB)).statusCode).toBe(200);
    // Step numbers: of the arm's demo (2 steps on A, 3 on B).
    const tooFar = await onA.v.call('POST', '/events', { events: [ev('view_started'), ev('step_reached', { step_number: 3, seconds_on_previous: 1 })] });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().error.details[0]).toEqual({ field: 'events.1.step_number', message: 'must be between 1 and 2' });
    expect((await onB.v.call('POST', '/events', { events: [ev('view_started'), ev('step_reached', { step_number: 3, seconds_on_previous: 1 }), ev('completed')] })).statusCode).toBe(202);
    expect((await onA.v.call('POST', '/events', { events: [ev('view_started'), ev('cta_clicked', { step_number: 2, element_id: 'k1' })] })).statusCode).toBe(202);

    // The views are the arm's demo's, and the results count them per arm.
    const viewsB = (await call('GET', `/v1/demos/${b}/views`)).json().data;
    expect(viewsB).toHaveLength(1);
    expect((await call('GET', `/v1/demos/${a}/views`)).json().data).toHaveLength(1);
    const results = await call('GET', `/v1/shares/${link.id}/experiment/results`);
    expect(results.statusCode, results.body).toBe(200);
    const r = results.json().data;
    expect(r.arms.map((x: Record<string, unknown>) => [x.arm_id, x.views, x.completions, x.cta_clicks])).toEqual([
      [armA, 1, 0, 1],
      [armB, 1, 1, 0],
    ]);
    expect(r.arms[1].comparison).toMatchObject({ difference: 1 });
    expect(r.arms[0].comparison).toBeNull();
    expect(r.significance).toMatchObject({ verdict: 'too_small', winner_arm_id: null, min_views_per_arm: 100, metric: 'completion' });
    expect(r.significance.method).toMatch(/two-proportion z-test/i);

    // Stopping without naming a winner while the sample is too small: 409, still running.
    const early = await call('POST', `/v1/shares/${link.id}/experiment/stop`, {});
    expect(early.statusCode, early.body).toBe(409);
    expect((await call('POST', `/v1/shares/${link.id}/experiment/stop`, { winner_arm_id: 'arm_01jd3k7q9x8v2m4n6p0r5s7t9w' })).statusCode).toBe(400);
    // Stop and keep B: every viewer gets B from now on, those who were on A too; the figures stay.
    const stopped = await call('POST', `/v1/shares/${link.id}/experiment/stop`, { winner_arm_id: armB });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().data).toMatchObject({ status: 'stopped', winner_arm_id: armB });
    expect((await onA.v.call('GET', '/demo')).json().data.title).toBe('Full tour');
    for (let i = 100; i < 106; i++) expect((await visit(link.token, i)).title).toBe('Full tour');
    const after = (await call('GET', `/v1/shares/${link.id}/experiment/results`)).json().data;
    expect(after.arms.map((x: { views: number }) => x.views)).toEqual([1, 1]);
    expect((await call('POST', `/v1/shares/${link.id}/experiment/stop`, { winner_arm_id: armA })).statusCode).toBe(409);

    // Removed: the link serves its own demo again.
    expect((await call('DELETE', `/v1/shares/${link.id}/experiment`)).statusCode).toBe(204);
    expect((await visit(link.token, 120)).title).toBe('Short tour');
    expect((await call('GET', `/v1/shares/${link.id}/experiment`)).statusCode).toBe(404);
  });

  it('gives an identified viewer the same arm on every device, without any cookie', async () => {
    const a = await namedDemo('Gate A', 1);
    const b = await namedDemo('Gate B', 1);
    const link = await createShare(t, key, a, { require_identification: true });
    expect((await call('POST', `/v1/shares/${link.id}/experiment`, { arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1 }] })).statusCode).toBe(201);
    const titles = new Set<string>();
    for (let person = 0; person < 12; person++) {
      const arms = new Set<string>();
      for (let device = 0; device < 3; device++) {
        // A fresh client each time: no cookie, the session token in a header, as a consent-pending embed does.
        const state = await t.app.inject({ method: 'POST', url: `/v1/viewer/${link.token}/identify`, payload: { name: 'P', email: `person${person}@acme.test` } });
        expect(state.statusCode, state.body).toBe(200);
        const session = state.json().data.session_token as string;
        const demo = await t.app.inject({ method: 'GET', url: `/v1/viewer/${link.token}/demo`, headers: { 'x-viewer-session': session } });
        arms.add(demo.json().data.title);
      }
      expect(arms.size).toBe(1);
      titles.add([...arms][0]!);
    }
    // Twelve people on a 50/50 split: both arms are served (all on one side has odds of 1 in 2048).
    expect(titles).toEqual(new Set(['Gate A', 'Gate B']));
  });

  it('keeps the link working when an arm\'s demo is unpublished or deleted: its viewers move to the other arms', async () => {
    const a = await namedDemo('Stays', 1);
    const b = await namedDemo('Goes', 2);
    const link = await createShare(t, key, a);
    const started = (await call('POST', `/v1/shares/${link.id}/experiment`, { arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1 }] })).json().data;
    let onB: Awaited<ReturnType<typeof visit>> | undefined;
    for (let i = 0; i < 40 && !onB; i++) {
      const v = await visit(link.token, i);
      if (v.title === 'Goes') onB = v;
    }
    expect(onB).toBeDefined();
    expect((await onB!.v.call('POST', '/events', { events: [ev('view_started')] })).statusCode).toBe(202);
    // Unpublished: B serves nobody; its viewer gets A at the next request, and every new viewer too.
    expect((await call('PATCH', `/v1/demos/${b}`, { status: 'draft' })).statusCode).toBe(200);
    expect((await onB!.v.call('GET', '/demo')).json().data.title).toBe('Stays');
    for (let i = 50; i < 56; i++) expect((await visit(link.token, i)).title).toBe('Stays');
    const current = (await call('GET', `/v1/shares/${link.id}/experiment`)).json().data;
    expect(current.arms.map((x: { serving: boolean }) => x.serving)).toEqual([true, false]);
    // Deleted: the arm stays, with no demo; the link still works, the results still answer.
    expect((await call('DELETE', `/v1/demos/${b}`)).statusCode).toBe(204);
    expect((await visit(link.token, 60)).title).toBe('Stays');
    const after = (await call('GET', `/v1/shares/${link.id}/experiment`)).json().data;
    expect(after.arms[1]).toMatchObject({ id: started.arms[1].id, demo_id: null, serving: false });
    const results = await call('GET', `/v1/shares/${link.id}/experiment/results`);
    expect(results.statusCode).toBe(200);
    // The deleted demo's views went with it.
    expect(results.json().data.arms[1].views).toBe(0);
  });

  it('serves a pinned version of a demo as its own arm', async () => {
    const a = await namedDemo('Versioned', 2);
    // Version 2: the same demo with a new title.
    expect((await call('PATCH', `/v1/demos/${a}`, { title: 'Versioned, renamed' })).statusCode).toBe(200);
    const published = await call('POST', `/v1/demos/${a}/publish`);
    expect([200, 201], published.body).toContain(published.statusCode);
    const versions = (await call('GET', `/v1/demos/${a}/versions`)).json().data as Array<{ number: number }>;
    expect(versions.map((v) => v.number).sort()).toEqual([1, 2]);
    const link = await createShare(t, key, a);
    const started = await call('POST', `/v1/shares/${link.id}/experiment`, { arms: [{ demo_id: a, version: 1, weight: 1 }, { demo_id: a, weight: 1 }] });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().data.arms.map((x: { label: string }) => x.label)).toEqual(['Versioned, renamed v1', 'Versioned, renamed']);
    const titles = new Set<string>();
    for (let i = 0; i < 16; i++) titles.add((await visit(link.token, i)).title);
    expect(titles).toEqual(new Set(['Versioned', 'Versioned, renamed']));
  });
});

function cookieOf(v: { jar: Map<string, string> }) {
  return [...v.jar].map(([k, val]) => `${k}=${val}`).join('; ');
}
