import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

/** Issue 29: story problems in the editor, publish refused while there are any, versions that carry the story. */
describe('story problems, publishing and versions of a story', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: unknown) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });
  async function newDemo(titles: string[]) {
    const id = (await call('POST', '/v1/demos', { title: 'Story' })).json().data.id as string;
    const steps = [];
    for (const title of titles) steps.push((await call('POST', `/v1/demos/${id}/steps`, { title })).json().data);
    return { id, steps };
  }
  const demo = async (id: string) => (await call('GET', `/v1/demos/${id}`)).json().data;

  it('has no problems for a linear demo, which publishes as before', async () => {
    const { id, steps } = await newDemo(['A', 'B', 'C']);
    await call('POST', `/v1/demos/${id}/steps/${steps[0].id}/hotspots`, { x: 0.1, y: 0.1, width: 0.1, height: 0.1 });
    expect((await demo(id)).story_problems).toEqual([]);
    const res = await call('PATCH', `/v1/demos/${id}`, { status: 'published' });
    expect(res.statusCode, res.body).toBe(200);
    const versions = (await call('GET', `/v1/demos/${id}/versions`)).json().data;
    expect(versions).toHaveLength(1);
  });

  it('refuses to publish a story with an unreachable step, naming it, and publishes once it is fixed', async () => {
    const { id, steps } = await newDemo(['Menu', 'Invoices', 'Reports']);
    const invoices = (await call('POST', `/v1/demos/${id}/chapters`, { title: 'Invoices' })).json().data.id;
    const reports = (await call('POST', `/v1/demos/${id}/chapters`, { title: 'Reports' })).json().data.id;
    await call('PATCH', `/v1/demos/${id}/steps/${steps[1].id}`, { chapter_id: invoices });
    await call('PATCH', `/v1/demos/${id}/steps/${steps[2].id}`, { chapter_id: reports });
    const menu = await call('PATCH', `/v1/demos/${id}/steps/${steps[0].id}`, {
      kind: 'chapter_menu',
      content: {
        buttons: [
          { id: 'inv', label: 'Invoices', action: { type: 'chapter', target: invoices } },
          { id: 'done', label: 'Done', action: { type: 'end' } },
        ],
      },
    });
    expect(menu.statusCode, menu.body).toBe(200);
    const problems = (await demo(id)).story_problems;
    expect(problems).toEqual([
      {
        code: 'unreachable_step',
        step_number: 3,
        element_id: null,
        chapter_id: null,
        message: 'Step 3 (“Reports”) cannot be reached from step 1: no action or Next leads to it',
      },
    ]);
    for (const attempt of [() => call('POST', `/v1/demos/${id}/publish`), () => call('PATCH', `/v1/demos/${id}`, { status: 'published' })]) {
      const res = await attempt();
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error.code).toBe('validation_error');
      expect(res.json().error.message).toContain('Step 3 (“Reports”)');
      expect(res.json().error.details).toEqual([{ field: 'story', message: problems[0].message }]);
    }
    const after = await demo(id);
    expect(after.status).toBe('draft');
    expect((await call('GET', `/v1/demos/${id}/versions`)).json().data).toEqual([]);

    // Offer the chapter: the story is whole and publishes.
    await call('PATCH', `/v1/demos/${id}/steps/${steps[0].id}`, {
      content: {
        buttons: [
          { id: 'inv', label: 'Invoices', action: { type: 'chapter', target: invoices } },
          { id: 'rep', label: 'Reports', action: { type: 'chapter', target: reports } },
          { id: 'done', label: 'Done', action: { type: 'end' } },
        ],
      },
    });
    expect((await demo(id)).story_problems).toEqual([]);
    expect((await call('POST', `/v1/demos/${id}/publish`)).statusCode).toBeLessThan(300);

    // Deleting a chapter a menu offers: the button's target dangles and the step is unreachable again.
    expect((await call('DELETE', `/v1/demos/${id}/chapters/${reports}`)).statusCode).toBe(204);
    const codes = (await demo(id)).story_problems.map((p: { code: string; step_number: number | null; element_id: string | null }) => [
      p.code,
      p.step_number,
      p.element_id,
    ]);
    expect(codes).toEqual([
      ['dangling_target', 1, 'rep'],
      ['unreachable_step', 3, null],
    ]);
    const refused = await call('POST', `/v1/demos/${id}/publish`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details).toHaveLength(2);
  });

  it('reports a goto to a deleted step', async () => {
    const { id, steps } = await newDemo(['A', 'B', 'C']);
    await call('PATCH', `/v1/demos/${id}/steps/${steps[0].id}`, {
      kind: 'cover',
      content: { buttons: [{ id: 'skip', label: 'Skip to C', action: { type: 'goto', target: steps[2].id } }] },
    });
    expect((await demo(id)).story_problems).toEqual([]);
    expect((await call('DELETE', `/v1/demos/${id}/steps/${steps[2].id}`)).statusCode).toBe(204);
    const problems = (await demo(id)).story_problems;
    expect(problems.map((p: { code: string; element_id: string }) => [p.code, p.element_id])).toEqual([['dangling_target', 'skip']]);
    expect(problems[0].message).toContain('Step 1 (“A”)');
  });

  it('keeps chapters, kinds, buttons and rich text in versions and restores them', async () => {
    const { id, steps } = await newDemo(['Cover', 'Inside', 'Outro']);
    const chapter = (await call('POST', `/v1/demos/${id}/chapters`, { title: 'Inside', description: 'The middle' })).json().data;
    await call('PATCH', `/v1/demos/${id}/steps/${steps[1].id}`, { chapter_id: chapter.id, description_html: '<b>Bold</b> move' });
    await call('PATCH', `/v1/demos/${id}/steps/${steps[0].id}`, {
      kind: 'cover',
      content: { buttons: [{ id: 'go', label: 'Go', action: { type: 'goto', target: 2 } }] },
    });
    await call('PATCH', `/v1/demos/${id}/steps/${steps[2].id}`, {
      kind: 'end',
      content: { buttons: [{ id: 'cta', label: 'Sign up', cta: 'sign_up', action: { type: 'url', target: 'https://acme.example/signup' } }] },
    });
    const published = await call('POST', `/v1/demos/${id}/publish`);
    expect(published.statusCode, published.body).toBeLessThan(300);
    const v1 = await demo(id);

    // Change everything, then restore version 1.
    await call('DELETE', `/v1/demos/${id}/chapters/${chapter.id}`);
    await call('PATCH', `/v1/demos/${id}/steps/${steps[0].id}`, { kind: 'page', content: { buttons: [] } });
    await call('PATCH', `/v1/demos/${id}/steps/${steps[2].id}`, { kind: 'page', content: { buttons: [] } });
    const changes = (await call('GET', `/v1/demos/${id}/versions/1/changes`)).json().data;
    const cover = changes.steps.find((s: { step_id: string }) => s.step_id === steps[0].id);
    expect(cover.parts).toEqual(expect.arrayContaining(['kind', 'buttons']));
    const inside = changes.steps.find((s: { step_id: string }) => s.step_id === steps[1].id);
    expect(inside.parts).toContain('chapter');
    expect(changes.chapters_changed).toBe(true);

    const restored = await call('POST', `/v1/demos/${id}/versions/1/restore`);
    expect(restored.statusCode, restored.body).toBeLessThan(300);
    const back = await demo(id);
    expect(back.chapters).toEqual(v1.chapters);
    expect(back.steps.map((s: { kind: string; chapter_id: string | null; content: unknown; description_html: string | null }) => [s.kind, s.chapter_id, s.content, s.description_html])).toEqual(
      v1.steps.map((s: { kind: string; chapter_id: string | null; content: unknown; description_html: string | null }) => [s.kind, s.chapter_id, s.content, s.description_html]),
    );
    expect(back.has_unpublished_changes).toBe(false);
  });
});
