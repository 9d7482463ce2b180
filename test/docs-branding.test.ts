import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

// /docs is Demoshare's API reference: its own title, logo and favicon, none of the Swagger project's.
describe('the /docs reference page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 120_000);
  afterAll(() => t?.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return res.body;
  };

  it('is titled and branded as Demoshare', async () => {
    const page = await get('/docs');
    expect(page).toContain('<title>Demoshare API reference</title>');
    const favicon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page)?.[1];
    expect(favicon).toMatch(/theme\/favicon\.svg$/);
    expect(page).not.toContain('favicon-32x32.png');
    const at = (href: string) => new URL(href, 'http://x/docs/').pathname;
    expect(await get(at(favicon!))).toContain('<title>Demoshare</title>');
    const css = /href="([^"]*theme\/demoshare\.css)"/.exec(page)?.[1];
    expect(await get(at(css!))).toContain('.topbar');
    const initializer = await get('/docs/static/swagger-initializer.js');
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(initializer)?.[1];
    expect(Buffer.from(logo ?? '', 'base64').toString()).toContain('Demoshare API');
  });
});
