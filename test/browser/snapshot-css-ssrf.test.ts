import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { createShare } from '../helpers/shares';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer, type TestSession } from '../helpers/test-app';

// A recorded snapshot whose CSS points at a listener on 127.0.0.1 in every way CSS can: escapes in the
// function name, strings in image-set(), @import, @font-face, cross-fade(), a custom property put into
// image-set() by var(), SVG presentation attributes and SVG style elements (one that HTML parsing ends the
// SVG before, so that a quote written as &quot; for SVG would be read raw). The server runs with the
// default address policy (no private range opened), so none of it may stay: the share page, the embed
// and the editor must make the browser send the listener nothing. The same HTML shown raw, in the same
// kind of frame, must reach it, so that the zero cannot come from payloads that never fetch.

const browser: Browser | null = await launchBrowser();

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** The payloads, each fetching `<listener>/hit/<name>` if it survives. */
function payloadPage(l: string, port: number): string {
  const svgFilter = encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg"><filter id="f"><feImage href="${l}/hit/svg-data-feimage"/></filter></svg>`,
  );
  const box = (cls: string, style = '') => `<div class="${cls}" style="width:20px;height:20px;${style}">x</div>`;
  return `<!doctype html><html><head><title>CSS payloads</title>
<style>@import u\\72l(${l}/hit/import-escaped);</style>
<style>@import "${l}/hit/import-string";</style>
<style>@import/**/url( "${l}/hit/import-comment" ) screen;</style>
<style>
@font-face{font-family:p1;src:u\\rl(${l}/hit/font-face) format("woff")}
.font{font-family:p1}
.s1{background:u\\72l(${l}/hit/style-escape-hex)}
.s2{background:u\\rl(${l}/hit/style-escape-char)}
.s3{background:\\75 rl(${l}/hit/style-escape-first)}
.s4{background-image:image-set("${l}/hit/image-set-string" 1x)}
.s5{background-image:-webkit-image-set(url(${l}/hit/webkit-image-set) 1x)}
.s6{background-image:cross-fade(url(${l}/hit/cross-fade) 50%, url(${l}/hit/cross-fade-2))}
.s7{background-image:-webkit-cross-fade(url(${l}/hit/webkit-cross-fade), url(${l}/hit/webkit-cross-fade-2), 50%)}
.s8{--u:"${l}/hit/var-image-set";background-image:image-set(var(--u) 1x)}
.s9::before{content:url(${l}/hit/content)}
.s10{list-style-image:url( '${l}/hit/list-style' );display:list-item}
.s11{background:url(http://[::ffff:127.0.0.1]:${port}/hit/ipv4-mapped)}
.s12{background:url(http://[::127.0.0.1]:${port}/hit/ipv4-compatible)}
.s13{background:url(${l}/hit/bad url)}
.s14{background:element(#x)}
.s15{background:paint(x)}
.s16{-webkit-mask-image:url(${l}/hit/mask)}
.s17{border:10px solid;border-image:url(${l}/hit/border-image) 30}
.s18{filter:url("data:image/svg+xml,${svgFilter}#f")}
.s19{background:url(http\\:\\/\\/127.0.0.1\\:${port}/hit/escaped-address)}
</style></head><body>
<p class="font">text in the font</p>
${Array.from({ length: 19 }, (_, i) => box(`s${i + 1}`)).join('\n')}
${box('a1', `background:u\\72l(${l}/hit/attribute-escape-hex)`)}
${box('a2', `background:u\\rl(${l}/hit/attribute-escape-char)`)}
${box('a3', `background-image:url( &quot;${l}/hit/attribute-quoted&quot; )`)}
${box('a4', `background-image:image-set(&quot;${l}/hit/attribute-image-set&quot; 1x)`)}
<svg width="40" height="40"><style>.svgs{fill:u\\72l(${l}/hit/svg-style-fill#p)} .svgm{mask:u\\rl(${l}/hit/svg-style-mask#m)}</style>
<rect class="svgs svgm" width="10" height="10"/>
<rect x="10" width="10" height="10" filter="u\\72l(${l}/hit/svg-attribute-filter#f)" mask="url(${l}/hit/svg-attribute-mask#m)"/>
<rect x="20" width="10" height="10" fill="url(${l}/hit/svg-attribute-fill#p)" cursor="url(${l}/hit/svg-attribute-cursor), auto"/>
</svg>
<svg width="10" height="10"></p><style>.s1::after{content:"x url(${l}/hit/svg-breakout) y"}</style></svg>
<h1 id="rendered">Rendered</h1>
</body></html>`;
}

/**
 * What Chromium fetches of these when the page is shown unsanitised: the control's floor. The others
 * (unprefixed cross-fade(), element(), paint(), a bad url, an IPv4-compatible address, an SVG filter
 * document's feImage) fetch nothing there today and are cleaned all the same.
 */
const LIVE = [
  'attribute-escape-char', 'attribute-escape-hex', 'attribute-image-set', 'attribute-quoted', 'border-image', 'content',
  'escaped-address', 'font-face', 'image-set-string', 'import-comment', 'import-escaped', 'import-string', 'ipv4-mapped',
  'list-style', 'mask', 'style-escape-char', 'style-escape-first', 'style-escape-hex', 'svg-attribute-cursor',
  'svg-attribute-fill', 'svg-attribute-mask', 'svg-style-fill', 'svg-style-mask', 'var-image-set', 'webkit-cross-fade',
  'webkit-cross-fade-2', 'webkit-image-set',
];

describe.skipIf(!browser)('CSS in a snapshot cannot send the viewer’s browser to a refused address (Chromium)', () => {
  let server: TestServer;
  let listener: Server;
  let control: Server;
  let editor: TestSession;
  let key: string;
  let html: string;
  let demoId: string;
  let token: string;
  const hits: string[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    listener = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url?.includes('import')) res.writeHead(200, { 'content-type': 'text/css' }).end('p{color:red}');
      else res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(PNG);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    html = payloadPage(`http://127.0.0.1:${port}`, port);

    // Serves the same HTML in a frame as the player does (srcdoc, sandboxed without scripts), from another
    // loopback origin, with nothing in between.
    control = createServer((_req, res) => {
      const srcdoc = html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Control</title><iframe sandbox="allow-same-origin" style="width:1280px;height:800px" srcdoc="${srcdoc}"></iframe>`);
    });
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));

    // The defaults: no private range opened, so loopback addresses are refused.
    server = await startTestServer({ selfUrl: true });
    editor = await server.signUp();
    key = await server.apiKey('all', editor);
    const call = async (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) => {
      const body = JSON.stringify(payload);
      // A recorded step's bytes carry their digest (RFC 9530), as the extension sends them.
      const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
      const headers = { ...bearer(key), 'content-type': 'application/json', 'content-digest': digest };
      const res = await server.app.inject({ method, url, headers, payload: body });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().data;
    };
    const recording = await call('POST', '/v1/recordings', { step_count: 1 });
    await call('PUT', `/v1/recordings/${recording.id}/steps/1`, {
      action: 'click',
      title: 'Open the payloads',
      description: 'Every way CSS can fetch.',
      page_url: 'https://app.example.com/payloads',
      viewport: { width: 1280, height: 800 },
      target: { x: 10, y: 10, width: 100, height: 40, selector: '#rendered', label: 'Rendered' },
      screenshot: null,
      snapshot: html,
    });
    demoId = (await call('POST', `/v1/recordings/${recording.id}/complete`, {})).demo_id;
    await call('PATCH', `/v1/demos/${demoId}`, { status: 'published' });
    token = (await createShare(server, key, demoId)).token;
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => listener?.close(resolve));
    await new Promise((resolve) => control?.close(resolve));
  });

  /** Waits for a frame holding the snapshot (its heading drawn), then for whatever it would still fetch. */
  async function shown(page: Page): Promise<Frame> {
    for (let i = 0; i < 300; i++) {
      for (const frame of page.frames()) {
        const drawn = await frame
          .evaluate(() => document.readyState === 'complete' && (document.getElementById('rendered')?.getBoundingClientRect().height ?? 0) > 0)
          .catch(() => false);
        if (drawn) {
          await page.waitForTimeout(1500);
          return frame;
        }
      }
      await page.waitForTimeout(100);
    }
    throw new Error('the snapshot was never shown');
  }

  async function open(url: string, signedIn = false): Promise<Page> {
    const { context, page } = signedIn
      ? await signedInPage(browser!, server.url, editor, { width: 1280, height: 800 }, { timeoutMs: 30_000 })
      : await browser!.newContext({ viewport: { width: 1280, height: 800 } }).then(async (c) => ({ context: c, page: await c.newPage() }));
    contexts.push(context);
    await page.goto(url);
    return page;
  }

  const hitNames = () => [...new Set(hits.map((path) => path.replace(/^\/hit\//, '')))].sort();

  it('control: the same HTML shown raw makes Chromium fetch the listener', async () => {
    hits.length = 0;
    const page = await open(`http://127.0.0.1:${(control.address() as AddressInfo).port}/`);
    await shown(page);
    expect(hitNames()).toEqual(expect.arrayContaining(LIVE));
  });

  it.each([
    ['the share page', () => `${server.url}/s/${token}`, false],
    ['the embed', () => `${server.url}/embed/${token}`, false],
    ['the editor', () => `${server.url}/demos/${demoId}`, true],
  ])('%s shows the snapshot and sends the listener nothing', async (_where, url, signedIn) => {
    hits.length = 0;
    const page = await open(url(), signedIn);
    const frame = await shown(page);
    // The snapshot is the cleaned one: its CSP is in, and what the site itself served still is.
    expect(await frame.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]') !== null)).toBe(true);
    expect(hitNames()).toEqual([]);
  });
});
