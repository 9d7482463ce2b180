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

  it('deletes an earlier test on its own: its figures go, the newest and what the link serves stay; the newest is a 409', async () => {
    const a = await namedDemo('Trim A');
    const b = await namedDemo('Trim B');
    const c = await namedDemo('Trim C');
    const link = await createShare(t, key, a, { name: 'Trimmed' });
    const first = await startTest(link.id, 'Old', [a, b]);
    await viewers(link.token, 8, 120);
    await stopTest(link.id, first.arms[1]!.id);
    const second = await startTest(link.id, 'Current', [a, c]);
    await viewers(link.token, 8, 140);
    const listed = async () => (await data(`/v1/shares/${link.id}/experiments`)).map((x: Experiment) => x.id);
    const totalViews = async (demoId: string) => (await data(`/v1/demos/${demoId}/analytics`)).total_views as number;
    const viewsBefore = [await totalViews(a), await totalViews(b)];
    const secondResults = await data(`/v1/shares/${link.id}/experiment/results`);
    expect(viewsBefore[0]! + viewsBefore[1]!).toBe(16 - secondResults.arms[1].views);

    // The newest through this route: refused, naming the route that removes it; nothing changes.
    const refused = await call('DELETE', `/v1/shares/${link.id}/experiments/${second.id}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe('conflict');
    expect(refused.json().error.message).toContain(`DELETE /v1/shares/${link.id}/experiment`);
    expect(await listed()).toEqual([second.id, first.id]);

    const deleted = await call('DELETE', `/v1/shares/${link.id}/experiments/${first.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(deleted.body).toBe('');
    expect(await listed()).toEqual([second.id]);
    for (const url of [`/v1/shares/${link.id}/experiments/${first.id}`, `/v1/shares/${link.id}/experiments/${first.id}/results`]) {
      expect((await call('GET', url)).statusCode, url).toBe(404);
    }
    expect((await call('DELETE', `/v1/shares/${link.id}/experiments/${first.id}`)).statusCode).toBe(404);
    // The newest, its figures, what the link serves: as they were. The views stay in their demos' analytics.
    expect(await data(`/v1/shares/${link.id}/experiment/results`)).toEqual(secondResults);
    expect([await totalViews(a), await totalViews(b)]).toEqual(viewsBefore);
    const viewer = await t.app.inject({ method: 'GET', url: `/v1/viewer/${link.token}/demo`, remoteAddress: '198.51.100.199' });
    expect(['Trim A', 'Trim C']).toContain(viewer.json().data.title);

    const audit = await call('GET', '/v1/audit-log?action=experiment.deleted&per_page=100');
    expect(audit.statusCode, audit.body).toBe(200);
    const entry = (audit.json().data as Array<{ target: { id: string; label: string }; changes: object; actor: { type: string } }>).find((e) => e.target.id === first.id);
    expect(entry).toMatchObject({ target: { label: 'Old' }, actor: { type: 'api_key' }, changes: { share_id: link.id, status: 'stopped', earlier: true } });

    // The deleted test's kept arm is gone for good: removing the newest now leaves the link on its own demo.
    expect((await call('DELETE', `/v1/shares/${link.id}/experiment`)).statusCode).toBe(204);
    expect(await listed()).toEqual([]);
    const own = await t.app.inject({ method: 'GET', url: `/v1/viewer/${link.token}/demo`, remoteAddress: '198.51.100.198' });
    expect(own.json().data.title).toBe('Trim A');
  });

  it('deletes an earlier test only for a writer of this link, and answers 404 and 400 as the reads do', async () => {
    const a = await namedDemo('Guarded A');
    const b = await namedDemo('Guarded B');
    const link = await createShare(t, key, a);
    const older = await startTest(link.id, 'Older', [a, b]);
    await stopTest(link.id, null);
    const newer = await startTest(link.id, 'Newer', [a, b]);
    const url = `/v1/shares/${link.id}/experiments/${older.id}`;
    const listed = async () => (await data(`/v1/shares/${link.id}/experiments`)).map((x: Experiment) => x.id);

    // A read-only key, and a viewer's key with every scope: the scope, then the role, refuse it.
    const reader = await call('DELETE', url, undefined, await t.apiKey(['shares:read'], owner));
    expect(reader.statusCode).toBe(403);
    expect(reader.json().error.code).toBe('insufficient_scope');
    const viewerMember = await t.member(owner, 'viewer');
    expect((await call('DELETE', url, undefined, await t.apiKey('all', viewerMember))).statusCode).toBe(403);
    // Another workspace: its key finds neither the link nor the test.
    const theirs = await call('DELETE', url, undefined, otherKey);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.code).toBe('not_found');
    // Our test through another of our links, an id that never existed, not an experiment id.
    const elsewhere = await createShare(t, key, a);
    expect((await call('DELETE', `/v1/shares/${elsewhere.id}/experiments/${older.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/shares/${link.id}/experiments/exp_01jd3k7q9x8v2m4n6p0r5s7t9w`)).statusCode).toBe(404);
    const bad = await call('DELETE', `/v1/shares/${link.id}/experiments/arm_01jd3k7q9x8v2m4n6p0r5s7t9w`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toContain('experiment_id');
    expect(await listed()).toEqual([newer.id, older.id]);

    // An editor may: links are theirs to manage.
    const editor = await t.member(owner, 'editor');
    expect((await call('DELETE', url, undefined, await t.apiKey(['shares:write'], editor))).statusCode).toBe(204);
    expect(await listed()).toEqual([newer.id]);
    // A revoked link: no link at all.
    const revoked = await createShare(t, key, a);
    const gone = await startTest(revoked.id, 'Gone', [a, b]);
    await stopTest(revoked.id, null);
    await startTest(revoked.id, 'Gone too', [a, b]);
    expect((await call('DELETE', `/v1/shares/${revoked.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/v1/shares/${revoked.id}/experiments/${gone.id}`)).statusCode).toBe(404);
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
