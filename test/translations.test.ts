import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from './helpers/chat-server';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// Translation (issue 30, item 5): every text of a demo out as XLIFF 2.0 or PO, back in translated, reviewed,
// and served to viewers of the published version in their language. Markup and {{variables}} must survive.

const SNAPSHOT =
  '<!doctype html><html><head><title>Billing</title><style>h1{color:red}</style></head><body>' +
  '<h1 id="title">Invoices</h1><p id="note">Hello {{company|friend}}, your trial ends soon</p><p id="price">$ 42</p>' +
  '<button id="save">Save draft</button><script>var x = "Not a text";</script></body></html>';

const RICH = '<p>Click <strong>Save</strong> to keep <a href="https://example.com/docs?a=1&b=2">the draft</a>, {{company|your team}}.</p><ul><li>One</li><li>Two<br>lines</li></ul>';

/** What "translating" does here: English words to French ones, markup and variables left alone. */
const FRENCH: Array<[RegExp, string]> = [
  [/Invoices/g, 'Factures'],
  [/Click/g, 'Cliquez sur'],
  [/Save draft/g, 'Enregistrer le brouillon'],
  [/to keep/g, 'pour garder'],
  [/the draft/g, 'le brouillon'],
  [/Your invoices/g, 'Vos factures'],
  [/Billing tour/g, 'Visite de la facturation'],
  [/your trial ends soon/g, 'votre essai se termine bientôt'],
  [/One/g, 'Un'],
  [/Two/g, 'Deux'],
];
const french = (s: string) => FRENCH.reduce((out, [from, to]) => out.replace(from, to), s);

// biome-ignore lint/suspicious/noExplicitAny: the test reads API answers field by field, as a client would
type Json = any;

describe('translations', () => {
  let t: TestApp;
  let chat: ChatServer;
  let key: string;
  let demoId: string;
  let stepId: string;
  let hotspotId: string;
  let token: string;

  const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(key), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const api = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Json> => {
    const res = await call(method, `/v1${url}`, payload, headers);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? res.json().data : undefined;
  };
  const importFile = (body: string, type = 'application/xliff+xml', query = '') =>
    call('POST', `/v1/demos/${demoId}/translations/import${query}`, body, { 'content-type': type });
  const exported = async (query: string, id = demoId) => {
    const res = await call('GET', `/v1/demos/${id}/translations/export?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  /** A demo from a recording: step 1 an HTML snapshot (no screenshot), as the extension uploads it. */
  async function recordDemo(title: string) {
    const recording = await api('POST', '/recordings', { step_count: 1 });
    const step = JSON.stringify({
      action: 'click',
      title: 'Your invoices',
      description: 'All of them.',
      page_url: 'https://app.example.com/billing',
      viewport: { width: 1280, height: 800 },
      target: { x: 40, y: 120, width: 120, height: 40, selector: '#save', label: 'Save {{company}}' },
      screenshot: null,
      snapshot: SNAPSHOT,
    });
    const digest = `sha-256=:${createHash('sha256').update(step).digest('base64')}:`;
    await api('PUT', `/recordings/${recording.id}/steps/1`, Buffer.from(step), { 'content-type': 'application/json', 'content-digest': digest });
    const done = await api('POST', `/recordings/${recording.id}/complete`);
    await api('PATCH', `/demos/${done.demo_id}`, { title });
    return done.demo_id as string;
  }

  beforeAll(async () => {
    chat = await startChatServer();
    t = await createTestApp({ config: { AI_BASE_URL: chat.baseUrl, AI_API_KEY: 'sk-good', AI_MODEL: 'good' } });
    key = await t.apiKey('all');
    demoId = await recordDemo('Billing tour');
    const demo = await api('GET', `/demos/${demoId}`);
    stepId = demo.steps[0].id;
    await api('PATCH', `/demos/${demoId}/steps/${stepId}`, { description_html: RICH });
    hotspotId = demo.hotspots[0].id;
    await api('PATCH', `/demos/${demoId}`, { status: 'published' });
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'Translated' });
    token = new URL(share.url).pathname.split('/').pop()!;
  });
  afterAll(async () => {
    await t?.close();
    await chat?.close();
  });

  const viewerDemo = async (lang?: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/viewer/${token}/demo${lang ? `?lang=${encodeURIComponent(lang)}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Json;
  };

  it('exports XLIFF 2.0 whose markup and variables are inline codes, and takes it back translated', async () => {
    const res = await exported('lang=fr');
    expect(res.headers['content-type']).toContain('application/xliff+xml');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${demoId}.fr.xlf"`);
    const xliff = res.body;
    expect(xliff).toContain('<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">');
    expect(xliff).toContain(`original="demoshare:${demoId}"`);
    expect(xliff).toContain(`<unit id="step.${stepId}.description">`);
    expect(xliff).toMatch(/<pc id="\d+" dataRefStart="d\d+s" dataRefEnd="d\d+e" type="fmt">Save<\/pc>/);
    expect(xliff).toContain('disp="{{company|your team}}"');
    // The captured page's words, and not its script, style or numbers.
    expect(xliff).toContain(`<unit id="page.${stepId}.0">`);
    expect(xliff).toContain('<source>Invoices</source>');
    expect(xliff).toContain('<ph id="1" dataRef="d1" equiv="{{company|friend}}"');
    expect(xliff).not.toContain('Not a text');
    expect(xliff).not.toContain('$ 42');

    // A translator's tool writes targets: the source's words changed, its codes kept (here, reordered inside).
    const translated = xliff.replace(/<source>(.*?)<\/source>/g, (whole, inner: string) => `${whole}\n          <target>${french(inner)}</target>`);
    const imported = await importFile(translated);
    expect(imported.statusCode, imported.body).toBe(200);
    const answer = imported.json().data;
    expect(answer).toMatchObject({ lang: 'fr', status: 'draft', origin: 'import', untranslated: 0 });
    expect(answer.imported).toBe(answer.units_total);

    const detail = await api('GET', `/demos/${demoId}/translations/fr`);
    const description = detail.units.find((u: Json) => u.id === `step.${stepId}.description`);
    expect(description).toMatchObject({ kind: 'html', state: 'translated' });
    expect(description.target).toBe(
      '<p>Cliquez sur <strong>Save</strong> pour garder <a href="https://example.com/docs?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">le brouillon</a>, {{company|your team}}.</p><ul><li>Un</li><li>Deux<br>lines</li></ul>',
    );
  });

  it('serves only a reviewed language, by ?lang= with the original as fallback, its captured page translated', async () => {
    // A draft is not served.
    expect((await viewerDemo('fr')).language).toBeNull();
    const approved = await api('PATCH', `/demos/${demoId}/translations/fr`, { status: 'reviewed' });
    expect(approved).toMatchObject({ status: 'reviewed', lang: 'fr' });
    expect(approved.reviewed_at).toEqual(expect.any(String));

    const fr = await viewerDemo('fr-CA,fr,en');
    expect(fr).toMatchObject({ language: 'fr', languages: ['fr'], title: 'Visite de la facturation' });
    expect(fr.steps[0].title).toBe('Vos factures');
    expect(fr.steps[0].description_html).toContain('<strong>Save</strong>');
    expect(fr.steps[0].description_html).toContain('{{company|your team}}');
    expect(fr.steps[0].description).toContain('Cliquez sur Save');
    expect(fr.steps[0].html_url).toMatch(/[?&]lang=fr$/);
    const page = await t.app.inject({ method: 'GET', url: new URL(fr.steps[0].html_url, 'http://x').pathname + new URL(fr.steps[0].html_url, 'http://x').search });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1 id="title">Factures</h1>');
    expect(page.body).toContain('Hello {{company|friend}}, votre essai se termine bientôt');
    expect(page.body).toContain('<p id="price">$ 42</p>');

    // The original: no preference, an unknown language, or the demo's own language first.
    for (const lang of [undefined, 'de', 'en-US,fr']) {
      const original = await viewerDemo(lang);
      expect(original.language, String(lang)).toBeNull();
      expect(original.title).toBe('Billing tour');
      expect(original.steps[0].html_url).not.toContain('lang=');
    }
  });

  it('round-trips PO with markup and variables, matching them to the source by how they are written', async () => {
    const res = await exported('lang=de&format=po');
    expect(res.headers['content-type']).toContain('text/x-gettext-translation');
    const po = res.body;
    expect(po).toContain(`"X-Demoshare-Demo: ${demoId}\\n"`);
    expect(po).toContain(`msgctxt "step.${stepId}.description"`);
    // msgstr = msgid with the words changed: the PO way of translating.
    const translated = po.replace(/msgid ((?:".*"\n)+)msgstr ""\n/g, (_whole, id: string) => `msgid ${id}msgstr ${french(id)}`);
    const imported = await importFile(translated, 'text/x-gettext-translation');
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().data).toMatchObject({ lang: 'de', untranslated: 0 });
    const detail = await api('GET', `/demos/${demoId}/translations/de`);
    const description = detail.units.find((u: Json) => u.id === `step.${stepId}.description`);
    expect(description.target).toContain('<strong>Save</strong>');
    expect(description.target).toContain('<a href="https://example.com/docs?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">le brouillon</a>');
    expect(description.target).toContain('{{company|your team}}');
    expect(description.target).toContain('<ul><li>Un</li><li>Deux<br>lines</li></ul>');
    // A translated fallback is the translator's to write; the variable's name is not.
    const edited = await call('PATCH', `/v1/demos/${demoId}/translations/de`, {
      units: [{ id: `hotspot.${hotspotId}.label`, target: 'Speichern {{company|Ihr Team}}' }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
  });

  it('refuses a file of another demo, stale units and lost markup, naming each, and stores nothing', async () => {
    const before = await api('GET', `/demos/${demoId}/translations/fr`);
    const otherId = await recordDemo('Another tour');
    const other = await exported('lang=fr', otherId);
    const foreign = await importFile(other.body);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.message).toMatch(`another demo (${otherId})`);
    expect(foreign.json().error.details).toEqual([{ field: 'file', message: expect.stringContaining(otherId) }]);

    const xliff = (await exported('lang=fr')).body;
    // A source changed since the export, a unit the demo does not have, a target that lost <strong> and a variable.
    const tampered = xliff
      .replace('<source>Your invoices</source>', '<source>Your bills</source>')
      .replace('</file>', '<unit id="step.step_gone.title"><segment><source>Gone</source><target>Parti</target></segment></unit>\n  </file>')
      .replace(/(<unit id="step\.[^"]+\.description">[\s\S]*?<target>)[\s\S]*?(<\/target>)/, '$1Cliquez<ph id="8" dataRef="d8"/>$2');
    const refused = await importFile(tampered);
    expect(refused.statusCode, refused.body).toBe(422);
    const fields = refused.json().error.details.map((d: Json) => d.field);
    expect(fields).toEqual(expect.arrayContaining([`units.step.${stepId}.title`, 'units.step.step_gone.title', `units.step.${stepId}.description`]));
    const lost = refused.json().error.details.find((d: Json) => d.field === `units.step.${stepId}.description`);
    expect(lost.message).toMatch(/lacks <p>.*<strong>.*\{\{company\|your team\}\}/);
    expect(refused.json().error.message).toMatch(/Nothing was imported/);

    // PO: a variable lost; markup the source does not have.
    const po = (await exported('lang=fr&format=po')).body;
    const badPo = po
      .replace(/(msgctxt "page\.[^"]+\.1"\nmsgid ".*"\nmsgstr )".*"/, '$1"Bonjour, votre essai"')
      .replace(/(msgctxt "demo\.title"\nmsgid ".*"\nmsgstr )".*"/, '$1"<em>Visite</em>"');
    const poRefused = await importFile(badPo, 'text/x-po');
    expect(poRefused.statusCode, poRefused.body).toBe(422);
    expect(poRefused.json().error.details).toEqual(
      expect.arrayContaining([
        { field: `units.page.${stepId}.1`, message: expect.stringContaining('lacks {{company|friend}}') },
        { field: 'units.demo.title', message: expect.stringContaining('<em>') },
      ]),
    );

    // Malformed: 400, not 500. A language tag that is none: 400.
    const malformed = await importFile('<xliff version="2.0"><file id="a"></file><file id="b"></file></xliff>');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.details[0].field).toBe('file');
    expect((await call('GET', `/v1/demos/${demoId}/translations/export?lang=not_a_lang`)).statusCode).toBe(400);
    expect((await call('POST', `/v1/demos/${demoId}/translations/import`, 'x', { 'content-type': 'image/png' })).statusCode).toBe(415);

    const after = await api('GET', `/demos/${demoId}/translations/fr`);
    expect(after.revision).toBe(before.revision);
    expect(after.units).toEqual(before.units);
  });

  it('machine-translates into a draft through the configured model, skipping answers that lose a variable', async () => {
    const res = await call('POST', `/v1/demos/${demoId}/translations/es/machine`, {});
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().data;
    expect(answer).toMatchObject({ lang: 'es', status: 'draft', origin: 'machine', model: 'good', remaining: 0 });
    expect(answer.skipped).toEqual([{ unit: `hotspot.${hotspotId}.label`, message: expect.stringContaining('lacks {{company}}') }]);
    expect(answer.translated).toBe(answer.units_total - 1);
    const asked = chat.calls.filter((c) => c.body.response_format?.json_schema?.name === 'demo_translation');
    expect(asked.length).toBeGreaterThan(0);
    const detail = await api('GET', `/demos/${demoId}/translations/es`);
    expect(detail.units.find((u: Json) => u.id === 'demo.title').target).toBe('ES: Billing tour');
    expect(detail.units.find((u: Json) => u.id === `step.${stepId}.description`).target).toMatch(/^ES: <p>Click <strong>Save<\/strong>.*\{\{company\|your team\}\}/);
    // A draft: viewers asking for Spanish get the original until it is reviewed.
    expect((await viewerDemo('es')).language).toBeNull();

    const list = await api('GET', `/demos/${demoId}/translations`);
    expect(list.map((l: Json) => [l.lang, l.status])).toEqual([
      ['de', 'draft'],
      ['es', 'draft'],
      ['fr', 'reviewed'],
    ]);
    expect((await call('DELETE', `/v1/demos/${demoId}/translations/es`)).statusCode).toBe(204);
    expect((await call('DELETE', `/v1/demos/${demoId}/translations/es`)).statusCode).toBe(404);
    expect((await api('GET', `/demos/${demoId}/translations`)).map((l: Json) => l.lang)).toEqual(['de', 'fr']);
  });
});
