import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const DAY = 86_400_000;
const DAY0 = Date.parse('2026-04-10T12:00:00.000Z');
const day = (n: number) => new Date(DAY0 + n * DAY).toISOString().slice(0, 10);

// The list's total comes from the daily roll-up when the bounds are whole days and no viewer is named,
// and from the rows otherwise: both must give the number of rows the same filter lists.
describe('GET /v1/demos/:id/views: meta.total', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  let demoId: string;
  const clock = manualClock(new Date(DAY0));

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, 3);
    const link = await createShare(t, key, demoId);
    // Day 0, version 1: anonymous, identified, and a member of the workspace (internal).
    await playView(t, link.token, { reached: 1 });
    await playView(t, link.token, { email: 'ana@globex.com', name: 'Ana', reached: 3, complete: true });
    await playView(t, link.token, { reached: 2, member: admin });
    clock.advance(DAY);
    // Two steps swap places, and version 2 is published.
    const { steps } = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) })).json().data as { steps: Array<{ id: string }> };
    const reordered = await t.app.inject({
      method: 'PUT',
      url: `/v1/demos/${demoId}/steps`,
      headers: bearer(key),
      payload: { steps: [steps[1]!.id, steps[0]!.id, steps[2]!.id] },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    const published = await t.app.inject({ method: 'POST', url: `/v1/demos/${demoId}/publish`, headers: bearer(key) });
    expect(published.statusCode, published.body).toBeLessThan(300);
    // Day 1, version 2.
    await playView(t, link.token, { email: 'bo@initech.io', name: 'Bo', reached: 2 });
    await playView(t, link.token, { reached: 1 });
    await playView(t, link.token, { reached: 1, member: admin });
    clock.advance(2 * DAY);
    // Day 3.
    await playView(t, link.token, { email: 'ana@globex.com', name: 'Ana', reached: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const filters = [
    '',
    'include_internal=true',
    `start_date=${day(0)}`,
    `end_date=${day(1)}`,
    `start_date=${day(1)}&end_date=${day(1)}`,
    `start_date=${day(1)}&end_date=${day(1)}&include_internal=true`,
    `start_date=${day(2)}&end_date=${day(2)}`,
    `end_date=${day(-1)}`,
    'version=1',
    'version=2&include_internal=true',
    `version=2&start_date=${day(3)}`,
    `start_date=${new Date(DAY0 + 30 * 60_000).toISOString()}`,
    `end_date=${new Date(DAY0 + DAY + 60_000).toISOString()}&include_internal=true`,
    'viewer_email=ana@globex.com',
    `viewer_email=ANA@globex.com&start_date=${day(3)}`,
  ];

  it.each(filters)('equals the rows listed for ?%s', async (query) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views?per_page=100&${query}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta.total).toBe(body.data.length);
  });

  it('counts what the filters select (7 views in all, 5 outside the workspace)', async () => {
    const total = async (query: string) =>
      (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views?per_page=1&${query}`, headers: bearer(key) })).json().meta.total;
    expect(await total('include_internal=true')).toBe(7);
    expect(await total('')).toBe(5);
    expect(await total(`start_date=${day(1)}&end_date=${day(1)}&include_internal=true`)).toBe(3);
    expect(await total('version=1')).toBe(2);
    expect(await total('version=2&include_internal=true')).toBe(4);
  });
});
