import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from './helpers/database';
import { demoWithSteps, playView, createShare } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

/**
 * Every date a request carries goes through one parser (`dateFilter` / `resolveDateRange` in core/time.ts):
 * a date PostgreSQL cannot take (year 0, a year past 9999, or an offset that carries a day in range out
 * of it) was a 500 on every route that read one. The routes are taken from the served OpenAPI document,
 * so that a new route with a date parameter is held to the same rule without being listed here.
 */
const OUT_OF_RANGE = [
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '1969-12-31',
  '1970-01-01T00:30:00+01:00',
  '9999-12-31T23:00:00-05:00',
];
const MALFORMED = ['10000-01-01', '+010000-01-01T00:00:00Z', '2026-02-30', '2026-13-01', '2026-11-21 10:00', 'yesterday', '-000001-01-01'];
const EDGES = ['1970-01-01', '1970-01-01T00:00:00Z', '9999-12-31', '9999-12-31T23:59:59.999Z', '2026-11-21T10:00:00+02:00'];

interface DateOperation {
  path: string;
  params: string[];
}

describe(`date parameters (${engine})`, () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  let demo: string;
  let hub: string;
  let operations: DateOperation[];

  const get = (path: string, query: string) =>
    admin.inject({ method: 'GET', url: `${path.replace('{id}', path.startsWith('/v1/hubs/') ? hub : demo)}?${query}` }) as Promise<LightMyRequestResponse>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demo = await demoWithSteps(t, key, 2, true);
    const share = await createShare(t, key, demo);
    await playView(t, share.token, { reached: 2, complete: true });
    hub = (await t.app.inject({ method: 'POST', url: '/v1/hubs', headers: bearer(key), payload: { name: 'Tours' } })).json().data.id;
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    operations = [];
    for (const [path, methods] of Object.entries<Record<string, { parameters?: Array<{ in: string; name: string; schema: unknown }> }>>(doc.paths)) {
      const params = (methods.get?.parameters ?? []).filter((p) => p.in === 'query' && /"format":"date(-time)?"/.test(JSON.stringify(p.schema))).map((p) => p.name);
      if (params.length > 0) operations.push({ path, params });
    }
  });
  afterAll(() => t?.close());

  it('finds the routes that read dates in the document: views, every analytics route (hubs’ too), leads, hub visitors, the audit log and their CSVs', () => {
    expect(operations.map((op) => op.path).sort()).toEqual(
      [
        '/v1/analytics',
        '/v1/audit-log',
        '/v1/audit-log.csv',
        '/v1/demos/{id}/analytics',
        '/v1/demos/{id}/analytics/companies',
        '/v1/demos/{id}/analytics/links',
        '/v1/demos/{id}/analytics/paths',
        '/v1/demos/{id}/leads',
        '/v1/demos/{id}/leads.csv',
        '/v1/demos/{id}/views',
        '/v1/hubs/{id}/analytics',
        '/v1/hubs/{id}/visitors',
        '/v1/hubs/{id}/visitors/export',
        '/v1/leads',
        '/v1/leads.csv',
      ].sort(),
    );
    for (const op of operations) expect(op.params.sort()).toEqual(['end_date', 'start_date']);
  });

  it('answers a date out of range or malformed with a 400 invalid_request naming the parameter, on every such route', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const param of op.params) {
        for (const value of [...OUT_OF_RANGE, ...MALFORMED]) {
          const res = await get(op.path, `${param}=${encodeURIComponent(value)}`);
          const error = res.statusCode === 400 ? res.json().error : undefined;
          const named = error?.code === 'invalid_request' && error.message.includes(param) && error.details?.some((d: { field: string }) => d.field === param);
          if (!named) wrong.push(`${op.path} ${param}=${value}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('says what range it takes', async () => {
    const res = await get('/v1/demos/{id}/views', 'start_date=0000-01-01');
    expect(res.json().error.details).toEqual([{ field: 'start_date', message: 'must be between 1970-01-01 and 9999-12-31 (UTC)' }]);
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    for (const op of operations) {
      for (const p of doc.paths[op.path].get.parameters.filter((p: { name: string }) => op.params.includes(p.name))) {
        expect(`${p.description ?? ''}${p.schema.description ?? ''}`, `${op.path} ${p.name}`).toContain('1970-01-01 to 9999-12-31');
      }
    }
  });

  it('takes the first and last day of the range, and timestamps with an offset inside it', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const value of EDGES) {
        for (const query of [`start_date=${encodeURIComponent(value)}`, `end_date=${encodeURIComponent(value)}`]) {
          const res = await get(op.path, query);
          if (res.statusCode !== 200) wrong.push(`${op.path} ${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // The whole range still finds the view played today.
    const views = await get('/v1/demos/{id}/views', 'start_date=1970-01-01&end_date=9999-12-31');
    expect(views.json().meta.total).toBe(1);
    const analytics = await get('/v1/demos/{id}/analytics', 'start_date=1970-01-01&end_date=9999-12-31T23:59:59.999Z');
    expect(analytics.json().data.total_views).toBe(1);
  });

  describe('MCP tools', () => {
    /** A tools/call over /mcp (stateless Streamable HTTP): the tool result of the one SSE message. */
    async function call(name: string, args: Record<string, unknown>) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...bearer(key), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      });
      expect(res.statusCode, res.body).toBe(200);
      const data = /^data: (.*)$/m.exec(res.body)?.[1];
      const message = JSON.parse(data ?? '{}') as { result?: { isError?: boolean; content: Array<{ text: string }> } };
      return { isError: message.result?.isError ?? false, text: message.result?.content[0]?.text ?? res.body };
    }

    it.each([
      ['list_views', { demo_id: 'demo' }],
      ['get_demo_analytics', { demo_id: 'demo' }],
      ['get_demo_paths', { demo_id: 'demo' }],
      ['get_analytics_overview', {}],
    ])('%s refuses a date out of range, naming the argument, and is no internal error', async (tool, base) => {
      const args = 'demo_id' in base ? { demo_id: demo } : {};
      for (const [param, value] of [
        ['start_date', '0000-01-01'],
        ['end_date', '0000-01-01T00:00:00Z'],
        ['start_date', '9999-12-31T23:00:00-05:00'],
      ] as const) {
        const result = await call(tool, { ...args, [param]: value });
        expect(result.isError, result.text).toBe(true);
        expect(result.text).toContain(param);
        expect(result.text).toContain('must be between 1970-01-01 and 9999-12-31');
        expect(result.text).not.toContain('internal_error');
      }
      const fine = await call(tool, { ...args, start_date: '1970-01-01', end_date: '9999-12-31' });
      expect(fine.isError, fine.text).toBe(false);
    });
  });
});
