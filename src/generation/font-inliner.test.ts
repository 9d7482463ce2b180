import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../core/net/address-policy';
import { SafeFetch } from '../core/net/safe-fetch';
import { fetchFonts, fontSources, inlineFonts, styleElements } from './font-inliner';

describe('fonts written into snapshots', () => {
  const icons = Buffer.from('wOF2 icon glyphs, bytes as the site serves them');
  const huge = Buffer.alloc(500 * 1024, 1);
  const server = createServer((req, res) => {
    if (req.url === '/fonts/icons.woff2') res.writeHead(200, { 'content-type': 'font/woff2' }).end(icons);
    else if (req.url === '/fonts/huge.woff') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(huge);
    else res.writeHead(404).end();
  });
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await net.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The three steps as buildSnapshot runs them (the first and last in a document worker). */
  async function writeFonts(doc: ReturnType<typeof parseDocument>, deadline: number) {
    const urls = styleElements(doc).flatMap((style) => fontSources(render(style.children)));
    inlineFonts(doc, await fetchFonts(urls, { net, deadline }));
  }

  it('inlines the first source of each @font-face as data, and leaves missing or oversized fonts as links', async () => {
    const css = [
      `@font-face{font-family:"bootstrap-icons";src:url("${origin}/fonts/icons.woff2") format("woff2"),url("${origin}/fonts/icons.woff") format("woff")}`,
      `.bi::before{font-family:"bootstrap-icons"}`,
      `@font-face{font-family:Gone;src:url(${origin}/fonts/gone.woff2)}`,
      `@font-face{font-family:Huge;src:url('${origin}/fonts/huge.woff')}`,
    ].join('\n');
    const doc = parseDocument(`<html><head><style>${css}</style></head><body><i class="bi"></i></body></html>`);
    await writeFonts(doc, Date.now() + 10_000);
    const html = render(doc);
    expect(html).toContain(`url("data:font/woff2;base64,${icons.toString('base64')}") format("woff2"),url("${origin}/fonts/icons.woff")`);
    expect(html).toContain('.bi::before{font-family:"bootstrap-icons"}');
    expect(html).toContain(`src:url(${origin}/fonts/gone.woff2)`);
    expect(html).toContain(`src:url('${origin}/fonts/huge.woff')`);
  });

  it('fetches nothing once the deadline is near', async () => {
    const doc = parseDocument(`<style>@font-face{font-family:I;src:url(${origin}/fonts/icons.woff2)}</style>`);
    await writeFonts(doc, Date.now() + 100);
    expect(render(doc)).toContain(`src:url(${origin}/fonts/icons.woff2)`);
  });
});
