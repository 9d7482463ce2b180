import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationResult } from '../src/generation/generation.types';
import { runQueuedGeneration } from './helpers/demos';
import { makePng } from './helpers/images';
import { createShare, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// Page patches (issue 29): edits to a captured page stored on the step, checked when written, applied when
// the snapshot is served — the editor's route with the draft's patches, the viewer's with the published
// version's — so the editor and the player show the same page.

const SNAPSHOT = `<!doctype html><html><head><title>Billing</title><style>body{font:16px sans-serif}</style></head><body>
<h1 id="title">Invoices</h1>
<p class="note">Trial ends in 3 days</p>
<img id="logo" src="https://cdn.example.com/logo.png" srcset="https://cdn.example.com/logo@2x.png 2x" alt="Logo">
<p id="plan">Plan: Business</p>
</body></html>`;

function generationResult(url: string): GenerationResult {
  return {
    captureMode: 'html',
    writer: 'builtin',
    title: 'Billing tour',
    warnings: [],
    pages: [url],
    steps: [
      {
        title: 'Your invoices',
        description: 'All of them.',
        pageUrl: url,
        html: SNAPSHOT,
        width: 640,
        height: 400,
        hotspots: [{ x: 0.1, y: 0.1, width: 0.2, height: 0.2, selector: '#plan', label: 'Plan', tooltip: 'Your plan', action: { type: 'next' } }],
      },
    ],
  };
}

describe('page patches', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ generator: async (options) => generationResult(options.url) });
    key = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = bearer(key)) =>
    t.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

  async function snapshotDemo() {
    const res = await call('POST', '/v1/demos', { source_url: 'https://example.com/billing', type: 'interactive', generate_with_ai: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    await runQueuedGeneration(t.ctx, id);
    const demo = (await call('GET', `/v1/demos/${id}`)).json().data;
    return demo as { id: string; steps: { id: string; html_url: string; patches: unknown[] }[] };
  }

  async function uploadImage(demoId: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demoId}/images`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: makePng(24, 8, [200, 30, 30]),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; url: string; content_type: string; width: number; height: number };
  }

  it('refuses patches it could not apply, naming each one, and changes nothing', async () => {
    const demo = await snapshotDemo();
    const step = demo.steps[0]!;
    const other = await snapshotDemo();
    const foreign = await uploadImage(other.id);
    const res = await call('PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, {
      patches: [
        { selector: 'p[', op: 'hide' },
        { selector: '#logo', op: 'image', value: foreign.id },
        { selector: '#title', op: 'text' },
        { selector: 'h1::before', op: 'hide' },
        { selector: '#title', op: 'image', value: 'ast_nothing' },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    const fields = (res.json().error.details as { field: string }[]).map((d) => d.field);
    expect(fields).toEqual(['patches[0].selector', 'patches[1].value', 'patches[2].value', 'patches[3].selector', 'patches[4].value']);
    const after = (await call('GET', `/v1/demos/${demo.id}`)).json().data;
    expect(after.steps[0].patches).toEqual([]);
    expect(after.steps[0].html_url).toBe(step.html_url);
    // Not an image: the upload refuses it from its bytes.
    const bad = await t.app.inject({
      method: 'POST',
      url: `/v1/demos/${demo.id}/images`,
      headers: { ...bearer(key), 'content-type': 'image/png' },
      payload: Buffer.from('<svg onload=alert(1)>'),
    });
    expect(bad.statusCode).toBe(415);
  });

  it('serves the editor and the viewer the same patched page; a published version keeps its own patches', async () => {
    const demo = await snapshotDemo();
    const step = demo.steps[0]!;
    const image = await uploadImage(demo.id);
    expect(image).toMatchObject({ content_type: 'image/png', width: 24, height: 8 });
    const patches = [
      { selector: '#title', op: 'text', value: '<script>alert("x")</script>Paid & settled' },
      { selector: 'p.note', op: 'hide' },
      { selector: '#logo', op: 'image', value: image.id },
      { selector: '#gone-since-capture', op: 'text', value: 'skipped' },
    ];
    const patched = await call('PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, { patches });
    expect(patched.statusCode, patched.body).toBe(200);
    const edited = patched.json().data as { html_url: string; patches: unknown[] };
    expect(edited.patches).toEqual(patches);
    expect(edited.html_url).toMatch(/\?patches=[0-9a-f]{16}$/);

    // The editor: the draft's patches.
    const editor = await call('GET', path(edited.html_url));
    expect(editor.statusCode).toBe(200);
    expect(editor.headers['content-type']).toMatch(/^text\/html/);
    expect(editor.headers['content-security-policy']).toContain('sandbox');
    const html = editor.body;
    expect(html).toContain('<h1 id="title">&lt;script&gt;alert("x")&lt;/script&gt;Paid &amp; settled</h1>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<p class="note" style="display: none !important">Trial ends in 3 days</p>');
    expect(html).toContain(`<img id="logo" src="${image.url}" alt="Logo">`);
    expect(html).not.toContain('skipped');
    expect(html).toContain('<p id="plan">Plan: Business</p>');
    // The stored snapshot itself is unchanged: its address without the hash serves it as captured.
    const plain = await call('GET', path(edited.html_url.split('?')[0]!));
    expect(plain.body).toContain('<h1 id="title">Invoices</h1>');
    // A validator names the asset and the patches: a second request for it is a 304.
    const again = await call('GET', path(edited.html_url), undefined, { ...bearer(key), 'if-none-match': editor.headers.etag as string });
    expect(again.statusCode).toBe(304);

    // The viewer: the published version's patches, and the swapped image through the viewer route.
    expect((await call('POST', `/v1/demos/${demo.id}/publish`)).statusCode).toBe(200);
    const share = await createShare(t, key, demo.id);
    const viewer = viewerClient(t, share.token);
    const payload = (await viewer.call('GET', '/demo')).json().data;
    const htmlUrl = payload.steps[0].html_url as string;
    expect(htmlUrl).toMatch(/\/v1\/viewer\/[^/]+\/assets\/ast_[^?]+\?patches=[0-9a-f]{16}$/);
    const parsesBefore = t.ctx.services.demos.pagePatches.snapshots.stats().parses;
    const served = await viewer.call('GET', htmlUrl.replace(`/v1/viewer/${share.token}`, ''));
    expect(served.statusCode).toBe(200);
    const viewerHtml = served.body;
    expect(viewerHtml).toContain('<h1 id="title">&lt;script&gt;alert("x")&lt;/script&gt;Paid &amp; settled</h1>');
    expect(viewerHtml).toContain('<p class="note" style="display: none !important">');
    // Identical to the editor's page but for where the image is fetched from.
    const viewerImage = `/v1/viewer/${share.token}/assets/${image.id}`;
    expect(viewerHtml.replace(viewerImage, image.url)).toBe(html);
    const imageRes = await viewer.call('GET', `/assets/${image.id}`);
    expect(imageRes.statusCode).toBe(200);
    expect(imageRes.headers['content-type']).toBe('image/png');
    // Parsed once: the second viewer request comes from the cache.
    await viewer.call('GET', htmlUrl.replace(`/v1/viewer/${share.token}`, ''));
    expect(t.ctx.services.demos.pagePatches.snapshots.stats().parses).toBe(parsesBefore + 1);

    // The draft changes: the editor shows it, the viewer keeps the published version's patches.
    const changed = await call('PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, { patches: [{ selector: '#title', op: 'text', value: 'Draft title' }] });
    expect(changed.statusCode, changed.body).toBe(200);
    const draftUrl = changed.json().data.html_url as string;
    expect(draftUrl).not.toBe(edited.html_url);
    expect((await call('GET', path(draftUrl))).body).toContain('<h1 id="title">Draft title</h1>');
    const stillPublished = (await viewer.call('GET', '/demo')).json().data;
    expect(stillPublished.steps[0].html_url).toBe(htmlUrl);
    const publishedHtml = (await viewer.call('GET', htmlUrl.replace(`/v1/viewer/${share.token}`, ''))).body;
    expect(publishedHtml).toContain('Paid &amp; settled');
    expect(publishedHtml).not.toContain('Draft title');
    // A hash the version does not have serves the page as captured: never an error.
    const unknown = await viewer.call('GET', `${htmlUrl.replace(`/v1/viewer/${share.token}`, '').split('?')[0]}?patches=0000000000000000`);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('<h1 id="title">Invoices</h1>');

    // Published again: the viewer gets the new patches.
    expect((await call('POST', `/v1/demos/${demo.id}/publish`)).statusCode).toBe(200);
    const republished = (await viewer.call('GET', '/demo')).json().data;
    const newUrl = republished.steps[0].html_url as string;
    expect(newUrl).not.toBe(htmlUrl);
    expect((await viewer.call('GET', newUrl.replace(`/v1/viewer/${share.token}`, ''))).body).toContain('<h1 id="title">Draft title</h1>');

    // Restoring version 1 brings its patches back to the draft, and the editor serves them again.
    const restored = await call('POST', `/v1/demos/${demo.id}/versions/1/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    const back = restored.json().data.steps[0] as { html_url: string; patches: unknown[] };
    expect(back.patches).toEqual(patches);
    expect((await call('GET', path(back.html_url))).body).toBe(html);
  });

  it('regenerating carries the patches that still match the new capture over, and drops the others', async () => {
    const demo = await snapshotDemo();
    const step = demo.steps[0]!;
    const res = await call('PATCH', `/v1/demos/${demo.id}/steps/${step.id}`, {
      patches: [
        { selector: '#title', op: 'text', value: 'Kept across captures' },
        { selector: '#not-on-the-page', op: 'hide' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('POST', `/v1/demos/${demo.id}/generate`, {})).statusCode).toBeLessThan(300);
    await runQueuedGeneration(t.ctx, demo.id);
    const after = (await call('GET', `/v1/demos/${demo.id}`)).json().data as typeof demo;
    expect(after.steps).toHaveLength(1);
    const fresh = after.steps[0]!;
    expect(fresh.id).not.toBe(step.id);
    expect(fresh.patches).toEqual([{ selector: '#title', op: 'text', value: 'Kept across captures' }]);
    expect((await call('GET', path(fresh.html_url))).body).toContain('<h1 id="title">Kept across captures</h1>');
    const events = await t.ctx.database.executeSql("select data from events where kind = 'demo.generated' and data->>'demo_id' = $1", [demo.id]);
    const warnings = events.rows.map((r) => (r.data as { warnings: string[] }).warnings).at(-1);
    expect(warnings).toEqual(['Step 1: 1 page edit dropped (no longer found on the new capture of https://example.com/billing)']);
  });
});
