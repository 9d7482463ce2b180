import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBus } from '../src/core/bus';
import { openDatabase } from '../src/db/client';
import { seedViews } from '../src/viewing/seed-views';
import { createTestDatabase, TEST_DATABASE_URL } from './helpers/database';
import { countQueries } from './helpers/query-count';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// What the hot reads cost the database, counted at the driver: a cached authenticated read sends nothing,
// a list page one statement (two past the end). Counts, not timings: the figures are in bench/.
describe('statements per request', () => {
  let t: TestApp;
  let key: string;
  let queries: ReturnType<typeof countQueries>;
  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  /** The statements one request sent. */
  async function statements(url: string) {
    queries.take();
    const res = await call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return { sent: queries.take(), body: res.json() };
  }

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.apiKey('all');
    queries = countQueries(t.db.database);
  });
  afterAll(async () => {
    queries?.stop();
    await t?.close();
  });

  it('serves a cached demo detail, key and all, without a statement, and a write is seen at once', async () => {
    const demo = (await call('POST', '/v1/demos', { title: 'Cached' })).json().data;
    await call('POST', `/v1/demos/${demo.id}/steps`, { title: 'One' });
    const first = await statements(`/v1/demos/${demo.id}`);
    expect(first.sent.length).toBeGreaterThan(0);
    const again = await statements(`/v1/demos/${demo.id}`);
    expect(again.sent).toEqual([]);
    expect(again.body.data).toEqual(first.body.data);
    // The write announces the demo: the next read loads it again, and shows it.
    expect((await call('PATCH', `/v1/demos/${demo.id}`, { title: 'Renamed' })).statusCode).toBe(200);
    const after = await statements(`/v1/demos/${demo.id}`);
    expect(after.sent.length).toBeGreaterThan(0);
    expect(after.body.data.title).toBe('Renamed');
    expect((await statements(`/v1/demos/${demo.id}`)).sent).toEqual([]);
  });

  it('lists members in one statement, the key from cache', async () => {
    await statements('/v1/team/members');
    expect((await statements('/v1/team/members')).sent).toHaveLength(1);
  });

  describe('the demos list', () => {
    const titles: string[] = [];
    let published: { id: string; share: string };

    beforeAll(async () => {
      const before = (await call('GET', '/v1/demos?per_page=100')).json().meta.total as number;
      expect(before).toBeLessThan(5);
      for (let i = 0; i < 25; i++) {
        const res = await call('POST', '/v1/demos', { title: `Listed ${i}` });
        titles.unshift(res.json().data.title);
      }
      // One published demo with a link: share_url and published_version come from the same statement.
      const id = (await call('GET', '/v1/demos?per_page=1')).json().data[0].id as string;
      await call('POST', `/v1/demos/${id}/steps`, { title: 'Step' });
      expect((await call('PATCH', `/v1/demos/${id}`, { status: 'published' })).statusCode).toBe(200);
      const share = (await call('POST', `/v1/demos/${id}/shares`, {})).json().data.url as string;
      published = { id, share };
    });

    it('answers a page of 20 with counts, versions, links and the total in one statement', async () => {
      await statements('/v1/demos?per_page=20'); // the key is cached from here on
      const { sent, body } = await statements('/v1/demos?per_page=20');
      expect(sent).toHaveLength(1);
      expect(body.data).toHaveLength(20);
      expect(body.meta).toMatchObject({ page: 1, per_page: 20, total: body.meta.total });
      const first = body.data[0];
      expect(first).toMatchObject({ id: published.id, step_count: 1, published_version: 1 });
      expect(first.share_url).toBe(published.share);
      expect(body.data[1]).toMatchObject({ share_url: null, published_version: null, step_count: 0 });
    });

    it('pages by cursor through the same rows as by number, each page one statement', async () => {
      const byNumber: string[] = [];
      const total = (await call('GET', '/v1/demos?per_page=7')).json().meta.total as number;
      for (let page = 1; (page - 1) * 7 < total; page++) {
        byNumber.push(...(await call('GET', `/v1/demos?per_page=7&page=${page}`)).json().data.map((d: { id: string }) => d.id));
      }
      const byCursor: string[] = [];
      let url = '/v1/demos?per_page=7';
      for (let page = 1; ; page++) {
        const { sent, body } = await statements(url);
        expect(sent).toHaveLength(1);
        expect(body.meta).toMatchObject({ total, page, per_page: 7 });
        byCursor.push(...body.data.map((d: { id: string }) => d.id));
        if (!body.meta.next_cursor) break;
        url = `/v1/demos?per_page=7&cursor=${body.meta.next_cursor}`;
      }
      expect(byCursor).toEqual(byNumber);
      expect(new Set(byCursor).size).toBe(total);
    });

    it('keeps a cursor right when rows are added meanwhile, and refuses one it did not make', async () => {
      const first = (await call('GET', '/v1/demos?per_page=5')).json();
      await call('POST', '/v1/demos', { title: 'Added meanwhile' });
      const second = (await call('GET', `/v1/demos?per_page=5&cursor=${first.meta.next_cursor}`)).json();
      const byNumber = (await call('GET', '/v1/demos?per_page=6&page=2')).json();
      // The page after the first five as it was: the new demo, first in the list now, shifts no row.
      expect(second.data.map((d: { id: string }) => d.id)).toEqual(byNumber.data.slice(0, 5).map((d: { id: string }) => d.id));
      const bad = await call('GET', '/v1/demos?cursor=bm90LWEtY3Vyc29y');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details).toEqual([{ field: 'cursor', message: 'Unknown cursor' }]);
      const both = await call('GET', `/v1/demos?page=2&cursor=${first.meta.next_cursor}`);
      expect(both.statusCode).toBe(400);
    });

    it('costs a second statement only past the end, for the total', async () => {
      const { sent, body } = await statements('/v1/demos?per_page=20&page=50');
      expect(body.data).toEqual([]);
      expect(body.meta.total).toBeGreaterThan(25);
      expect(sent).toHaveLength(2);
    });
  });

  describe('the views list', () => {
    let demoId: string;

    beforeAll(async () => {
      demoId = (await call('POST', '/v1/demos', { title: 'Watched' })).json().data.id;
      for (const title of ['One', 'Two', 'Three']) await call('POST', `/v1/demos/${demoId}/steps`, { title });
      expect((await call('PATCH', `/v1/demos/${demoId}`, { status: 'published' })).statusCode).toBe(200);
      await seedViews(t.db.database, { demoId, views: 23, days: 3, seed: 7 });
    });

    it('answers a page with step times, links and the total in one statement', async () => {
      const { sent, body } = await statements(`/v1/demos/${demoId}/views?per_page=20`);
      expect(sent).toHaveLength(1);
      expect(body.data).toHaveLength(20);
      expect(body.meta).toMatchObject({ page: 1, per_page: 20, total: 23 });
      expect(body.data.some((v: { step_times: unknown[] }) => v.step_times.length > 0)).toBe(true);
      for (const v of body.data as { steps_viewed: number[]; step_times: { number: number }[] }[]) {
        expect(v.step_times.map((s) => s.number)).toEqual([...v.step_times.map((s) => s.number)].sort((a, b) => a - b));
      }
      // A date range of whole days counts on the daily roll-up, in the same statement.
      const today = new Date().toISOString().slice(0, 10);
      const ranged = await statements(`/v1/demos/${demoId}/views?per_page=5&start_date=2000-01-01&end_date=${today}`);
      expect(ranged.sent).toHaveLength(1);
      expect(ranged.body.meta.total).toBe(23);
    });

    it('pages by cursor through the same views as by number, each page one statement', async () => {
      const byNumber: string[] = [];
      for (let page = 1; page <= 4; page++) {
        byNumber.push(...(await call('GET', `/v1/demos/${demoId}/views?per_page=7&page=${page}`)).json().data.map((v: { id: string }) => v.id));
      }
      const byCursor: string[] = [];
      let url = `/v1/demos/${demoId}/views?per_page=7`;
      for (let page = 1; ; page++) {
        const { sent, body } = await statements(url);
        expect(sent).toHaveLength(1);
        expect(body.meta).toMatchObject({ total: 23, page, per_page: 7 });
        byCursor.push(...body.data.map((v: { id: string }) => v.id));
        if (!body.meta.next_cursor) break;
        url = `/v1/demos/${demoId}/views?per_page=7&cursor=${body.meta.next_cursor}`;
      }
      expect(byCursor).toEqual(byNumber);
      expect(new Set(byCursor).size).toBe(23);
    });

    it("reads step times for the page's own rows only, each in its view's partition, however deep the page", async () => {
      // The statement a page by number sends, with its parameters, run again under EXPLAIN ANALYZE: the plan
      // says how often the step-time subquery ran, and which partitions of view_steps each run read.
      const sent: Array<{ text: string; values: unknown[] }> = [];
      const client = (t.db.database.kind === 'pglite' ? (t.db.database.db as unknown as { $client: object }).$client : t.db.database.pool) as {
        query: (...a: unknown[]) => unknown;
      };
      const query = client.query;
      client.query = function (this: unknown, ...a: unknown[]) {
        const first = a[0] as string | { text: string; values?: unknown[] };
        if (typeof first === 'string') sent.push({ text: first, values: (a[1] as unknown[]) ?? [] });
        else sent.push({ text: first.text, values: Array.isArray(a[1]) ? a[1] : (first.values ?? []) });
        return query.apply(this, a);
      };
      let body: { data: { id: string; step_times: unknown[] }[] };
      try {
        body = (await call('GET', `/v1/demos/${demoId}/views?per_page=5&page=4`)).json();
      } finally {
        client.query = query;
      }
      expect(body.data).toHaveLength(5);
      expect(body.data.every((v) => v.step_times.length > 0)).toBe(true);
      const list = sent.find((s) => s.text.includes('"view_steps"'))!;
      const [row] = (await t.db.database.executeSql(`explain (analyze, format json) ${list.text}`, list.values)).rows;
      const raw = Object.values(row!)[0];
      type PlanNode = { 'Relation Name'?: string; 'Subplan Name'?: string; 'Actual Loops': number; Plans?: PlanNode[] };
      const plan = ((typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }])[0].Plan;
      const nodes: PlanNode[] = [];
      const walk = (node: PlanNode) => {
        nodes.push(node);
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(plan);
      const scansOf = (node: PlanNode): PlanNode[] => {
        const found: PlanNode[] = [];
        const visit = (n: PlanNode) => {
          if (n['Relation Name']?.startsWith('view_steps')) found.push(n);
          else n.Plans?.forEach(visit);
        };
        visit(node);
        return found;
      };
      const stepTimes = nodes.filter((n) => n['Subplan Name'] && scansOf(n).length > 0);
      expect(stepTimes).toHaveLength(1);
      // The window is the page and one row more (is there a next page?): six runs, not the 21 rows read with
      // the offset of 15 before them.
      expect(stepTimes[0]!['Actual Loops']).toBe(6);
      // Each run probes its view's month alone (run-time pruning), not every partition of view_steps.
      const probes = scansOf(stepTimes[0]!).reduce((sum, n) => sum + n['Actual Loops'], 0);
      expect(probes).toBe(6);
    });

    it('costs a second statement only for an empty page: the total past the end, a 404 for another workspace', async () => {
      const past = await statements(`/v1/demos/${demoId}/views?per_page=20&page=9`);
      expect(past.body).toMatchObject({ data: [], meta: { total: 23, page: 9 } });
      expect(past.sent).toHaveLength(2);
      const other = await t.apiKey('all');
      queries.take();
      const foreign = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: bearer(other) });
      expect(foreign.statusCode).toBe(404);
      const bad = await call('GET', `/v1/demos/${demoId}/views?cursor=bm90LWEtY3Vyc29y`);
      expect(bad.statusCode).toBe(400);
    });
  });

  it('pages the audit log in one statement, total included, by number or by cursor', async () => {
    for (let i = 0; i < 4; i++) await call('POST', '/v1/webhooks', { url: `https://93.184.215.14/hooks/audit-${i}`, events: ['demo.viewed'] });
    const { sent, body } = await statements('/v1/audit-log?per_page=3');
    expect(sent).toHaveLength(1);
    const total = body.meta.total as number;
    expect(total).toBeGreaterThanOrEqual(4);
    const byNumber: string[] = [];
    for (let page = 1; (page - 1) * 3 < total; page++) {
      byNumber.push(...(await call('GET', `/v1/audit-log?per_page=3&page=${page}`)).json().data.map((e: { id: string }) => e.id));
    }
    const byCursor: string[] = [];
    let url = '/v1/audit-log?per_page=3';
    for (let page = 1; ; page++) {
      const next = await statements(url);
      expect(next.sent).toHaveLength(1);
      expect(next.body.meta).toMatchObject({ total, page, per_page: 3 });
      byCursor.push(...next.body.data.map((e: { id: string }) => e.id));
      if (!next.body.meta.next_cursor) break;
      url = `/v1/audit-log?per_page=3&cursor=${next.body.meta.next_cursor}`;
    }
    expect(byCursor).toEqual(byNumber);
    expect(new Set(byCursor).size).toBe(total);
    const past = await statements('/v1/audit-log?per_page=3&page=999');
    expect(past.body.meta.total).toBe(total);
    expect(past.sent).toHaveLength(2);
    expect((await call('GET', `/v1/audit-log?after=start&cursor=${body.meta.next_cursor}`)).statusCode).toBe(400);
  });

  it('lists a webhook\'s deliveries with their attempts in two statements, by number or by cursor', async () => {
    const hook = await call('POST', '/v1/webhooks', { url: 'https://93.184.215.14/hooks/demoshare', events: ['demo.viewed'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const id = hook.json().data.id as string;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.unshift((await call('POST', `/v1/webhooks/${id}/test`)).json().data.id);
    const { sent, body } = await statements(`/v1/webhooks/${id}/deliveries?per_page=2`);
    expect(sent).toHaveLength(2);
    expect(body.meta).toMatchObject({ total: 5, page: 1, per_page: 2 });
    const seen = body.data.map((d: { id: string }) => d.id);
    let cursor = body.meta.next_cursor as string | null;
    while (cursor) {
      const next = await statements(`/v1/webhooks/${id}/deliveries?per_page=2&cursor=${cursor}`);
      expect(next.sent.length).toBeLessThanOrEqual(2);
      expect(next.body.meta.total).toBe(5);
      seen.push(...next.body.data.map((d: { id: string }) => d.id));
      cursor = next.body.meta.next_cursor;
    }
    expect(seen).toEqual(made);
    // Another workspace's webhook is still a 404, found out when its page comes back empty.
    const other = await t.apiKey('all');
    const foreign = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries`, headers: bearer(other) });
    expect(foreign.statusCode).toBe(404);
  });

  it('stores the events of viewers who send at once in shared transactions, each request answered for its own', async () => {
    const demoId = await demoWithSteps(t, key, 3);
    const { token } = await createShare(t, key, demoId);
    const viewers = Array.from({ length: 10 }, (_, i) => viewerClient(t, token, `203.0.113.${i + 20}`));
    for (const viewer of viewers) expect((await viewer.call('GET', '')).statusCode).toBe(200);
    queries.take();
    const sent = await Promise.all(
      viewers.map((viewer) =>
        viewer.call('POST', '/events', {
          events: [
            { id: randomUUID(), type: 'view_started' },
            { id: randomUUID(), type: 'step_reached', step_number: 2, seconds_on_previous: 2 },
          ],
        }),
      ),
    );
    for (const res of sent) expect([res.statusCode, res.json().data]).toEqual([202, { accepted: 2, duplicates: 0 }]);
    // One transaction per batch: a PGlite transaction is one call, a PostgreSQL one starts with its BEGIN.
    const transactions = queries.take().filter((text) => /^(BEGIN|begin)\b/.test(text.trim()));
    expect(transactions.length).toBeGreaterThan(0);
    expect(transactions.length).toBeLessThanOrEqual(3);
    const views = await call('GET', `/v1/demos/${demoId}/views?per_page=20`);
    expect(views.json().data.map((v: { steps_viewed: number[] }) => v.steps_viewed)).toEqual(Array(10).fill([1, 2]));
  });
});

describe.skipIf(!TEST_DATABASE_URL)('the cached demo detail across processes (PostgreSQL LISTEN/NOTIFY bus)', () => {
  it('a write through one app instance reaches the detail another one cached, by the announcement alone', async () => {
    const shared = await createTestDatabase();
    const url = shared.url!;
    const otherDatabase = await openDatabase({ url, poolSize: 2 });
    const a = await createTestApp({ database: shared, bus: await createPostgresBus(shared.database) });
    const b = await createTestApp({
      database: { database: otherDatabase, url, drop: () => otherDatabase.close() },
      bus: await createPostgresBus(otherDatabase),
    });
    const queries = countQueries(otherDatabase);
    try {
      const key = await a.apiKey('all');
      const id = (await a.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'Before' } })).json().data.id;
      const read = async () => (await b.app.inject({ method: 'GET', url: `/v1/demos/${id}`, headers: bearer(key) })).json().data.title;
      expect(await read()).toBe('Before');
      queries.take();
      expect(await read()).toBe('Before');
      expect(queries.take()).toEqual([]); // B serves it from its cache
      await a.app.inject({ method: 'PATCH', url: `/v1/demos/${id}`, headers: bearer(key), payload: { title: 'After' } });
      let title = await read();
      for (let i = 0; i < 60 && title !== 'After'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        title = await read();
      }
      expect(title).toBe('After');
    } finally {
      queries.stop();
      await b.close();
      await otherDatabase.close().catch(() => {});
      await a.close();
      await shared.drop();
    }
  });
});
