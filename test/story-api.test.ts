import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShare, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

/** Issue 29: steps and hotspots carry the story (kinds, buttons, forms, rich text, patches), the viewer plays it. */
describe('story fields of steps and hotspots', () => {
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
    const res = await call('POST', '/v1/demos', { title: 'Story demo' });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    const steps = [];
    for (const title of titles) {
      const step = await call('POST', `/v1/demos/${id}/steps`, { title });
      expect(step.statusCode, step.body).toBe(201);
      steps.push(step.json().data);
    }
    return { id, steps };
  }
  const demo = async (id: string) => (await call('GET', `/v1/demos/${id}`)).json().data;

  it('answers a plain step with the default story fields (a linear demo is unchanged)', async () => {
    const { id, steps } = await newDemo(['A']);
    expect(steps[0]).toMatchObject({ kind: 'page', chapter_id: null, content: { buttons: [] }, patches: [], description_html: null });
    const hs = await call('POST', `/v1/demos/${id}/steps/${steps[0].id}/hotspots`, { x: 0.1, y: 0.1, width: 0.2, height: 0.2, tooltip: 'Hi' });
    expect(hs.json().data).toMatchObject({ tooltip: 'Hi', tooltip_html: null, action: { type: 'next', target: null } });
  });

  it('makes a cover, a form and an end step, with buttons whose step targets answer as numbers', async () => {
    const { id, steps } = await newDemo(['Page 1', 'Page 2']);
    const cover = await call('POST', `/v1/demos/${id}/steps`, {
      kind: 'cover',
      number: 1,
      title: 'Welcome',
      description_html: '<p>Send your <b>first</b> invoice <script>alert(1)</script><a href="javascript:x()">now</a></p>',
      content: { buttons: [{ id: 'start', label: 'Start', action: { type: 'goto', target: steps[1].id } }] },
    });
    expect(cover.statusCode, cover.body).toBe(201);
    expect(cover.json().data).toMatchObject({
      kind: 'cover',
      number: 1,
      description_html: '<p>Send your <b>first</b> invoice now</p>',
      description: 'Send your first invoice now',
      content: { buttons: [{ id: 'start', label: 'Start', style: 'primary', action: { type: 'goto', target: 3 } }] },
    });
    const form = await call('POST', `/v1/demos/${id}/steps`, {
      kind: 'form',
      title: 'Your details',
      content: {
        buttons: [],
        form: { fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }] },
      },
    });
    expect(form.statusCode, form.body).toBe(201);
    expect(form.json().data.content.form).toEqual({
      fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }],
      submit_label: 'Continue',
      gate: false,
      skippable: false,
    });
    const end = await call('POST', `/v1/demos/${id}/steps`, {
      kind: 'end',
      content: {
        buttons: [
          { id: 'meet', label: 'Book a meeting', cta: 'book_meeting', action: { type: 'url', target: 'https://acme.example/meet' } },
          { id: 'again', label: 'Again', style: 'secondary', action: { type: 'restart' } },
          { id: 'other', label: 'Other demo', style: 'link', action: { type: 'demo', target: 'https://demos.example/s/abc' } },
        ],
      },
    });
    expect(end.statusCode, end.body).toBe(201);
    // Moving steps renumbers the targets in answers (they are stored by id).
    const put = await call('PUT', `/v1/demos/${id}/steps`, { steps: [steps[1].id, cover.json().data.id, steps[0].id, form.json().data.id, end.json().data.id] });
    expect(put.statusCode, put.body).toBe(200);
    const d = put.json().data;
    expect(d.steps.map((s: { kind: string }) => s.kind)).toEqual(['page', 'cover', 'page', 'form', 'end']);
    expect(d.steps[1].content.buttons[0].action).toEqual({ type: 'goto', target: 1 });
    expect(d.steps[1].description_html).toBe('<p>Send your <b>first</b> invoice now</p>');
    expect(d.steps[4].content.buttons.map((b: { action: { type: string } }) => b.action.type)).toEqual(['url', 'restart', 'demo']);
  });

  it('edits kind, content, patches and rich text with PATCH; a kind that is not form loses its form', async () => {
    const { id, steps } = await newDemo(['A', 'B']);
    const url = `/v1/demos/${id}/steps/${steps[0].id}`;
    const res = await call('PATCH', url, {
      kind: 'form',
      content: { buttons: [], form: { fields: [{ name: 'company', type: 'text' }], submit_label: 'Go', skippable: true } },
      patches: [{ selector: 'h1', op: 'text', value: 'Hello {{company|there}}' }, { selector: '#ads', op: 'hide' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ kind: 'form', patches: [{ selector: 'h1', op: 'text' }, { selector: '#ads', op: 'hide' }] });
    const back = await call('PATCH', url, { kind: 'page' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.content).toEqual({ buttons: [] });
    const html = await call('PATCH', url, { description: 'ignored', description_html: '<ul><li>One</li><li><i>Two</i></li></ul><img src=x onerror=alert(1)>' });
    expect(html.json().data).toMatchObject({ description_html: '<ul><li>One</li><li><i>Two</i></li></ul>', description: '• One\n• Two' });
    const cleared = await call('PATCH', url, { description_html: null });
    expect(cleared.json().data).toMatchObject({ description_html: null, description: '• One\n• Two' });
  });

  it('refuses bad story input with a 400 naming the field, and changes nothing', async () => {
    const { id, steps } = await newDemo(['A', 'B']);
    const url = `/v1/demos/${id}/steps/${steps[0].id}`;
    const before = await demo(id);
    const cases: [unknown, string][] = [
      [{ kind: 'form' }, 'content.form'],
      [{ kind: 'end', content: { buttons: [], form: { fields: [{ name: 'email', type: 'email' }] } } }, 'content.form'],
      [{ content: { buttons: [{ id: 'a', label: 'A', action: { type: 'goto', target: 9 } }] } }, 'content.buttons.0.action.target'],
      [{ content: { buttons: [{ id: 'a', label: 'A', action: { type: 'url', target: 'javascript:alert(1)' } }] } }, 'content.buttons.0.action.target'],
      [{ content: { buttons: [{ id: 'a', label: 'A', action: { type: 'demo', target: 'ftp://x' } }] } }, 'content.buttons.0.action.target'],
      [{ content: { buttons: [{ id: 'a', label: 'A', action: { type: 'chapter', target: 'chp_01jd3k8e4f6g8h0j2k4m6n8p0q' } }] } }, 'content.buttons.0.action.target'],
      [{ content: { buttons: [{ id: 'a', label: 'A', action: { type: 'next' } }, { id: 'a', label: 'B', action: { type: 'end' } }] } }, 'content.buttons.1.id'],
      [{ kind: 'form', content: { buttons: [], form: { fields: [{ name: 'plan', type: 'select' }] } } }, 'content.form.fields.0.options'],
      [{ kind: 'form', content: { buttons: [], form: { gate: true, skippable: true, fields: [{ name: 'email', type: 'email' }] } } }, 'content.form.skippable'],
      [{ chapter_id: 'chp_01jd3k8e4f6g8h0j2k4m6n8p0q' }, 'chapter_id'],
      [{ kind: 'video' }, 'kind'],
      [{ patches: Array.from({ length: 101 }, () => ({ selector: 'p', op: 'hide' })) }, 'patches'],
      [{ patches: [{ selector: 'p', op: 'script' }] }, 'patches.0.op'],
      [{ description_html: 'x'.repeat(10_001) }, 'description_html'],
    ];
    for (const [body, field] of cases) {
      const res = await call('PATCH', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field), JSON.stringify(body)).toContain(field);
    }
    const created = await call('POST', `/v1/demos/${id}/steps`, { kind: 'form' });
    expect(created.statusCode).toBe(400);
    const after = await demo(id);
    expect(after.steps).toEqual(before.steps);
  });

  it('takes rich tooltips and every action type on hotspots', async () => {
    const { id, steps } = await newDemo(['A', 'B', 'C']);
    const base = `/v1/demos/${id}/steps/${steps[0].id}/hotspots`;
    const hs = await call('POST', base, {
      x: 0.1,
      y: 0.1,
      width: 0.2,
      height: 0.2,
      tooltip: 'plain',
      tooltip_html: '<strong onclick="x()">Bold</strong> and <a href="https://acme.example/x" target="_self" style="color:red">link</a> <a href="mailto:a@b.example">mail</a>',
      action: { type: 'submit', target: 3 },
    });
    expect(hs.statusCode, hs.body).toBe(201);
    expect(hs.json().data).toMatchObject({
      tooltip: 'Bold and link mail',
      tooltip_html:
        '<strong>Bold</strong> and <a href="https://acme.example/x" target="_blank" rel="noopener noreferrer nofollow">link</a> <a href="mailto:a@b.example" target="_blank" rel="noopener noreferrer nofollow">mail</a>',
      action: { type: 'submit', target: 3 },
    });
    const hsUrl = `${base}/${hs.json().data.id}`;
    for (const action of [{ type: 'end' }, { type: 'restart' }, { type: 'submit' }, { type: 'demo', target: 'https://demos.example/s/x' }]) {
      const res = await call('PATCH', hsUrl, { action });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.action).toEqual({ type: action.type, target: action.target ?? null });
    }
    const bad = await call('PATCH', hsUrl, { action: { type: 'chapter', target: 'chp_01jd3k8e4f6g8h0j2k4m6n8p0q' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('action.target');
    const cleared = await call('PATCH', hsUrl, { tooltip_html: null });
    expect(cleared.json().data).toMatchObject({ tooltip_html: null, tooltip: 'Bold and link mail' });
  });

  it('plays the story in the viewer payload: kinds, buttons, form, rich text', async () => {
    const { id, steps } = await newDemo(['Page']);
    await call('PATCH', `/v1/demos/${id}/steps/${steps[0].id}`, { description_html: '<p>Look <em>here</em></p>' });
    await call('POST', `/v1/demos/${id}/steps/${steps[0].id}/hotspots`, { x: 0.1, y: 0.1, width: 0.2, height: 0.2, tooltip_html: '<b>Hi</b>' });
    const form = await call('POST', `/v1/demos/${id}/steps`, {
      kind: 'form',
      content: { buttons: [], form: { fields: [{ name: 'email', type: 'email', required: true }] } },
    });
    expect(form.statusCode, form.body).toBe(201);
    const end = await call('POST', `/v1/demos/${id}/steps`, {
      kind: 'end',
      content: { buttons: [{ id: 'back', label: 'Back to the form', action: { type: 'goto', target: 2 } }] },
    });
    expect(end.statusCode, end.body).toBe(201);
    expect((await call('POST', `/v1/demos/${id}/publish`)).statusCode).toBeLessThan(300);
    const token = (await createShare(t, key, id)).token;
    const v = viewerClient(t, token);
    expect((await v.call('GET', '')).statusCode).toBe(200);
    const res = await v.call('GET', '/demo');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.chapters).toEqual([]);
    expect(data.steps.map((s: { kind: string }) => s.kind)).toEqual(['page', 'form', 'end']);
    expect(data.steps[0]).toMatchObject({ description_html: '<p>Look <em>here</em></p>', chapter_id: null, buttons: [] });
    expect(data.steps[0].hotspots[0]).toMatchObject({ tooltip: 'Hi', tooltip_html: '<b>Hi</b>' });
    expect(data.steps[0].form).toBeUndefined();
    expect(data.steps[1].form).toMatchObject({ fields: [{ name: 'email', type: 'email', required: true }], gate: false });
    expect(data.steps[2].buttons).toEqual([{ id: 'back', label: 'Back to the form', style: 'primary', action: { type: 'goto', target: 2 } }]);
  });
});
