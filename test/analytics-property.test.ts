import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { periodStart, periodStarts } from '../src/analytics/periods';
import { createShare, demoWithSteps, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const DAY = 86_400_000;
const BASE = Date.parse('2026-03-02T00:00:00.000Z');
const day = (offset: number) => new Date(BASE + offset * DAY).toISOString().slice(0, 10);

interface ViewPlan {
  /** Day the view starts on, and the minute of that day. */
  day: number;
  minute: number;
  /** Identified as viewer<who>@… (repeat viewers), or anonymous (-1). */
  who: number;
  /** Furthest step reached (1..3), and whether it completes. */
  reached: number;
  completes: boolean;
  /** Seconds on each step. */
  seconds: number;
  /** Identified with a member's address: internal traffic, left out unless asked for. */
  member: boolean;
}

interface RawView {
  viewer: { email: string | null; anonymous_id: string | null };
  steps_viewed: number[];
  step_times: { number: number; seconds: number }[];
  completed: boolean;
  duration_seconds: number;
  started_at: string;
  internal: boolean;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Every figure of the analytics endpoint, computed the slow way from the raw views. */
function bruteForce(all: RawView[], start: string, end: string, granularity: 'day' | 'week' | 'month', stepCount: number) {
  const inRange = all.filter((v) => v.started_at.slice(0, 10) >= start && v.started_at.slice(0, 10) <= end);
  const key = (v: RawView) => v.viewer.email ?? v.viewer.anonymous_id;
  const n = inRange.length;
  const steps = Array.from({ length: stepCount }, (_, i) => i + 1).map((number) => {
    const reached = inRange.filter((v) => v.steps_viewed.includes(number));
    const seconds = reached.reduce((s, v) => s + (v.step_times.find((t) => t.number === number)?.seconds ?? 0), 0);
    const ended = reached.filter((v) => !v.completed && Math.max(...v.steps_viewed) === number).length;
    return {
      number,
      views: reached.length,
      avg_time: reached.length ? round2(seconds / reached.length) : 0,
      drop_off_rate: reached.length ? round4(ended / reached.length) : 0,
    };
  });
  const series = periodStarts(start, end, granularity).map((period_start) => {
    const inPeriod = inRange.filter((v) => periodStart(v.started_at.slice(0, 10), granularity) === period_start);
    return {
      period_start,
      views: inPeriod.length,
      unique_viewers: new Set(inPeriod.map(key)).size,
      completions: inPeriod.filter((v) => v.completed).length,
    };
  });
  return {
    total_views: n,
    unique_viewers: new Set(inRange.map(key)).size,
    completion_rate: n ? round4(inRange.filter((v) => v.completed).length / n) : 0,
    avg_time_seconds: n ? round2(inRange.reduce((s, v) => s + v.duration_seconds, 0) / n) : 0,
    steps,
    series,
  };
}

describe('analytics: every figure equals a brute-force computation over the raw views', () => {
  let t: TestApp;
  let key: string;
  let memberEmail: string;
  const clock = manualClock(new Date(BASE));
  const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    const admin = await t.signUp();
    memberEmail = admin.email;
    key = await t.apiKey('all', admin);
  });
  afterAll(() => t?.close());

  /** Plays `plan` through the viewer API at the planned time (a view may run past midnight). */
  async function play(token: string, plan: ViewPlan, index: number) {
    clock.set(new Date(BASE + plan.day * DAY + plan.minute * 60_000));
    const v = viewerClient(t, token, `203.0.113.${(index % 200) + 1}`);
    await v.call('GET', '');
    if (plan.who >= 0 || plan.member) {
      const email = plan.member ? memberEmail : `viewer${plan.who}@acme.test`;
      const res = await v.call('POST', '/identify', { name: `Viewer ${plan.who}`, email });
      expect(res.statusCode, res.body).toBe(200);
    }
    const events = [ev('view_started')];
    for (let step = 2; step <= plan.reached; step++) events.push(ev('step_reached', { step_number: step, seconds_on_previous: plan.seconds }));
    const first = await v.call('POST', '/events', { events });
    expect(first.statusCode, first.body).toBe(202);
    if (plan.completes) {
      // The end comes ten minutes later: across midnight for a view that starts at 23:55.
      clock.advance(10 * 60_000);
      const done = await v.call('POST', '/events', { events: [ev('completed', { seconds_on_previous: plan.seconds })] });
      expect(done.statusCode, done.body).toBe(202);
    }
  }

  async function rawViews(demoId: string): Promise<RawView[]> {
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views?per_page=100&include_internal=true`, headers: bearer(key) });
    return res.json().data;
  }

  const viewPlan = fc.record({
    day: fc.integer({ min: 0, max: 40 }),
    minute: fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.constant(1435)),
    who: fc.integer({ min: -1, max: 3 }),
    reached: fc.integer({ min: 1, max: 3 }),
    completes: fc.boolean(),
    seconds: fc.integer({ min: 1, max: 30 }),
    member: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
  });
  const range = fc.tuple(fc.integer({ min: -3, max: 45 }), fc.integer({ min: 0, max: 45 })).map(([a, len]) => ({ start: day(a), end: day(a + len) }));

  it('holds for random views, ranges and granularities', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(viewPlan, { minLength: 0, maxLength: 8 }), fc.array(range, { minLength: 1, maxLength: 3 }), async (plans, ranges) => {
        clock.set(new Date(BASE - DAY));
        const demoId = await demoWithSteps(t, key, 3);
        const link = await createShare(t, key, demoId);
        for (const [i, plan] of plans.entries()) await play(link.token, plan, i);
        const all = await rawViews(demoId);
        expect(all).toHaveLength(plans.length);
        for (const r of ranges) {
          for (const granularity of ['day', 'week', 'month'] as const) {
            const url = `/v1/demos/${demoId}/analytics?start_date=${r.start}&end_date=${r.end}&granularity=${granularity}`;
            const res = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
            expect(res.statusCode, res.body).toBe(200);
            expect(figures(res.json().data)).toEqual(bruteForce(all.filter((v) => !v.internal), r.start, r.end, granularity, 3));
            const withInternal = await t.app.inject({ method: 'GET', url: `${url}&include_internal=true`, headers: bearer(key) });
            expect(figures(withInternal.json().data)).toEqual(bruteForce(all, r.start, r.end, granularity, 3));
          }
        }
      }),
      { numRuns: process.env.CI ? 12 : 8, seed: 20261124 },
    );
  }, 240_000);

  /**
   * Path figures: random views doing random path events (chapters, steps, elements, calls to action, form
   * stages, completion), sent in one to three requests, some retried whole and some with an event twice;
   * GET /analytics/paths must equal a brute-force recomputation over the distinct events of each view.
   */
  it('holds for the path figures over random event sequences, retries and duplicates', async () => {
    const STEPS = 4;
    const action = fc.oneof(
      fc.record({ kind: fc.constant('chapter' as const), chapter: fc.constantFrom('c1', 'c2', 'c3') }),
      fc.record({ kind: fc.constant('reach' as const), step: fc.integer({ min: 2, max: STEPS }) }),
      fc.record({ kind: fc.constant('act' as const), step: fc.integer({ min: 1, max: STEPS }), element: fc.constantFrom('e1', 'e2') }),
      fc.record({ kind: fc.constant('cta' as const), step: fc.integer({ min: 3, max: STEPS }), element: fc.constantFrom('k1', 'k2') }),
      fc.record({ kind: fc.constant('form' as const), step: fc.constantFrom(2, 3), stage: fc.constantFrom('shown', 'started', 'submitted') }),
      fc.record({ kind: fc.constant('complete' as const) }),
    );
    // Ranges over the week the views start in, and the whole of it.
    const weekRange = fc
      .oneof(fc.tuple(fc.integer({ min: -1, max: 6 }), fc.integer({ min: 0, max: 7 })), fc.constant([0, 6] as [number, number]))
      .map(([a, len]) => ({ start: day(a), end: day(a + len) }));
    const pathPlan = fc.record({
      day: fc.integer({ min: 0, max: 6 }),
      actions: fc.array(action, { minLength: 1, maxLength: 14 }),
      /** Where the events are cut into requests, which request is sent twice, which event travels twice. */
      cuts: fc.array(fc.integer({ min: 1, max: 11 }), { maxLength: 2 }),
      retry: fc.integer({ min: -1, max: 2 }),
      twice: fc.integer({ min: -1, max: 11 }),
    });
    type Plan = { day: number; actions: Array<{ kind: string; chapter?: string; step?: number; element?: string; stage?: string }> };
    const eventOf = (a: Plan['actions'][number]) => {
      switch (a.kind) {
        case 'chapter':
          return ev('chapter_selected', { step_number: 1, chapter_id: a.chapter });
        case 'reach':
          return ev('step_reached', { step_number: a.step, seconds_on_previous: 1 });
        case 'act':
          // One action type per element, as a published version has.
          return ev('action_taken', { step_number: a.step, element_id: a.element, action_type: a.element === 'e1' ? 'next' : 'goto', target_step: 2 });
        case 'cta':
          return ev('cta_clicked', { step_number: a.step, element_id: a.element });
        case 'form':
          return ev(`form_${a.stage}`, { step_number: a.step });
        default:
          return ev('completed', { seconds_on_previous: 1 });
      }
    };

    await fc.assert(
      fc.asyncProperty(fc.array(pathPlan, { minLength: 1, maxLength: 6 }), fc.array(weekRange, { minLength: 1, maxLength: 2 }), async (plans, ranges) => {
        clock.set(new Date(BASE - DAY));
        const demoId = await demoWithSteps(t, key, STEPS);
        const link = await createShare(t, key, demoId);
        for (const [i, plan] of plans.entries()) {
          clock.set(new Date(BASE + plan.day * DAY + 600 * 60_000));
          const v = viewerClient(t, link.token, `198.51.100.${(i % 200) + 1}`);
          expect((await v.call('GET', '')).statusCode).toBe(200);
          const events = [ev('view_started'), ...plan.actions.map(eventOf)];
          if (plan.twice >= 0 && plan.twice < events.length) events.splice(plan.twice + 1, 0, events[plan.twice]!);
          const cuts = [...new Set(plan.cuts.filter((c) => c < events.length))].sort((a, b) => a - b);
          const requests = [0, ...cuts].map((from, k) => events.slice(from, [...cuts, events.length][k]));
          for (const [k, batch] of requests.entries()) {
            if (batch.length === 0) continue;
            const times = k === plan.retry ? 2 : 1;
            for (let n = 0; n < times; n++) expect((await v.call('POST', '/events', { events: batch })).statusCode).toBe(202);
          }
        }
        for (const r of ranges) {
          const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics/paths?start_date=${r.start}&end_date=${r.end}`, headers: bearer(key) });
          expect(res.statusCode, res.body).toBe(200);
          const inRange = plans.filter((p) => day(p.day) >= r.start && day(p.day) <= r.end);
          expect(pathFigures(res.json().data)).toEqual(pathBruteForce(inRange, STEPS));
        }
      }),
      { numRuns: process.env.CI ? 10 : 6, seed: 20261128 },
    );
  }, 240_000);

  /**
   * A/B tests: random arms (demos of different lengths, random weights) and random viewers (anonymous,
   * identified, members; completing, converting on a form, clicking a CTA; some coming back). Each viewer's
   * arm is the demo its payload names; the per-arm results must equal a brute-force count over those
   * viewers, each viewer must keep its arm, and each arm's demo must count exactly the views its arm served.
   */
  it('holds for the per-arm figures of A/B tests', async () => {
    const viewer = fc.record({
      who: fc.integer({ min: -1, max: 2 }),
      member: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
      completes: fc.boolean(),
      form: fc.boolean(),
      cta: fc.boolean(),
      returns: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 3 }),
        fc.array(viewer, { minLength: 0, maxLength: 9 }),
        async (weights, viewers) => {
          clock.set(new Date(BASE + 50 * DAY));
          const demos: Array<{ id: string; steps: number; title: string }> = [];
          for (const [i] of weights.entries()) {
            const steps = i + 2;
            const id = await demoWithSteps(t, key, steps, false);
            const title = `Arm ${i} ${randomUUID().slice(0, 8)}`;
            expect((await t.app.inject({ method: 'PATCH', url: `/v1/demos/${id}`, headers: bearer(key), payload: { title, status: 'published' } })).statusCode).toBe(200);
            demos.push({ id, steps, title });
          }
          const link = await createShare(t, key, demos[0]!.id);
          const started = await t.app.inject({
            method: 'POST',
            url: `/v1/shares/${link.id}/experiment`,
            headers: bearer(key),
            payload: { metric: 'form_conversion', arms: demos.map((d, i) => ({ demo_id: d.id, weight: weights[i] })) },
          });
          expect(started.statusCode, started.body).toBe(201);
          const served: Array<{ arm: number; email: string | null; session: string; internal: boolean; completes: boolean; form: boolean; cta: boolean }> = [];
          for (const [i, plan] of viewers.entries()) {
            const v = viewerClient(t, link.token, `192.0.2.${(i % 200) + 1}`);
            await v.call('GET', '');
            const email = plan.member ? memberEmail : plan.who >= 0 ? `arm-viewer${plan.who}@acme.test` : null;
            if (email) expect((await v.call('POST', '/identify', { name: 'Viewer', email })).statusCode).toBe(200);
            const title = (await v.call('GET', '/demo')).json().data.title as string;
            const arm = demos.findIndex((d) => d.title === title);
            expect(arm).toBeGreaterThanOrEqual(0);
            const last = demos[arm]!.steps;
            const events = [ev('view_started'), ev('step_reached', { step_number: last, seconds_on_previous: 2 })];
            if (plan.cta) events.push(ev('cta_clicked', { step_number: last, element_id: 'k1' }));
            if (plan.form) events.push(ev('form_shown', { step_number: 1 }), ev('form_submitted', { step_number: 1 }));
            expect((await v.call('POST', '/events', { events })).statusCode).toBe(202);
            if (plan.returns) {
              // Back on the same session: the same arm, and the view goes on.
              expect((await v.call('GET', '/demo')).json().data.title).toBe(title);
            }
            if (plan.completes) expect((await v.call('POST', '/events', { events: [ev('completed', { seconds_on_previous: 1 })] })).statusCode).toBe(202);
            served.push({ ...plan, arm, email, session: v.jar.values().next().value ?? String(i), internal: plan.member });
          }
          const res = await t.app.inject({ method: 'GET', url: `/v1/shares/${link.id}/experiment/results`, headers: bearer(key) });
          expect(res.statusCode, res.body).toBe(200);
          const ratio = (a: number, b: number) => (b > 0 ? round4(a / b) : 0);
          const expected = demos.map((_, arm) => {
            const mine = served.filter((s) => s.arm === arm && !s.internal);
            const completions = mine.filter((s) => s.completes).length;
            const forms = mine.filter((s) => s.form).length;
            const ctas = mine.filter((s) => s.cta).length;
            return {
              views: mine.length,
              unique_viewers: new Set(mine.map((s) => s.email ?? s.session)).size,
              completions,
              completion_rate: ratio(completions, mine.length),
              form_conversions: forms,
              form_conversion_rate: ratio(forms, mine.length),
              cta_clicks: ctas,
              cta_click_rate: ratio(ctas, mine.length),
            };
          });
          const data = res.json().data;
          expect(data.arms.map(({ arm_id: _, label: __, comparison: ___, ...figures }: Record<string, unknown>) => figures)).toEqual(expected);
          // Fewer than 100 views an arm: never a verdict.
          expect(data.significance).toMatchObject({ verdict: 'too_small', winner_arm_id: null, metric: 'form_conversion' });
          // Each arm's demo counts the views its arm served, its own analytics included.
          for (const [arm, demo] of demos.entries()) {
            const url = `/v1/demos/${demo.id}/analytics?start_date=${day(49)}&end_date=${day(51)}`;
            const figures = (await t.app.inject({ method: 'GET', url, headers: bearer(key) })).json().data;
            expect(figures.total_views).toBe(expected[arm]!.views);
          }
        },
      ),
      { numRuns: process.env.CI ? 6 : 4, seed: 20261129 },
    );
  }, 240_000);

  it('answers a range whose end is before its start with a 400 naming both', async () => {
    const demoId = await demoWithSteps(t, key, 1);
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics?start_date=2026-03-10&end_date=2026-03-09`, headers: bearer(key) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(['start_date', 'end_date']);
    const views = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views?start_date=2026-03-10&end_date=2026-03-09`, headers: bearer(key) });
    expect(views.statusCode).toBe(400);
  });

  it('fills every period of the range, zeros included, and a one-day range has one', async () => {
    const demoId = await demoWithSteps(t, key, 2);
    const link = await createShare(t, key, demoId);
    await play(link.token, { day: 5, minute: 600, who: 1, reached: 2, completes: true, seconds: 4, member: false }, 1);
    const get = async (q: string) =>
      (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics?${q}`, headers: bearer(key) })).json().data;
    const month = await get(`start_date=${day(0)}&end_date=${day(9)}&granularity=day`);
    expect(month.series.map((p: { period_start: string }) => p.period_start)).toEqual(Array.from({ length: 10 }, (_, i) => day(i)));
    expect(month.series.filter((p: { views: number }) => p.views > 0)).toEqual([{ period_start: day(5), views: 1, unique_viewers: 1, completions: 1 }]);
    const one = await get(`start_date=${day(5)}&end_date=${day(5)}&granularity=day`);
    expect(one.series).toHaveLength(1);
    expect(one.total_views).toBe(1);
    const none = await get(`start_date=${day(20)}&end_date=${day(21)}&granularity=week`);
    expect(none).toMatchObject({ total_views: 0, unique_viewers: 0, completion_rate: 0, avg_time_seconds: 0 });
    expect(none.series.every((p: { views: number }) => p.views === 0)).toBe(true);
    // A timestamp bound counts its whole UTC day, for every figure alike.
    const stamped = await get(`start_date=${day(5)}T23:00:00Z&end_date=${day(5)}T23:30:00Z`);
    expect(stamped).toMatchObject({ total_views: 1, unique_viewers: 1 });
    const tooMany = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/analytics?start_date=1990-01-01&end_date=2026-01-01&granularity=day`, headers: bearer(key) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.details[0].field).toBe('granularity');
  });
});

/** The counted figures of an analytics answer: without the versions played and the step titles. */
function figures(data: Record<string, unknown>) {
  const { versions_played: _, ...rest } = data;
  return { ...rest, steps: (rest.steps as Array<Record<string, unknown>>).map(({ title: __, ...step }) => step) };
}

type PathAction = { kind: string; chapter?: string; step?: number; element?: string; stage?: string };

/** The path figures recomputed from each view's actions in order (a retried or repeated event is one event). */
function pathBruteForce(plans: Array<{ actions: PathAction[] }>, stepCount: number) {
  const chapters = new Map<string, { choices: number; views: number; completions: number; funnel: Map<number, number> }>();
  const paths = new Map<string, number>();
  const elements = new Map<string, { step: number; id: string; type: string | null; clicks: number; views: number; cta: number; ctaViews: number }>();
  const forms = new Map<number, Record<string, number>>();
  const stepViews = new Map<number, number>();
  const chapterOf = (id: string) => {
    const c = chapters.get(id) ?? { choices: 0, views: 0, completions: 0, funnel: new Map<number, number>() };
    chapters.set(id, c);
    return c;
  };
  const elementOf = (step: number, id: string) => {
    const k = `${step}|${id}`;
    const e = elements.get(k) ?? { step, id, type: null, clicks: 0, views: 0, cta: 0, ctaViews: 0 };
    elements.set(k, e);
    return e;
  };
  for (const plan of plans) {
    const chosen: string[] = [];
    const inChapter = new Set<string>();
    const used = new Set<string>();
    const reached = new Set<number>([1]);
    let current: string | null = null;
    let completed = false;
    const reach = (step: number) => {
      reached.add(step);
      if (current !== null && !inChapter.has(`${current}|${step}`)) {
        inChapter.add(`${current}|${step}`);
        const f = chapterOf(current).funnel;
        f.set(step, (f.get(step) ?? 0) + 1);
      }
    };
    for (const a of plan.actions) {
      if (a.kind === 'chapter') {
        const c = chapterOf(a.chapter!);
        c.choices++;
        if (!chosen.includes(a.chapter!)) {
          chosen.push(a.chapter!);
          c.views++;
        }
        current = a.chapter!;
      } else if (a.kind === 'reach') reach(a.step!);
      else if (a.kind === 'complete') {
        if (completed) continue;
        completed = true;
        reach(stepCount);
        for (const id of chosen) chapterOf(id).completions++;
      } else if (a.kind === 'act') {
        const e = elementOf(a.step!, a.element!);
        e.type = a.element === 'e1' ? 'next' : 'goto';
        e.clicks++;
        if (!used.has(`a${a.step}|${a.element}`)) {
          used.add(`a${a.step}|${a.element}`);
          e.views++;
        }
      } else if (a.kind === 'cta') {
        const e = elementOf(a.step!, a.element!);
        e.cta++;
        if (!used.has(`k${a.step}|${a.element}`)) {
          used.add(`k${a.step}|${a.element}`);
          e.ctaViews++;
        }
      } else if (a.kind === 'form' && !used.has(`f${a.step}|${a.stage}`)) {
        used.add(`f${a.step}|${a.stage}`);
        const f = forms.get(a.step!) ?? { shown: 0, started: 0, submitted: 0 };
        f[a.stage!]!++;
        forms.set(a.step!, f);
      }
    }
    if (chosen.length > 0) paths.set(chosen.join('>'), (paths.get(chosen.join('>')) ?? 0) + 1);
    for (const s of reached) stepViews.set(s, (stepViews.get(s) ?? 0) + 1);
  }
  const total = plans.length;
  const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);
  return {
    total_views: total,
    chapters: [...chapters.entries()]
      .map(([id, c]) => {
        const funnel = [...c.funnel.entries()].sort(([a], [b]) => a - b).map(([number, views]) => ({ number, views, share: ratio(views, c.views) }));
        const completed = funnel.at(-1)?.views ?? 0;
        return {
          chapter_id: id,
          choices: c.choices,
          views: c.views,
          choice_rate: ratio(c.views, total),
          completed,
          completion_rate: ratio(completed, c.views),
          demo_completions: c.completions,
          funnel,
        };
      })
      .sort((a, b) => (a.chapter_id < b.chapter_id ? -1 : 1)),
    paths: [...paths.entries()].map(([p, views]) => ({ chapters: p.split('>'), views, share: ratio(views, total) })).sort((a, b) => (a.chapters.join('>') < b.chapters.join('>') ? -1 : 1)),
    branches: [...elements.values()]
      .filter((e) => e.clicks > 0)
      .map((e) => ({ step_number: e.step, element_id: e.id, action_type: e.type, clicks: e.clicks, views: e.views, click_rate: ratio(e.views, stepViews.get(e.step) ?? 0) }))
      .sort((a, b) => a.step_number - b.step_number || (a.element_id < b.element_id ? -1 : 1)),
    ctas: [...elements.values()]
      .filter((e) => e.cta > 0)
      .map((e) => ({ step_number: e.step, button_id: e.id, clicks: e.cta, views: e.ctaViews, click_through_rate: ratio(e.ctaViews, stepViews.get(e.step) ?? 0) }))
      .sort((a, b) => a.step_number - b.step_number || (a.button_id < b.button_id ? -1 : 1)),
    forms: [...forms.entries()]
      .sort(([a], [b]) => a - b)
      .map(([step, f]) => ({
        step_number: step,
        shown: f.shown!,
        started: f.started!,
        submitted: f.submitted!,
        start_rate: ratio(f.started!, f.shown!),
        conversion: ratio(f.submitted!, f.shown!),
      })),
  };
}

/** The counted path figures of an answer, without names (the test demo's versions have no chapters) and in key order. */
function pathFigures(data: PathAnswer) {
  const byKey = <T>(rows: T[], key: (r: T) => string) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  return {
    total_views: data.total_views,
    chapters: byKey(
      data.chapters.map(({ title: _, funnel, ...c }) => ({ ...c, funnel: funnel.map(({ title: __, ...f }) => f) })),
      (c) => c.chapter_id,
    ),
    paths: byKey(
      data.paths.map(({ titles: _, ...p }) => p),
      (p) => p.chapters.join('>'),
    ),
    branches: data.branches.map(({ kind: _, label: __, target: ___, ...b }) => b),
    ctas: data.ctas.map(({ label: _, cta: __, ...c }) => c),
    forms: data.forms.map(({ title: _, ...f }) => f),
  };
}

type Named = { title?: unknown } & Record<string, unknown>;
interface PathAnswer {
  total_views: number;
  chapters: Array<Named & { chapter_id: string; funnel: Named[] }>;
  paths: Array<{ chapters: string[]; titles: unknown } & Record<string, unknown>>;
  branches: Array<{ kind: unknown; label: unknown; target: unknown } & Record<string, unknown>>;
  ctas: Array<{ label: unknown; cta: unknown } & Record<string, unknown>>;
  forms: Named[];
}
