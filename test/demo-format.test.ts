import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main';
import { upgradeDocument } from '../src/demo-format/demo-document.upgrade';
import { cleanEnv, REPO, runCli } from './helpers/cli';
import { demoWithSteps } from './helpers/shares';
import { makePng } from './helpers/images';
import { launchBrowser, overflowing, signedInPage } from './helpers/browser';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { ensureWebBuilt } from './helpers/web-build';

const APP_URL = 'https://demos.example.test';
const MAX_BYTES = 2 * 1024 * 1024;
const MAX_EXPANDED = 4 * 1024 * 1024;

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const ref = (b: Uint8Array | string) => `sha256:${sha(b)}`;
type Files = Record<string, Uint8Array | string>;
const zip = (doc: unknown, files: Files = {}) =>
  Buffer.from(
    zipSync({
      'demo.json': new TextEncoder().encode(typeof doc === 'string' ? doc : JSON.stringify(doc)),
      ...Object.fromEntries(Object.entries(files).map(([n, b]) => [n, typeof b === 'string' ? new TextEncoder().encode(b) : b])),
    }),
  );
const asset = (b: Uint8Array | string, ext: string) => ({ [`assets/${sha(b)}.${ext}`]: b });

const png1 = makePng(64, 40, [200, 10, 10]);
const png2 = makePng(64, 40, [10, 200, 10]);
const patchPng = makePng(8, 8, [0, 0, 255]);
const html =
  '<!DOCTYPE html><html><head><title>Pricing</title><script>alert(1)</script></head>' +
  '<body><h1 id="t" onclick="x()">Pricing</h1><img class="logo" src="/logo.png"><button class="buy">Buy</button></body></html>';

/** A document with every kind of thing a demo holds: chapters, kinds, forms, buttons, patches, rich text, snapshots. */
const richDoc = () => ({
  format: 'demoshare-demo',
  version: 1,
  title: 'Acme tour',
  source_url: 'https://acme.example/',
  configuration: { theme_color: '#112233', call_to_action: { label: 'Book', url: 'https://acme.example/book' } },
  chapters: [
    { id: 'basics', title: 'Basics' },
    { id: 'advanced', title: 'Advanced', description: 'More' },
  ],
  steps: [
    {
      id: 'cover',
      kind: 'cover',
      title: 'Welcome',
      description: 'Hi there',
      description_html: '<b>Hi</b> there',
      content: { buttons: [{ id: 'start', label: 'Start', action: { type: 'next' } }] },
    },
    {
      id: 'menu',
      kind: 'chapter_menu',
      title: 'Pick',
      content: {
        buttons: [
          { id: 'b1', label: 'Basics', action: { type: 'chapter', target: 'basics' } },
          { id: 'b2', label: 'Advanced', style: 'secondary', action: { type: 'chapter', target: 'advanced' } },
        ],
      },
    },
    {
      id: 'pricing',
      chapter: 'basics',
      title: 'Pricing',
      page_url: 'https://acme.example/pricing',
      width: 64,
      height: 40,
      image: ref(png1),
      html: ref(html),
      patches: [
        { selector: '#t', op: 'text', value: 'Plans' },
        { selector: 'img.logo', op: 'image', value: ref(patchPng) },
      ],
      hotspots: [
        { x: 0.1, y: 0.1, width: 0.2, height: 0.2, selector: '.buy', label: 'Buy', tooltip: 'Click', tooltip_html: '<i>Click</i>', action: { type: 'goto', target: 'end' } },
      ],
    },
    {
      id: 'form',
      kind: 'form',
      chapter: 'advanced',
      title: 'Who are you?',
      content: { form: { fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }] } },
    },
    {
      id: 'end',
      kind: 'end',
      title: 'Thanks',
      width: 64,
      height: 40,
      image: ref(png2),
      content: { buttons: [{ id: 'cta', label: 'Book', cta: 'book_meeting', action: { type: 'url', target: 'https://acme.example/book' } }] },
      hotspots: [{ x: 0, y: 0, width: 1, height: 1, action: { type: 'restart' } }],
    },
  ],
});
const richFiles = (): Files => ({ ...asset(png1, 'png'), ...asset(png2, 'png'), ...asset(patchPng, 'png'), ...asset(html, 'html') });

/** Two plain pages, the first going to the second: a story that publishes. */
const simpleDoc = (extra: object = {}) => ({
  format: 'demoshare-demo',
  version: 1,
  key: 'tour',
  title: 'Simple tour',
  steps: [
    { id: 'one', title: 'One', image: ref(png1), width: 64, height: 40, hotspots: [{ x: 0.5, y: 0.5, width: 0.1, height: 0.1, action: { type: 'goto', target: 'two' } }] },
    { id: 'two', title: 'Two', image: ref(png2), width: 64, height: 40 },
  ],
  ...extra,
});
const simpleFiles = (): Files => ({ ...asset(png1, 'png'), ...asset(png2, 'png') });

describe('demo files (export, import, push)', () => {
  let t: TestApp;
  let key: string;
  let workspaceId: string;
  let admin: TestSession;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { APP_URL, DEMO_ARCHIVE_MAX_BYTES: MAX_BYTES, DEMO_ARCHIVE_MAX_EXPANDED_BYTES: MAX_EXPANDED } });
    admin = await t.signUp();
    workspaceId = admin.workspaceId;
    key = await t.apiKey('all', admin);
  }, 120_000);
  afterAll(() => t?.close());

  const send = (method: 'POST' | 'PUT', url: string, body: Buffer, type = 'application/zip') =>
    t.app.inject({ method, url, headers: { ...bearer(key), 'content-type': type }, payload: body });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
  const exported = async (id: string, version = 'draft') => {
    const res = await get(`/v1/demos/${id}/export?version=${version}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.demo\.zip"$/);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    return { raw: res.rawPayload, json: new TextDecoder().decode(files['demo.json']), files };
  };
  /** What the workspace holds, to show that a refused file left nothing behind. */
  const holdings = async () => {
    const { rows } = await t.ctx.database.executeSql(
      `select (select count(*) from demos where workspace_id = $1)::int as demos,
              (select count(*) from assets where workspace_id = $1)::int as assets,
              (select count(*) from events where workspace_id = $1)::int as events`,
      [workspaceId],
    );
    return rows[0];
  };
  const demoRow = async (id: string) => (await t.ctx.database.executeSql('select revision, updated_at, status from demos where id = $1', [id])).rows[0];
  const eventsOf = async (id: string) =>
    (await t.ctx.database.executeSql(`select kind from events where data->>'demo_id' = $1 order by id`, [id])).rows.map((r) => r.kind as string);

  const listening = async () => {
    if (!origin) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }
    return origin;
  };

  it('serves the JSON Schema at a stable address, equal to docs/demo-format.schema.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/schemas/demo/v1.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/schema\+json/);
    expect(res.body).toBe(readFileSync(join(REPO, 'docs/demo-format.schema.json'), 'utf8'));
    expect(res.json().$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('round trips: export → import → export gives the same demo.json byte for byte and the same asset digests', async () => {
    const first = await send('POST', '/v1/demos/import', zip(richDoc(), richFiles()));
    expect(first.statusCode, first.body).toBe(201);
    const demo = first.json().data;
    expect(demo).toMatchObject({ title: 'Acme tour', status: 'draft', step_count: 5 });

    const a = await exported(demo.id);
    const doc = JSON.parse(a.json);
    expect(doc).toMatchObject({ $schema: `${APP_URL}/schemas/demo/v1.json`, format: 'demoshare-demo', version: 1, title: 'Acme tour' });
    expect(doc.steps.map((s: { id: string }) => s.id)).toEqual(['step-1', 'step-2', 'step-3', 'step-4', 'step-5']);
    expect(doc.steps[2].hotspots[0].action).toEqual({ type: 'goto', target: 'step-5' });
    expect(doc.steps[1].content.buttons[1].action).toEqual({ type: 'chapter', target: 'chapter-2' });
    expect(doc.steps[2].chapter).toBe('chapter-1');
    expect(doc.steps[2].patches[1].value).toBe(ref(patchPng));
    expect(doc.steps[0].description_html).toBe('<b>Hi</b> there');
    // The snapshot was cleaned on the way in: no script, no handler.
    const snapshot = new TextDecoder().decode(a.files[`assets/${doc.steps[2].html.slice(7)}.html`]);
    expect(snapshot).toContain('Pricing');
    expect(snapshot).not.toMatch(/<script|onclick/);
    // Nothing of the workspace: no ids of rows, no views, links or members.
    expect(a.json).not.toMatch(/demo_|step_0|ws_|mem_|shr_|ast_/);
    for (const [name, bytes] of Object.entries(a.files)) if (name !== 'demo.json') expect(name).toMatch(new RegExp(`^assets/${sha(bytes)}\\.(png|html)$`));
    // It follows its published JSON Schema.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const validate = ajv.compile(JSON.parse(readFileSync(join(REPO, 'docs/demo-format.schema.json'), 'utf8')));
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);

    const second = await send('POST', '/v1/demos/import', Buffer.from(a.raw));
    expect(second.statusCode, second.body).toBe(201);
    const b = await exported(second.json().data.id);
    expect(b.json).toBe(a.json);
    expect(Object.keys(b.files).sort()).toEqual(Object.keys(a.files).sort());
    // The archive itself is the same bytes too (fixed times and order).
    expect(Buffer.from(b.raw).equals(Buffer.from(a.raw))).toBe(true);
  });

  it('round trips a demo made in the editor, and exports a published version as the draft it was', async () => {
    const id = await demoWithSteps(t, key, 3, true);
    const draft = await exported(id);
    expect((await exported(id, 'published')).json).toBe(draft.json);
    expect((await exported(id, '1')).json).toBe(draft.json);
    expect((await get(`/v1/demos/${id}/export?version=9`)).statusCode).toBe(404);
    expect((await get(`/v1/demos/${id}/export?version=latest`)).statusCode).toBe(400);
    const copy = await send('POST', '/v1/demos/import', Buffer.from(draft.raw));
    expect(copy.statusCode, copy.body).toBe(201);
    expect((await exported(copy.json().data.id)).json).toBe(draft.json);
    expect((await get(`/v1/demos/${copy.json().data.id}/export?version=published`)).json().error.code).toBe('conflict');
  });

  it('pushes by key: created, then unchanged (no revision, no event), updated, published once', async () => {
    const created = await send('PUT', '/v1/demos/by-key/tour', zip(simpleDoc(), simpleFiles()));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.demo_id;
    expect(created.json().data).toEqual({ demo_id: id, key: 'tour', outcome: 'created', changes: [], published_version: null, dry_run: false });
    const before = await demoRow(id);
    const events = await eventsOf(id);

    const again = await send('PUT', '/v1/demos/by-key/tour', zip(simpleDoc(), simpleFiles()));
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ outcome: 'unchanged', changes: [], published_version: null });
    expect(await demoRow(id)).toEqual(before);
    expect(await eventsOf(id)).toEqual(events);
    // Its own export pushed back is the same content too.
    const own = await exported(id);
    expect(JSON.parse(own.json).key).toBe('tour');
    expect((await send('PUT', '/v1/demos/by-key/tour', Buffer.from(own.raw))).json().data.outcome).toBe('unchanged');

    const dry = await send('PUT', '/v1/demos/by-key/tour?dry_run=true', zip(simpleDoc({ title: 'Simple tour, renamed' }), simpleFiles()));
    expect(dry.json().data).toMatchObject({ outcome: 'updated', changes: ['title'], dry_run: true });
    expect(await demoRow(id)).toEqual(before);
    expect(await eventsOf(id)).toEqual(events);
    const renamed = await send('PUT', '/v1/demos/by-key/tour', zip(simpleDoc({ title: 'Simple tour, renamed' }), simpleFiles()));
    expect(renamed.json().data).toMatchObject({ outcome: 'updated', changes: ['title'] });
    expect((await eventsOf(id)).filter((k) => k === 'demo.updated')).toHaveLength(events.filter((k) => k === 'demo.updated').length + 1);
    const stepIds = (await get(`/v1/demos/${id}`)).json().data.steps.map((s: { id: string }) => s.id);

    const published = await send('PUT', '/v1/demos/by-key/tour?publish=true', zip(simpleDoc({ title: 'Simple tour, renamed' }), simpleFiles()));
    expect(published.json().data).toMatchObject({ outcome: 'unchanged', published_version: 1 });
    const twice = await send('PUT', '/v1/demos/by-key/tour?publish=true', zip(simpleDoc({ title: 'Simple tour, renamed' }), simpleFiles()));
    expect(twice.json().data).toMatchObject({ outcome: 'unchanged', published_version: null });
    const detail = (await get(`/v1/demos/${id}`)).json().data;
    expect(detail.status).toBe('published');
    // Steps keep their ids by position, so analytics and links to steps still mean the same step.
    expect(detail.steps.map((s: { id: string }) => s.id)).toEqual(stepIds);

    // The key: in the address and the file alike, one demo per key.
    const other = await send('PUT', '/v1/demos/by-key/tour', zip(simpleDoc({ key: 'other' }), simpleFiles()));
    expect(other.statusCode).toBe(422);
    expect(other.json().error.details).toEqual([{ field: 'key', message: expect.stringContaining('tour') }]);
    const taken = await send('POST', '/v1/demos/import', zip(simpleDoc(), simpleFiles()));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.details[0].field).toBe('key');
    expect((await get(`/v1/demos/${id}/key`)).json().data).toEqual({ demo_id: id, key: 'tour' });
    const editorDemo = await demoWithSteps(t, key, 1, false);
    const setKey = (k: string | null) =>
      t.app.inject({ method: 'PUT', url: `/v1/demos/${editorDemo}/key`, headers: bearer(key), payload: { key: k } });
    expect((await setKey('tour')).statusCode).toBe(409);
    expect((await setKey('Bad Key')).statusCode).toBe(400);
    expect((await setKey('editor-made')).json().data).toEqual({ demo_id: editorDemo, key: 'editor-made' });
    const pushedOnto = await send('PUT', '/v1/demos/by-key/editor-made', zip(simpleDoc({ key: undefined }), simpleFiles()));
    expect(pushedOnto.json().data).toMatchObject({ demo_id: editorDemo, outcome: 'updated' });
  });

  it('runs two pushes of a new key at once one after the other: one creates, the other finds it unchanged', async () => {
    const body = zip(simpleDoc({ key: 'race' }), simpleFiles());
    const both = await Promise.all([send('PUT', '/v1/demos/by-key/race', body), send('PUT', '/v1/demos/by-key/race', body)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    expect(both.map((r) => r.json().data.outcome).sort()).toEqual(['created', 'unchanged']);
    expect(new Set(both.map((r) => r.json().data.demo_id)).size).toBe(1);
  });

  it('refuses bad documents with the path of each problem, and leaves nothing behind', async () => {
    const held = await holdings();
    const refusedWith = async (body: Buffer, status: number, fields: string[]) => {
      const res = await send('POST', '/v1/demos/import', body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(fields);
      return res.json().error;
    };
    const doc = simpleDoc({ key: undefined }) as ReturnType<typeof simpleDoc> & { steps: Array<Record<string, unknown>> };
    const withStep = (i: number, patch: object) => ({ ...doc, steps: doc.steps.map((s, k) => (k === i ? { ...s, ...patch } : s)) });

    await refusedWith(zip(withStep(0, { hotspots: [{ x: 0, y: 0, width: 0.5, height: 0.5, action: { type: 'goto', target: 'nowhere' } }] }), simpleFiles()), 422, [
      'steps[0].hotspots[0].action.target',
    ]);
    await refusedWith(zip(withStep(1, { hotspots: [{ x: 2, y: 0, width: 0.5, height: 0.5 }] }), simpleFiles()), 422, ['steps[1].hotspots[0].x']);
    await refusedWith(zip(withStep(1, { kind: 'slide' }), simpleFiles()), 422, ['steps[1].kind']);
    // Step two's id taken twice: the goto to it names nothing either.
    await refusedWith(zip({ ...doc, steps: [doc.steps[0], { ...doc.steps[1], id: 'one' }] }, simpleFiles()), 422, [
      'steps[1].id',
      'steps[0].hotspots[0].action.target',
    ]);
    await refusedWith(zip(doc, asset(png1, 'png')), 422, ['steps[1].image']);
    await refusedWith(zip(doc, { ...asset(png1, 'png'), [`assets/${sha(png2)}.png`]: png1 }), 422, ['steps[1].image']);
    const notImage = await refusedWith(zip(withStep(0, { image: ref(html) }), { ...simpleFiles(), ...asset(html, 'png') }), 422, ['steps[0].image']);
    expect(notImage.message).toMatch(/not a PNG, JPEG or WebP/);
    await refusedWith(zip({ ...doc, version: 7 }, simpleFiles()), 422, ['version']);
    await refusedWith(zip({ ...doc, format: 'other' }, simpleFiles()), 422, ['format']);
    await refusedWith(zip('{"format": "demoshare-demo",', simpleFiles()), 400, ['demo.json']);
    await refusedWith(Buffer.from(zipSync({ 'readme.txt': new Uint8Array([1]) })), 400, ['archive']);
    await refusedWith(Buffer.from('this is not a zip at all'), 400, ['archive']);
    const json = await t.app.inject({ method: 'POST', url: '/v1/demos/import', headers: { ...bearer(key), 'content-type': 'text/plain' }, payload: 'x' });
    expect(json.statusCode).toBe(415);
    expect(await holdings()).toEqual(held);
  });

  it('refuses oversized archives and zip bombs before unpacking them', async () => {
    const held = await holdings();
    // 10 MB of zeros deflate to a few KB: the declared size is over DEMO_ARCHIVE_MAX_EXPANDED_BYTES.
    const bomb = await send('POST', '/v1/demos/import', zip(simpleDoc({ key: undefined }), { ...simpleFiles(), [`assets/${'0'.repeat(64)}.png`]: new Uint8Array(10 * 1024 * 1024) }));
    expect(bomb.statusCode, bomb.body).toBe(413);
    expect(bomb.json().error.message).toMatch(/DEMO_ARCHIVE_MAX_EXPANDED_BYTES/);
    const big = await send('POST', '/v1/demos/import', Buffer.alloc(MAX_BYTES + 1024, 7));
    expect(big.statusCode).toBe(413);
    // An entry that claims to be smaller than it is does not grow past its claim.
    const liar = Buffer.from(zipSync({ 'demo.json': new TextEncoder().encode(JSON.stringify(simpleDoc({ title: 'x'.repeat(5000) }))) }, { level: 9 }));
    const central = liar.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    liar.writeUInt32LE(100, central + 24);
    const lying = await send('POST', '/v1/demos/import', liar);
    expect([400, 413]).toContain(lying.statusCode);
    expect(await holdings()).toEqual(held);
  });

  it('upgrades a version 0 document (the linear demos of the contract) on import', async () => {
    const v0 = {
      format: 'demoshare-demo',
      title: 'Old tour',
      steps: [
        { number: 1, title: 'A', image: ref(png1), width: 64, height: 40, hotspots: [{ x: 0, y: 0, width: 0.5, height: 0.5, action_type: 'goto', action_target: 2 }] },
        { number: 2, title: 'B', hotspots: [{ x: 0, y: 0, width: 0.5, height: 0.5, action_type: 'url', action_target: 'https://acme.example/' }] },
      ],
    };
    expect(upgradeDocument(v0)).toMatchObject({ from: 0, upgraded: { version: 1, steps: [{ id: 'step-1' }, { id: 'step-2' }] } });
    const res = await send('POST', '/v1/demos/import', zip(v0, asset(png1, 'png')));
    expect(res.statusCode, res.body).toBe(201);
    const doc = JSON.parse((await exported(res.json().data.id)).json);
    expect(doc.version).toBe(1);
    expect(doc.steps[0].hotspots[0].action).toEqual({ type: 'goto', target: 'step-2' });
    expect(doc.steps[1].hotspots[0].action).toEqual({ type: 'url', target: 'https://acme.example/' });
  });

  it('the CLI exports, imports and pushes a folder over the HTTP API', async () => {
    const url = await listening();
    const env = { DEMOSHARE_URL: url, DEMOSHARE_TOKEN: key };
    const lines: string[] = [];
    const out = { stdout: (s: string) => lines.push(s), stderr: (s: string) => lines.push(s) };
    const dir = mkdtempSync(join(tmpdir(), 'demo-file-'));
    try {
      const pushed = (await send('PUT', '/v1/demos/by-key/cli-tour', zip(simpleDoc({ key: 'cli-tour' }), simpleFiles()))).json().data.demo_id;
      writeFileSync(join(dir, 'stale.txt'), 'kept');
      expect(await main(['demos', 'export', pushed, '--out', dir], env, out), lines.join('\n')).toBe(0);
      expect(lines.at(-1)).toMatch(/Exported "Simple tour" \(2 steps, 2 assets, key cli-tour\)/);
      expect(readdirSync(join(dir, 'assets')).sort()).toEqual([`${sha(png1)}.png`, `${sha(png2)}.png`].sort());

      expect(await main(['demos', 'push', dir], env, out)).toBe(0);
      expect(lines.at(-1)).toBe(`cli-tour: unchanged ${pushed}`);
      const doc = JSON.parse(readFileSync(join(dir, 'demo.json'), 'utf8'));
      writeFileSync(join(dir, 'demo.json'), JSON.stringify({ ...doc, title: 'Changed in git' }, null, 2));
      // A pull request's check: what the push would do, and nothing done.
      const before = await demoRow(pushed);
      expect(await main(['demos', 'push', dir, '--publish', '--dry-run'], env, out)).toBe(0);
      expect(lines.at(-1)).toBe(`cli-tour: would update ${pushed}: title; would publish version 1`);
      expect(await demoRow(pushed)).toEqual(before);
      expect(await main(['demos', 'push', dir, '--publish'], env, out)).toBe(0);
      expect(lines.at(-1)).toBe(`cli-tour: updated ${pushed}: title; published version 1`);

      lines.length = 0;
      expect(await main(['demos', 'import', join(dir)], env, out)).toBe(1);
      expect(lines.join('\n')).toMatch(/409 conflict\)\n {2}key: is the key of/);
      expect(await main(['demos', 'push', join(dir, 'nothing-here')], env, out)).toBe(2);
      expect(await main(['demos', 'export', pushed], env, out)).toBe(2);

      // The real command, as a CI job runs it.
      const spawned = await runCli(['demos', 'push', dir], cleanEnv(env));
      expect(spawned.code, spawned.stderr).toBe(0);
      expect(spawned.stdout.trim()).toBe(`cli-tour: unchanged ${pushed}`);
      lines.length = 0;
      expect(await main(['demos', 'push', dir], { ...env, DEMOSHARE_TOKEN: 'dsk_wrong' }, out)).toBe(1);
      expect(lines.join('\n')).toMatch(/401 unauthorized/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('the editor’s Export dialog downloads the demo file and sets the key (1280 and 390 px)', async () => {
    await ensureWebBuilt();
    const browser = await launchBrowser();
    if (!browser) return;
    const url = await listening();
    const id = await demoWithSteps(t, key, 2, true);
    try {
      for (const width of [1280, 390]) {
        const { context, page } = await signedInPage(browser, url, admin, { width, height: 900 }, { acceptDownloads: true });
        await page.goto(`${url}/demos/${id}`);
        await page.getByRole('button', { name: /^More/ }).waitFor();
        // The editor may render again as its demo loads, closing a menu opened before: open it until it stays.
        const exportItem = page.getByRole('menuitem', { name: 'Export' });
        for (let attempt = 0; attempt < 5 && !(await exportItem.isVisible()); attempt++) {
          await page.getByRole('button', { name: /^More/ }).click();
          await exportItem.waitFor({ timeout: 2000 }).catch(() => {});
        }
        await exportItem.click();
        const section = page.getByRole('region', { name: 'Demo file' });
        await section.getByText('Published version 1').waitFor();
        if (width === 1280) {
          await section.getByLabel(/^Key/).fill('from-the-editor');
          await section.getByRole('button', { name: 'Set key' }).click();
          await section.getByText('from-the-editor', { exact: true }).waitFor();
        } else {
          await section.getByText('from-the-editor', { exact: true }).waitFor();
        }
        await page.screenshot({ path: join(tmpdir(), `demo-file-export-${width}.png`) });
        expect(await overflowing(page)).toEqual([]);
        const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('link', { name: 'Download demo file' }).click()]);
        expect(download.suggestedFilename()).toBe('from-the-editor.demo.zip');
        const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
        expect(JSON.parse(new TextDecoder().decode(files['demo.json'])).key).toBe('from-the-editor');
        await context.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
