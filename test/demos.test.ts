import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets, demos, hotspots, steps } from '../src/demos/demos.tables';
import { events } from '../src/events/events.tables';
import { makePng } from './helpers/images';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

describe('demos API: the five contract endpoints', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: unknown, k = key) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(k), ...(payload === undefined ? {} : { payload: payload as object }) });

  async function createDemo(body: Record<string, unknown> = {}, k = key) {
    const res = await call('POST', '/v1/demos', { title: 'A demo', source_url: 'https://example.com/app', type: 'interactive', ...body }, k);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }

  async function addStep(id: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${id}/steps`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(8, 4),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }

  async function countOf(table: typeof demos | typeof steps | typeof hotspots | typeof assets) {
    const [row] = await t.ctx.database.db.select({ n: count() }).from(table);
    return row!.n;
  }

  describe('POST /v1/demos', () => {
    it('creates a draft with the documented fields', async () => {
      const res = await call('POST', '/v1/demos', {
        title: 'Onboarding tour',
        source_url: 'https://example.com/onboarding',
        type: 'interactive',
        generate_with_ai: false,
      });
      expect(res.statusCode).toBe(201);
      const demo = res.json().data;
      expect(demo).toMatchObject({
        title: 'Onboarding tour',
        source_url: 'https://example.com/onboarding',
        type: 'interactive',
        status: 'draft',
        generate_with_ai: false,
        published_at: null,
        thumbnail_url: null,
        step_count: 0,
        share_url: null,
        steps: [],
        hotspots: [],
        created_by: admin.memberId,
        generation: { status: 'none', error: null, started_at: null, finished_at: null },
      });
      expect(demo.id).toMatch(/^demo_[0-9a-z]{26}$/);
      expect(demo.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(demo.configuration).toMatchObject({ theme_color: '#4f46e5', progress_bar: true, call_to_action: null });
    });

    it('records demo.created in the outbox', async () => {
      const demo = await createDemo({ title: 'Evented' });
      const rows = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.created'));
      expect(rows.some((r) => r.data.demo_id === demo.id && r.workspaceId === admin.workspaceId)).toBe(true);
    });

    it.each([
      [{ source_url: 'https://example.com' }, 'title'],
      [{ title: 'x', source_url: 'ftp://example.com' }, 'source_url'],
      [{ title: 'x', source_url: 'not a url' }, 'source_url'],
      [{ title: 'x', type: 'video' }, 'type'],
      [{ title: '' }, 'title'],
      [{ title: 'x', generate_with_ai: 'yes' }, 'generate_with_ai'],
      [{ title: 'x', status: 'published' }, 'status'],
      [{ title: 'x', configuration: { theme_color: 'red' } }, 'configuration.theme_color'],
      [{ generate_with_ai: true }, 'source_url'],
    ])('refuses %j with a 400 naming %s, creating nothing', async (body, field) => {
      const before = await countOf(demos);
      const res = await call('POST', '/v1/demos', body);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('invalid_request');
      expect(error.details.map((d: { field: string }) => d.field).join(',')).toContain(field);
      expect(await countOf(demos)).toBe(before);
    });
  });

  describe('GET /v1/demos', () => {
    let other: TestApp;
    let k: string;
    const titles = ['Alpha 50% off', 'Beta_launch', 'Gamma tour', 'delta TOUR', 'Epsilon'];

    beforeAll(async () => {
      other = t;
      k = await other.apiKey('all');
      for (const [i, title] of titles.entries()) {
        const res = await call('POST', '/v1/demos', { title, source_url: `https://shop${i}.example.com/p` }, k);
        expect(res.statusCode).toBe(201);
      }
      const [first] = (await call('GET', '/v1/demos?search=Alpha', undefined, k)).json().data;
      await addStepWith(k, first.id);
      expect((await call('PATCH', `/v1/demos/${first.id}`, { status: 'published' }, k)).statusCode).toBe(200);
      const gamma = (await call('GET', '/v1/demos?search=gamma', undefined, k)).json().data[0];
      expect((await call('PATCH', `/v1/demos/${gamma.id}`, { status: 'archived' }, k)).statusCode).toBe(200);
    });

    async function addStepWith(k2: string, id: string) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/demos/${id}/steps`,
        headers: bearer(k2),
        payload: { title: 'One' },
      });
      expect(res.statusCode).toBe(201);
    }

    const list = async (query: string) => {
      const res = await call('GET', `/v1/demos${query}`, undefined, k);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    it('lists newest first with the list envelope', async () => {
      const body = await list('');
      expect(body.meta).toMatchObject({ total: 5, page: 1, per_page: 20 });
      expect(body.data.map((d: { title: string }) => d.title)).toEqual([...titles].reverse());
      expect(body.data[0]).not.toHaveProperty('steps');
    });

    it('paginates with page and per_page', async () => {
      const first = await list('?per_page=2&page=1');
      const third = await list('?per_page=2&page=3');
      expect(first.meta).toMatchObject({ total: 5, page: 1, per_page: 2 });
      expect(first.data.map((d: { title: string }) => d.title)).toEqual(['Epsilon', 'delta TOUR']);
      expect(third.data.map((d: { title: string }) => d.title)).toEqual(['Alpha 50% off']);
      expect((await list('?per_page=2&page=4')).data).toEqual([]);
    });

    it.each([
      ['published', ['Alpha 50% off']],
      ['archived', ['Gamma tour']],
      ['draft', ['Epsilon', 'delta TOUR', 'Beta_launch']],
      ['generating', []],
    ])('filters by status=%s', async (status, expected) => {
      const body = await list(`?status=${status}`);
      expect(body.data.map((d: { title: string }) => d.title)).toEqual(expected);
      expect(body.meta.total).toBe(expected.length);
    });

    it.each([
      ['tour', ['delta TOUR', 'Gamma tour']],
      ['TOUR', ['delta TOUR', 'Gamma tour']],
      ['50%', ['Alpha 50% off']],
      ['%', ['Alpha 50% off']],
      ['_', ['Beta_launch']],
      ['Bet_', []],
      ['shop3.example', ['delta TOUR']],
      ['\\', []],
      ['nothing like it', []],
    ])('searches title and source_url for %j, wildcards literal', async (search, expected) => {
      const body = await list(`?search=${encodeURIComponent(search)}`);
      expect(body.data.map((d: { title: string }) => d.title)).toEqual(expected);
    });

    it('combines status and search', async () => {
      expect((await list('?status=draft&search=tour')).data.map((d: { title: string }) => d.title)).toEqual(['delta TOUR']);
    });

    it('shows step_count and the thumbnail of the first step', async () => {
      const [alpha] = (await list('?search=alpha')).data;
      expect(alpha.step_count).toBe(1);
      expect(alpha.published_at).not.toBeNull();
    });

    it.each(['status=live', 'page=0', 'per_page=101', 'colour=red'])('refuses %s with 400', async (query) => {
      const res = await call('GET', `/v1/demos?${query}`, undefined, k);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    });
  });

  describe('GET /v1/demos/:id', () => {
    it('returns steps, hotspots and configuration', async () => {
      const demo = await createDemo();
      const step = await addStep(demo.id);
      const hs = await call('POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, {
        x: 0.1,
        y: 0.2,
        width: 0.3,
        height: 0.4,
        label: 'Click',
      });
      expect(hs.statusCode, hs.body).toBe(201);
      const res = await call('GET', `/v1/demos/${demo.id}`);
      expect(res.statusCode).toBe(200);
      const body = res.json().data;
      expect(body.step_count).toBe(1);
      expect(body.steps[0]).toMatchObject({ id: step.id, number: 1, width: 8, height: 4 });
      expect(body.thumbnail_url).toBe(body.steps[0].image_url);
      expect(body.hotspots[0]).toMatchObject({ step_id: step.id, step_number: 1, x: 0.1, label: 'Click', action: { type: 'next', target: null } });
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expect((await call('GET', '/v1/demos/demo_01jd3k7q9x8v2m4n6p0r5s7t9w')).statusCode).toBe(404);
      const bad = await call('GET', '/v1/demos/123');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('invalid_request');
    });
  });

  describe('PATCH /v1/demos/:id', () => {
    it('renames and merges configuration, recording demo.updated', async () => {
      const demo = await createDemo();
      const res = await call('PATCH', `/v1/demos/${demo.id}`, {
        title: 'Renamed',
        configuration: { theme_color: '#112233', call_to_action: { label: 'Book a call', url: 'https://example.com/book' }, autoplay: { enabled: true } },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json().data;
      expect(body.title).toBe('Renamed');
      expect(body.configuration).toMatchObject({
        theme_color: '#112233',
        progress_bar: true,
        call_to_action: { label: 'Book a call', url: 'https://example.com/book' },
        autoplay: { enabled: true, delay_seconds: 5 },
      });
      const rows = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.updated'));
      expect(rows.find((r) => r.data.demo_id === demo.id)?.data.changes).toEqual(['title', 'configuration']);
    });

    it.each([
      [{ status: 'generating' }, 'status'],
      [{ status: 'live' }, 'status'],
      [{ title: '' }, 'title'],
      [{ configuration: { call_to_action: { label: 'Go', url: 'javascript:alert(1)' } } }, 'configuration.call_to_action.url'],
      [{ configuration: { autoplay: { delay_seconds: 0 } } }, 'configuration.autoplay.delay_seconds'],
      [{ configuration: { unknown: true } }, 'configuration.unknown'],
      [{ owner: 'me' }, 'owner'],
    ])('refuses %j with 400 and changes nothing', async (body, field) => {
      const demo = await createDemo({ title: 'Unchanged' });
      const res = await call('PATCH', `/v1/demos/${demo.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field).join(',')).toContain(field);
      const after = (await call('GET', `/v1/demos/${demo.id}`)).json().data;
      expect(after).toEqual(demo);
    });

    it('walks every allowed transition', async () => {
      const demo = await createDemo();
      await addStep(demo.id);
      const move = async (status: string) => {
        const res = await call('PATCH', `/v1/demos/${demo.id}`, { status });
        expect(res.statusCode, `${status}: ${res.body}`).toBe(200);
        return res.json().data;
      };
      const published = await move('published');
      expect(published.published_at).not.toBeNull();
      expect((await move('draft')).published_at).toBeNull();
      await move('archived');
      await move('draft');
      await move('published');
      const archived = await move('archived');
      expect(archived).toMatchObject({ status: 'archived', published_at: null });
      const kinds = (await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.published'))).filter(
        (r) => r.data.demo_id === demo.id,
      );
      expect(kinds).toHaveLength(2);
    });

    it('refuses to publish a demo without steps (409)', async () => {
      const demo = await createDemo();
      const res = await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'conflict', message: expect.stringContaining('at least one step') });
      expect((await call('GET', `/v1/demos/${demo.id}`)).json().data.status).toBe('draft');
    });

    it('refuses archived → published (409)', async () => {
      const demo = await createDemo();
      await addStep(demo.id);
      expect((await call('PATCH', `/v1/demos/${demo.id}`, { status: 'archived' })).statusCode).toBe(200);
      const res = await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toContain('archived to published');
    });

    it('treats the same status as a no-op 200 without touching updated_at or emitting', async () => {
      const demo = await createDemo();
      const res = await call('PATCH', `/v1/demos/${demo.id}`, { status: 'draft', title: demo.title });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.updated_at).toBe(demo.updated_at);
      const rows = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.updated'));
      expect(rows.filter((r) => r.data.demo_id === demo.id)).toHaveLength(0);
    });

    it('lets nothing leave generating by PATCH (409)', async () => {
      // No worker runs in this app, so the demo stays generating.
      const demo = await createDemo({ generate_with_ai: true, title: undefined });
      expect(demo.status).toBe('generating');
      expect(demo.title).toBe('example.com/app');
      for (const status of ['draft', 'published', 'archived']) {
        const res = await call('PATCH', `/v1/demos/${demo.id}`, { status });
        expect(res.statusCode).toBe(409);
        expect(res.json().error.message).toContain('being generated');
      }
      expect((await call('PATCH', `/v1/demos/${demo.id}`, { title: 'Still fine' })).statusCode).toBe(200);
    });
  });

  describe('share_url', () => {
    it('is the oldest live share link while published, null otherwise', async () => {
      const demo = await createDemo({ title: 'Shared' });
      await addStep(demo.id);
      const first = await call('POST', `/v1/demos/${demo.id}/shares`, { require_identification: false });
      expect(first.statusCode, first.body).toBe(201);
      await call('POST', `/v1/demos/${demo.id}/shares`, { require_identification: false });
      expect((await call('GET', `/v1/demos/${demo.id}`)).json().data.share_url).toBeNull();
      const published = (await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' })).json().data;
      expect(published.share_url).toBe(first.json().data.url);
      const listed = (await call('GET', '/v1/demos?search=Shared')).json().data[0];
      expect(listed.share_url).toBe(first.json().data.url);
      expect((await call('DELETE', `/v1/shares/${first.json().data.id}`)).statusCode).toBe(204);
      const next = (await call('GET', `/v1/demos/${demo.id}`)).json().data.share_url;
      expect(next).not.toBe(first.json().data.url);
      expect(next).toMatch(/\/s\//);
      // Deleting the demo takes its links with it.
      expect((await call('DELETE', `/v1/demos/${demo.id}`)).statusCode).toBe(204);
    });
  });

  describe('DELETE /v1/demos/:id', () => {
    it('deletes the demo with its steps, hotspots and assets (204, no body)', async () => {
      const demo = await createDemo();
      const step = await addStep(demo.id);
      await call('POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, { x: 0, y: 0, width: 1, height: 1 });
      const before = { steps: await countOf(steps), hotspots: await countOf(hotspots), assets: await countOf(assets) };
      const res = await call('DELETE', `/v1/demos/${demo.id}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await call('GET', `/v1/demos/${demo.id}`)).statusCode).toBe(404);
      expect((await call('DELETE', `/v1/demos/${demo.id}`)).statusCode).toBe(404);
      expect(await countOf(steps)).toBe(before.steps - 1);
      expect(await countOf(hotspots)).toBe(before.hotspots - 1);
      expect(await countOf(assets)).toBe(before.assets - 1);
      const rows = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.deleted'));
      expect(rows.some((r) => r.data.demo_id === demo.id)).toBe(true);
    });
  });

  describe('scopes and roles', () => {
    it('needs demos:read to read and demos:write to change', async () => {
      const demo = await createDemo();
      const reader = await t.apiKey(['demos:read'], admin);
      const none = await t.apiKey(['team:read'], admin);
      expect((await call('GET', '/v1/demos', undefined, reader)).statusCode).toBe(200);
      expect((await call('GET', `/v1/demos/${demo.id}`, undefined, reader)).statusCode).toBe(200);
      for (const [method, url, body] of [
        ['POST', '/v1/demos', { title: 'x' }],
        ['PATCH', `/v1/demos/${demo.id}`, { title: 'x' }],
        ['DELETE', `/v1/demos/${demo.id}`, undefined],
      ] as const) {
        const res = await call(method, url, body, reader);
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('demos:write') });
      }
      const res = await call('GET', '/v1/demos', undefined, none);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toContain('demos:read');
      expect((await call('GET', `/v1/demos/${demo.id}`)).json().data.title).toBe(demo.title);
    });

    it('lets a viewer read only, an editor write but not delete, an admin delete', async () => {
      const demo = await createDemo({ title: 'Team demo' });
      const viewer = await t.member(admin, 'viewer');
      const viewerKey = await t.apiKey('all', viewer);
      expect((await call('GET', `/v1/demos/${demo.id}`, undefined, viewerKey)).statusCode).toBe(200);
      expect((await call('GET', '/v1/demos', undefined, viewerKey)).json().meta.total).toBeGreaterThan(0);
      for (const [method, url, body] of [
        ['POST', '/v1/demos', { title: 'x' }],
        ['PATCH', `/v1/demos/${demo.id}`, { title: 'x' }],
        ['POST', `/v1/demos/${demo.id}/steps`, { title: 'x' }],
        ['DELETE', `/v1/demos/${demo.id}`, undefined],
      ] as const) {
        const denied = await call(method, url, body, viewerKey);
        expect(denied.statusCode, `${method} ${url}`).toBe(403);
        expect(denied.json().error.code).toBe('forbidden');
      }

      const editor = await t.member(admin, 'editor');
      const editorKey = await t.apiKey('all', editor);
      const made = await call('POST', '/v1/demos', { title: 'Editor made' }, editorKey);
      expect(made.statusCode).toBe(201);
      const id = made.json().data.id;
      expect((await call('PATCH', `/v1/demos/${id}`, { title: 'Edited' }, editorKey)).statusCode).toBe(200);
      expect((await call('PATCH', `/v1/demos/${demo.id}`, { title: 'Team demo 2' }, editorKey)).statusCode).toBe(200);
      const del = await call('DELETE', `/v1/demos/${id}`, undefined, editorKey);
      expect(del.statusCode).toBe(403);
      expect(del.json().error.message).toContain('admin');
      expect((await call('GET', `/v1/demos/${id}`, undefined, editorKey)).statusCode).toBe(200);
      expect((await call('DELETE', `/v1/demos/${id}`)).statusCode).toBe(204);
    });

    it('works for the web session too (cookie + CSRF)', async () => {
      const res = await admin.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'From the web app' } });
      expect(res.statusCode).toBe(201);
    });
  });

  describe('another workspace', () => {
    it('answers 404 for every operation on a demo of another workspace, changing nothing', async () => {
      const demo = await createDemo({ title: 'Private' });
      const step = await addStep(demo.id);
      const stranger = await t.apiKey('all');
      const attempts: Array<[string, string, unknown?]> = [
        ['GET', `/v1/demos/${demo.id}`],
        ['PATCH', `/v1/demos/${demo.id}`, { title: 'Mine now' }],
        ['DELETE', `/v1/demos/${demo.id}`],
        ['POST', `/v1/demos/${demo.id}/generate`],
        ['PUT', `/v1/demos/${demo.id}/steps`, { steps: [] }],
        ['POST', `/v1/demos/${demo.id}/steps`, { title: 'x' }],
        ['PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, { title: 'x' }],
        ['DELETE', `/v1/demos/${demo.id}/steps/${step.id}`],
        ['POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, { x: 0, y: 0, width: 0.5, height: 0.5 }],
        ['GET', step.image_url.replace(/^https?:\/\/[^/]+/, '')],
      ];
      for (const [method, url, body] of attempts) {
        const res = await call(method, url, body, stranger);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
      const list = await call('GET', '/v1/demos?search=Private', undefined, stranger);
      expect(list.json().meta.total).toBe(0);
      const after = (await call('GET', `/v1/demos/${demo.id}`)).json().data;
      expect(after).toMatchObject({ title: 'Private', step_count: 1 });
    });
  });

  it('documents the demo endpoints in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(doc.paths['/v1/demos'].get.security).toEqual([{ bearerAuth: ['demos:read'] }, { oauth2: ['demos:read'] }]);
    expect(doc.paths['/v1/demos'].post.security).toEqual([{ bearerAuth: ['demos:write'] }, { oauth2: ['demos:write'] }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/demos/{id}', '/v1/demos/{id}/steps', '/v1/demos/{id}/assets/{asset_id}']),
    );
  });
});
