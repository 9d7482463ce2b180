import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

interface Experiment {
  id: string;
  name: string;
  status: string;
  winner_arm_id: string | null;
  arms: Array<{ id: string; label: string }>;
}

// A marketer runs one A/B test after another on the same link: every one stays readable, with its winner and results.
describe('the A/B tests of a link, one after another', () => {
  let t: TestApp;
  let owner: TestSession;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    owner = await t.signUp();
    key = await t.apiKey('all', owner);
    otherKey = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object, k = key) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(k), ...(payload ? { payload } : {}) });
  const data = async (url: string, k = key) => {
    const res = await call('GET', url, undefined, k);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json().data;
  };

  async function namedDemo(title: string, k = key) {
    const id = await demoWithSteps(t, k, 2, false);
    expect((await call('PATCH', `/v1/demos/${id}`, { title, status: 'published' }, k)).statusCode).toBe(200);
    return id;
  }

  async function startTest(shareId: string, name: string, demoIds: string[], k = key): Promise<Experiment> {
    const res = await call('POST', `/v1/shares/${shareId}/experiment`, { name, arms: demoIds.map((demo_id) => ({ demo_id, weight: 1 })) }, k);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }

  async function stopTest(shareId: string, winner: string | null): Promise<Experiment> {
    const res = await call('POST', `/v1/shares/${shareId}/experiment/stop`, { winner_arm_id: winner });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  /** `n` viewers of the link, every other one to the end. */
  async function viewers(token: string, n: number, from: number) {
    for (let i = 0; i < n; i++) await playView(t, token, { reached: 2, complete: i % 2 === 0, ip: `198.51.100.${from + i}` });
  }

  it('lists both tests newest first with their winners, and the older one’s results stay what they were', async () => {
    const a = await namedDemo('Tour A');
    const b = await namedDemo('Tour B');
    const c = await namedDemo('Tour C');
    const link = await createShare(t, key, a, { name: 'Pricing' });

    const first = await startTest(link.id, 'First', [a, b]);
    await viewers(link.token, 12, 1);
    const firstStopped = await stopTest(link.id, first.arms[1]!.id);
    // What the first test's results answered while it was the newest (its views, then the kept arm's).
    const firstResults = await data(`/v1/shares/${link.id}/experiment/results`);
    expect(firstResults.experiment).toEqual(firstStopped);
    expect(firstResults.arms.reduce((sum: number, arm: { views: number }) => sum + arm.views, 0)).toBe(12);
    expect(await data(`/v1/shares/${link.id}/experiments/${first.id}/results`)).toEqual(firstResults);

    const second = await startTest(link.id, 'Second', [a, c]);
    await viewers(link.token, 10, 40);
    const secondStopped = await stopTest(link.id, null);

    const listed = await call('GET', `/v1/shares/${link.id}/experiments`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().meta).toMatchObject({ total: 2, page: 1, per_page: 20 });
    const [newest, older] = listed.json().data as Experiment[];
    // Each in the shape GET /experiment answers; the newest is the one it answers.
    expect(newest).toEqual(secondStopped);
    expect(newest).toEqual(await data(`/v1/shares/${link.id}/experiment`));
    expect(older).toEqual(firstStopped);
    expect([newest!.name, newest!.winner_arm_id]).toEqual(['Second', null]);
    expect([older!.name, older!.winner_arm_id, older!.arms.find((x) => x.id === older!.winner_arm_id)?.label]).toEqual(['First', first.arms[1]!.id, 'Tour B']);
    expect(await data(`/v1/shares/${link.id}/experiments/${first.id}`)).toEqual(firstStopped);
    expect(await data(`/v1/shares/${link.id}/experiments/${second.id}`)).toEqual(secondStopped);

    // The first test's figures did not move when the second one served the link.
    expect(await data(`/v1/shares/${link.id}/experiments/${first.id}/results`)).toEqual(firstResults);
    const secondResults = await data(`/v1/shares/${link.id}/experiments/${second.id}/results`);
    expect(secondResults).toEqual(await data(`/v1/shares/${link.id}/experiment/results`));
    expect(secondResults.arms.reduce((sum: number, arm: { views: number }) => sum + arm.views, 0)).toBe(10);

    // Removing the newest: the earlier one is the newest again, and the link serves the arm it kept.
    expect((await call('DELETE', `/v1/shares/${link.id}/experiment`)).statusCode).toBe(204);
    expect((await data(`/v1/shares/${link.id}/experiments`)).map((x: Experiment) => x.id)).toEqual([first.id]);
    expect((await data(`/v1/shares/${link.id}/experiment`)).id).toBe(first.id);
    const viewer = await t.app.inject({ method: 'GET', url: `/v1/viewer/${link.token}/demo`, remoteAddress: '198.51.100.99' });
    expect(viewer.json().data.title).toBe('Tour B');
    expect((await call('GET', `/v1/shares/${link.id}/experiments/${second.id}`)).statusCode).toBe(404);
  });

  it('pages the list newest first, and refuses pages out of range', async () => {
    const a = await namedDemo('Paged A');
    const b = await namedDemo('Paged B');
    const link = await createShare(t, key, a);
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const started = await startTest(link.id, name, [a, b]);
      await stopTest(link.id, null);
      ids.push(started.id);
    }
    const page = async (query: string) => {
      const res = await call('GET', `/v1/shares/${link.id}/experiments?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return { names: res.json().data.map((x: Experiment) => x.name), meta: res.json().meta };
    };
    expect(await page('per_page=2')).toMatchObject({ names: ['Three', 'Two'], meta: { total: 3, page: 1, per_page: 2 } });
    expect(await page('per_page=2&page=2')).toMatchObject({ names: ['One'], meta: { total: 3, page: 2, per_page: 2 } });
    expect(await page('per_page=2&page=3')).toMatchObject({ names: [], meta: { total: 3, page: 3 } });
    for (const [query, field] of [
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
      ['page=two', 'page'],
      ['status=running', undefined],
    ] as const) {
      const res = await call('GET', `/v1/shares/${link.id}/experiments?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      if (field) expect(res.json().error.details.map((d: { field: string }) => d.field), query).toContain(field);
    }
  });

  it('lists nothing for a link that never had a test, and answers 404 for what is not this link’s', async () => {
    const a = await namedDemo('Plain A');
    const b = await namedDemo('Plain B');
    const plain = await createShare(t, key, a);
    const none = await call('GET', `/v1/shares/${plain.id}/experiments`);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toMatchObject({ data: [], meta: { total: 0, page: 1, per_page: 20 } });

    const tested = await createShare(t, key, a);
    const mine = await startTest(tested.id, 'Mine', [a, b]);
    const theirDemo = await namedDemo('Theirs A', otherKey);
    const theirLink = await createShare(t, otherKey, theirDemo);
    const theirs = await startTest(theirLink.id, 'Theirs', [theirDemo, await namedDemo('Theirs B', otherKey)], otherKey);

    const notFound = async (url: string) => {
      const res = await call('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    };
    // Another workspace's link, and its experiment through it or through one of ours.
    await notFound(`/v1/shares/${theirLink.id}/experiments`);
    await notFound(`/v1/shares/${theirLink.id}/experiments/${theirs.id}`);
    await notFound(`/v1/shares/${theirLink.id}/experiments/${theirs.id}/results`);
    await notFound(`/v1/shares/${tested.id}/experiments/${theirs.id}`);
    await notFound(`/v1/shares/${tested.id}/experiments/${theirs.id}/results`);
    // Our own experiment asked through another of our links, and an id that never existed.
    await notFound(`/v1/shares/${plain.id}/experiments/${mine.id}`);
    await notFound(`/v1/shares/${plain.id}/experiments/${mine.id}/results`);
    await notFound(`/v1/shares/${tested.id}/experiments/exp_01jd3k7q9x8v2m4n6p0r5s7t9w`);
    // A revoked link: no link at all.
    expect((await call('DELETE', `/v1/shares/${tested.id}`)).statusCode).toBe(204);
    await notFound(`/v1/shares/${tested.id}/experiments`);
    await notFound(`/v1/shares/${tested.id}/experiments/${mine.id}/results`);
    // Not an experiment id at all: a 400 naming it.
    const bad = await call('GET', `/v1/shares/${plain.id}/experiments/shr_01jd3k7q9x8v2m4n6p0r5s7t9w`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toContain('experiment_id');
  });

  it('reads the list and one test with shares:read, and the results with analytics:read, as the newest’s routes', async () => {
    const a = await namedDemo('Scoped A');
    const b = await namedDemo('Scoped B');
    const link = await createShare(t, key, a);
    const started = await startTest(link.id, 'Scoped', [a, b]);
    const sharesReader = await t.apiKey(['shares:read'], owner);
    const analyticsReader = await t.apiKey(['analytics:read'], owner);
    expect((await call('GET', `/v1/shares/${link.id}/experiments`, undefined, sharesReader)).statusCode).toBe(200);
    expect((await call('GET', `/v1/shares/${link.id}/experiments/${started.id}`, undefined, sharesReader)).statusCode).toBe(200);
    const refused = await call('GET', `/v1/shares/${link.id}/experiments/${started.id}/results`, undefined, sharesReader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('insufficient_scope');
    expect((await call('GET', `/v1/shares/${link.id}/experiments`, undefined, analyticsReader)).statusCode).toBe(403);
  });
});
