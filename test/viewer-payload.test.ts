import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureResult, waitForDemo } from './helpers/demos';
import { createShare, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** Every path in `value` whose key the document's schema does not declare (what a client cannot know). */
function undeclared(value: unknown, schema: JsonSchema, doc: { components: { schemas: Record<string, JsonSchema> } }, at = ''): string[] {
  if (schema.$ref) return undeclared(value, doc.components.schemas[schema.$ref.split('/').at(-1)!]!, doc, at);
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  if (alternatives.length > 0) {
    const answers = alternatives.map((s) => undeclared(value, s, doc, at));
    return answers.find((a) => a.length === 0) ?? answers[0]!;
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => (schema.items ? undeclared(v, schema.items, doc, `${at}[${i}]`) : []));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => {
      const property = schema.properties?.[k];
      return property ? undeclared(v, property, doc, `${at}.${k}`) : [`${at}.${k}`];
    });
  }
  return [];
}

describe('the viewer payload and its documented schema', () => {
  let t: TestApp;
  let key: string;
  let token: string;

  beforeAll(async () => {
    // Snapshot steps: HTML and no image, as an HTML capture without a browser makes them.
    t = await createTestApp({
      jobs: true,
      generator: async (options) => {
        const result = fixtureResult(options.url, 2, 'Snapshot tour');
        return { ...result, steps: result.steps.map(({ image: _, ...step }) => step) };
      },
    });
    key = await t.apiKey('all');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: 'https://example.com/pricing', type: 'interactive', generate_with_ai: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    await waitForDemo(t, key, id, (d) => d.status === 'draft');
    const published = await t.app.inject({ method: 'PATCH', url: `/v1/demos/${id}`, headers: bearer(key), payload: { status: 'published' } });
    expect(published.statusCode, published.body).toBe(200);
    token = (await createShare(t, key, id)).token;
  });
  afterAll(() => t?.close());

  async function play() {
    const v = viewerClient(t, token);
    expect((await v.call('GET', '')).statusCode).toBe(200);
    const demo = await v.call('GET', '/demo');
    expect(demo.statusCode, demo.body).toBe(200);
    return demo.json().data;
  }

  it('sends the hotspot selector of snapshot steps, and documents it in ViewerDemo', async () => {
    const data = await play();
    expect(data.steps[0].image_url).toBeNull();
    expect(data.steps[0].html_url).toMatch(new RegExp(`^/v1/viewer/${token}/assets/`));
    expect(data.steps[0].hotspots[0]).toMatchObject({ selector: 'h1', label: 'Heading' });
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const hotspot = doc.components.schemas.ViewerDemo.properties.steps.items.properties.hotspots.items;
    expect(Object.keys(hotspot.properties)).toContain('selector');
    expect(hotspot.required ?? []).not.toContain('selector');
  });

  it('sends nothing the OpenAPI document does not declare (the payload is encoded through its schema)', async () => {
    const data = await play();
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const route = doc.paths['/v1/viewer/{token}/demo'].get.responses['200'].content['application/json'].schema;
    expect(undeclared({ data }, route, doc)).toEqual([]);
  });
});
