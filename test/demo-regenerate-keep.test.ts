import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interleave } from '../src/demos/demos.jobs';
import { fixtureGenerator, waitForDemo } from './helpers/demos';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

type Step = { id: string; number: number; title: string; edited_at: string | null };
const done = (d: { status: string }) => d.status !== 'generating';

describe('hand-edited steps and regenerate', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true, generator: fixtureGenerator(3) });
    key = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: unknown) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });
  const stepsOf = async (id: string) => (await call('GET', `/v1/demos/${id}`)).json().data.steps as Step[];

  async function generated() {
    const res = await call('POST', '/v1/demos', { title: 'Keep me', source_url: 'https://example.com/keep', generate_with_ai: true });
    return (await waitForDemo(t, key, res.json().data.id, done)) as { id: string; steps: Step[] };
  }

  it('starts generated steps unedited and marks a step when a person changes its text or hotspots', async () => {
    const demo = await generated();
    expect(demo.steps.map((s) => s.edited_at)).toEqual([null, null, null]);
    // Reordering is not an edit.
    await call('PUT', `/v1/demos/${demo.id}/steps`, { steps: [demo.steps[1]!.id, demo.steps[0]!.id, demo.steps[2]!.id] });
    expect((await stepsOf(demo.id)).every((s) => s.edited_at === null)).toBe(true);

    const patched = await call('PATCH', `/v1/demos/${demo.id}/steps/${demo.steps[0]!.id}`, { title: 'My words' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data.edited_at).toMatch(/^\d{4}-/);
    const hotspot = await call('POST', `/v1/demos/${demo.id}/steps/${demo.steps[2]!.id}/hotspots`, { x: 0.1, y: 0.1, width: 0.2, height: 0.2 });
    expect(hotspot.statusCode).toBe(201);
    const after = await stepsOf(demo.id);
    expect(after.filter((s) => s.edited_at).map((s) => s.id).sort()).toEqual([demo.steps[0]!.id, demo.steps[2]!.id].sort());
    const added = await call('POST', `/v1/demos/${demo.id}/steps`, { title: 'By hand' });
    expect(added.json().data.edited_at).not.toBeNull();
  });

  it('keeps a hand-edited step, at its number, with keep_edited_steps, and no fresh copy of it for the same element', async () => {
    const demo = await generated();
    const mine = demo.steps[1]!;
    await call('PATCH', `/v1/demos/${demo.id}/steps/${mine.id}`, { title: 'My words' });
    const res = await call('POST', `/v1/demos/${demo.id}/generate`, { keep_edited_steps: true });
    expect(res.statusCode).toBe(202);
    await waitForDemo(t, key, demo.id, done);
    const steps = await stepsOf(demo.id);
    // The fixture writes step 2 again for the same page and element: the person's step stands in for it.
    expect(steps.map((s) => s.title)).toEqual(['Step 1 of Acme pricing', 'My words', 'Step 3 of Acme pricing']);
    expect(steps[1]).toMatchObject({ id: mine.id, number: 2 });
    const others = steps.filter((s) => s.id !== mine.id);
    expect(others.every((s) => s.edited_at === null && !demo.steps.some((old) => old.id === s.id))).toBe(true);
    expect(steps.map((s) => s.number)).toEqual([1, 2, 3]);
  });

  it('matches a kept step by its element, or by its box once moved by hand, and keeps a step made by hand beside the fresh ones', async () => {
    const demo = await generated();
    const [first, , third] = demo.steps;
    const read = async () => (await call('GET', `/v1/demos/${demo.id}`)).json().data as { hotspots: { id: string; step_id: string }[] };
    // Step 1's heading box moved a little by hand: its selector is dropped, the box still covers the heading.
    const heading = (await read()).hotspots.find((h) => h.step_id === first!.id)!;
    const moved = await call('PATCH', `/v1/demos/${demo.id}/steps/${first!.id}/hotspots/${heading.id}`, { x: 0.12, selector: null });
    expect(moved.statusCode).toBe(200);
    await call('PATCH', `/v1/demos/${demo.id}/steps/${third!.id}`, { description: 'Mine' });
    const byHand = (await call('POST', `/v1/demos/${demo.id}/steps`, { title: 'By hand' })).json().data as Step;
    await call('POST', `/v1/demos/${demo.id}/generate`, { keep_edited_steps: true });
    await waitForDemo(t, key, demo.id, done);
    const steps = await stepsOf(demo.id);
    expect(steps.map((s) => s.id)).toEqual([first!.id, steps[1]!.id, third!.id, byHand.id]);
    expect(steps[1]).toMatchObject({ title: 'Step 2 of Acme pricing', edited_at: null });
    // Goto hotspots of the new steps that pointed at a dropped step lead to the kept one.
    const gotos = (await call('GET', `/v1/demos/${demo.id}`)).json().data.hotspots as { step_id: string; label: string; action: { type: string } }[];
    expect(gotos.find((h) => h.step_id === steps[1]!.id && h.label === 'Back')?.action).toEqual({ type: 'goto', target: 1 });
  });

  it('replaces a hand-edited step without the option', async () => {
    const demo = await generated();
    await call('PATCH', `/v1/demos/${demo.id}/steps/${demo.steps[0]!.id}`, { title: 'My words' });
    const again = await call('POST', `/v1/demos/${demo.id}/generate`);
    expect(again.json()).toMatchObject({ data: { status: 'generating' } });
    await waitForDemo(t, key, demo.id, done);
    const steps = await stepsOf(demo.id);
    expect(steps).toHaveLength(3);
    expect(steps.some((s) => s.title === 'My words' || s.id === demo.steps[0]!.id)).toBe(false);
  });

  it('refuses a regenerate body it does not know (400) and changes nothing', async () => {
    const demo = await generated();
    const res = await call('POST', `/v1/demos/${demo.id}/generate`, { keep_edited_steps: 'yes' });
    expect(res.statusCode).toBe(400);
    expect((await call('GET', `/v1/demos/${demo.id}`)).json().data.status).toBe('draft');
  });

  it('puts kept steps back at their numbers and the new ones around them', () => {
    const s = (id: string, position: number) => ({ id, position });
    const order = (kept: ReturnType<typeof s>[], fresh: ReturnType<typeof s>[]) => interleave(kept, fresh).map((x) => x.id);
    expect(order([s('k2', 2)], [s('a', 1), s('b', 2), s('c', 3)])).toEqual(['a', 'k2', 'b', 'c']);
    expect(order([s('k1', 1), s('k5', 5)], [s('a', 1)])).toEqual(['k1', 'a', 'k5']);
    expect(order([s('k3', 3)], [])).toEqual(['k3']);
  });
});
