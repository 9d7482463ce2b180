import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAPTER_A as A, CHAPTER_B as B, playPathViews, storyVersion } from './helpers/path-demo';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// The path events of interactive demos (chapter_selected, action_taken, cta_clicked, form_*): validated
// field by field, idempotent by id, and additive (a batch of the old three types answers as before).
describe('viewer path events', () => {
  let t: TestApp;
  let token: string;
  const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });

  beforeAll(async () => {
    t = await createTestApp({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    const admin = await t.signUp();
    const key = await t.apiKey('all', admin);
    const demoId = await demoWithSteps(t, key, 3);
    token = (await createShare(t, key, demoId)).token;
  });
  afterAll(() => t?.close());

  it('accepts every path event with its fields, and counts a retried id once', async () => {
    const v = viewerClient(t, token);
    expect((await v.call('GET', '')).statusCode).toBe(200);
    const events = [
      ev('view_started'),
      ev('chapter_selected', { step_number: 1, chapter_id: 'chp_01jd8x3k5m7n9p2q4r6s8t0v1w' }),
      ev('action_taken', { step_number: 1, element_id: 'hs_01jd8x3k5m7n9p2q4r6s8t0v1w', action_type: 'goto', target_step: 3, seconds_on_previous: 2 }),
      ev('action_taken', { step_number: 1, element_id: 'start', action_type: 'next' }),
      ev('cta_clicked', { step_number: 3, element_id: 'book-call' }),
      ev('form_shown', { step_number: 2 }),
      ev('form_started', { step_number: 2 }),
      ev('form_submitted', { step_number: 2 }),
    ];
    const first = await v.call('POST', '/events', { events });
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().data).toEqual({ accepted: events.length, duplicates: 0 });
    const again = await v.call('POST', '/events', { events });
    expect(again.json().data).toEqual({ accepted: 0, duplicates: events.length });
  });

  it('refuses a missing field, a field of another type, a bad id or a step the demo lacks, with a 400 naming it', async () => {
    const v = viewerClient(t, token, '203.0.113.8');
    await v.call('GET', '');
    const cases: Array<[object, string]> = [
      [ev('chapter_selected', { step_number: 1 }), 'events.0.chapter_id'],
      [ev('chapter_selected', { chapter_id: 'chp_1' }), 'events.0.step_number'],
      [ev('action_taken', { step_number: 1, element_id: 'hs_1' }), 'events.0.action_type'],
      [ev('action_taken', { step_number: 1, action_type: 'next' }), 'events.0.element_id'],
      [ev('action_taken', { step_number: 1, element_id: 'hs_1', action_type: 'teleport' }), 'events.0.action_type'],
      [ev('cta_clicked', { step_number: 1 }), 'events.0.element_id'],
      [ev('cta_clicked', { step_number: 1, element_id: 'x'.repeat(65) }), 'events.0.element_id'],
      [ev('cta_clicked', { step_number: 1, element_id: 'a b' }), 'events.0.element_id'],
      [ev('form_shown', {}), 'events.0.step_number'],
      [ev('form_shown', { step_number: 1, element_id: 'x' }), 'events.0.element_id'],
      [ev('step_reached', { step_number: 2, chapter_id: 'chp_1' }), 'events.0.chapter_id'],
      [ev('cta_clicked', { step_number: 1, element_id: 'x', target_step: 2 }), 'events.0.target_step'],
      [ev('form_started', { step_number: 4 }), 'events.0.step_number'],
      [ev('action_taken', { step_number: 1, element_id: 'hs_1', action_type: 'goto', target_step: 9 }), 'events.0.target_step'],
    ];
    for (const [event, field] of cases) {
      const res = await v.call('POST', '/events', { events: [event] });
      expect(res.statusCode, JSON.stringify(event)).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      expect(res.json().error.details.map((d: { field: string }) => d.field), JSON.stringify(event)).toContain(field);
    }
    // Nothing was stored: the same ids are fresh in a valid batch.
    const ok = await v.call('POST', '/events', { events: [ev('view_started')] });
    expect(ok.json().data).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('leaves an old client as it was: view_started, step_reached and completed still count views and steps', async () => {
    const v = viewerClient(t, token, '203.0.113.9');
    await v.call('GET', '');
    const res = await v.call('POST', '/events', {
      events: [ev('view_started'), ev('step_reached', { step_number: 2, seconds_on_previous: 1 }), ev('completed', { seconds_on_previous: 1 })],
    });
    expect(res.json().data).toEqual({ accepted: 3, duplicates: 0 });
  });
});

// The figures by path, from the roll-ups, named from the version played: a published version whose snapshot
// holds chapters, buttons and a form (helpers/path-demo.ts).
describe('GET /v1/demos/:id/analytics/paths', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;
  let token: string;
  let hotspot2: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    const admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, 4);
    token = (await createShare(t, key, demoId)).token;
    ({ hotspot2 } = await storyVersion(t, demoId));
  });
  afterAll(() => t?.close());

  const get = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics/paths${query}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('counts chapters, funnels per chapter, paths, branches, calls to action and forms; a retried batch changes nothing', async () => {
    const { first, retry } = await playPathViews(t, token, hotspot2);
    expect(first.json().data).toEqual({ accepted: 14, duplicates: 0 });
    expect((await retry()).json().data).toEqual({ accepted: 0, duplicates: 14 });
    const figures = await get();
    expect(figures.total_views).toBe(3);
    expect(figures.chapters).toEqual([
      {
        chapter_id: A,
        title: 'Invoicing',
        choices: 3,
        views: 2,
        choice_rate: 0.6667,
        completed: 1,
        completion_rate: 0.5,
        demo_completions: 1,
        funnel: [
          { number: 2, title: 'Step 2', views: 2, share: 1 },
          { number: 3, title: 'Step 3', views: 1, share: 0.5 },
        ],
      },
      {
        chapter_id: B,
        title: 'Reports',
        choices: 1,
        views: 1,
        choice_rate: 0.3333,
        completed: 1,
        completion_rate: 1,
        demo_completions: 1,
        funnel: [{ number: 4, title: 'Step 4', views: 1, share: 1 }],
      },
    ]);
    expect(figures.paths).toEqual([
      { chapters: [A], titles: ['Invoicing'], views: 1, share: 0.3333 },
      { chapters: [A, B], titles: ['Invoicing', 'Reports'], views: 1, share: 0.3333 },
    ]);
    expect(figures.branches).toEqual([
      { step_number: 1, element_id: 'pick-a', kind: 'button', label: 'Invoicing', action_type: 'chapter', target: A, clicks: 1, views: 1, click_rate: 0.3333 },
      { step_number: 2, element_id: hotspot2, kind: 'hotspot', label: 'Click 2', action_type: 'goto', target: 3, clicks: 1, views: 1, click_rate: 0.5 },
    ]);
    expect(figures.ctas).toEqual([
      { step_number: 4, button_id: 'book-call', label: 'Book a call', cta: 'book_meeting', clicks: 2, views: 1, click_through_rate: 1 },
    ]);
    expect(figures.forms).toEqual([
      { step_number: 3, title: 'Step 3', shown: 2, started: 1, submitted: 1, start_rate: 0.5, conversion: 0.5 },
    ]);
    expect(figures.versions_played).toEqual([1]);

    // Another range, another version: nothing, and an unknown version is a 404.
    const empty = await get('?start_date=2020-01-01&end_date=2020-01-02');
    expect(empty).toMatchObject({ total_views: 0, chapters: [], paths: [], branches: [], ctas: [], forms: [] });
    const missing = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics/paths?version=9`, headers: bearer(key) });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics/paths?granularity=day`, headers: bearer(key) });
    expect(bad.statusCode).toBe(400);
  });

  it('takes an erased viewer out of every path figure: the same as a day they never had', async () => {
    const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });
    const before = await get();
    // An identified viewer takes both chapters, a branch, the form and the call to action once each.
    const v = viewerClient(t, token, '203.0.113.40');
    await v.call('GET', '');
    expect((await v.call('POST', '/identify', { name: 'Ana', email: 'ana@erased.example' })).statusCode).toBe(200);
    const res = await v.call('POST', '/events', {
      events: [
        ev('view_started'),
        ev('action_taken', { step_number: 1, element_id: 'pick-b', action_type: 'chapter' }),
        ev('chapter_selected', { step_number: 1, chapter_id: B }),
        ev('step_reached', { step_number: 4, seconds_on_previous: 1 }),
        ev('cta_clicked', { step_number: 4, element_id: 'book-call' }),
        ev('chapter_selected', { step_number: 1, chapter_id: A }),
        ev('step_reached', { step_number: 2, seconds_on_previous: 1 }),
        ev('action_taken', { step_number: 2, element_id: hotspot2, action_type: 'goto', target_step: 3 }),
        ev('step_reached', { step_number: 3, seconds_on_previous: 1 }),
        ev('form_shown', { step_number: 3 }),
        ev('form_started', { step_number: 3 }),
        ev('form_submitted', { step_number: 3 }),
        ev('completed', { seconds_on_previous: 1 }),
      ],
    });
    expect(res.json().data).toEqual({ accepted: 13, duplicates: 0 });
    const during = await get();
    expect(during.paths).toContainEqual({ chapters: [B, A], titles: ['Reports', 'Invoicing'], views: 1, share: 0.25 });
    expect(during.forms[0]).toMatchObject({ shown: 3, submitted: 2 });

    const erased = await t.app.inject({ method: 'POST', url: '/v1/viewer-erasures', headers: bearer(key), payload: { email: 'ana@erased.example' } });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data.views).toBe(1);
    const after = await get();
    // Rows the erased view alone made stay with zeros: the figures say nothing of them.
    expect(after.paths.filter((p: { views: number }) => p.views > 0)).toEqual(before.paths);
    expect({ ...after, paths: before.paths }).toEqual(before);
  });
});
