import { describe, expect, it } from 'vitest';
import { BLANK_IMAGE, offlineCss, offlineSnapshot, pictureReferences } from './offline-snapshot';

describe('offlineSnapshot', () => {
  it('removes every reference that would fetch, keeps inline styles, text and data: URLs', () => {
    const html = `<!doctype html><html><head><base href="https://site.example/"><meta http-equiv="refresh" content="0;url=https://x.example">
<link rel="stylesheet" href="https://cdn.example/a.css"><link rel="icon" href="/favicon.ico"><script src="https://cdn.example/app.js"></script>
<style>@import "https://cdn.example/b.css"; @import url(theme.css) screen; h1{color:red;background:url('https://cdn.example/bg.png')} i{background:url(data:image/png;base64,AAAA)}</style></head>
<body><h1 style="background-image:url(https://cdn.example/h.png)">Hello</h1>
<img src="https://cdn.example/logo.png" srcset="https://cdn.example/logo@2x.png 2x" width="80" height="24" alt="Logo"><img src="data:image/png;base64,BBBB" alt="inline">
<picture><source srcset="https://cdn.example/p.webp" type="image/webp"><img src="/p.png" alt="p"></picture>
<video src="https://cdn.example/v.mp4" poster="https://cdn.example/v.png"></video><iframe src="https://youtube.example/embed"></iframe>
<svg><image href="https://cdn.example/s.png"/><use xlink:href="https://cdn.example/sprite.svg#i"/></svg>
<table background="https://cdn.example/t.png"><tr><td>cell</td></tr></table><a href="https://site.example/pricing" ping="https://t.example">Pricing</a></body></html>`;
    const { html: out, facts } = offlineSnapshot(html, [], {});
    expect(out).not.toMatch(/https?:\/\/(?!site\.example\/pricing)/);
    expect(out).not.toMatch(/<(script|link|base)\b|http-equiv|@import|\/p\.png|\/favicon/);
    expect(out).toContain('color:red');
    expect(out).toContain('url(data:image/png;base64,AAAA)');
    expect(out).toContain('src="data:image/png;base64,BBBB"');
    expect(out).toContain(`src="${BLANK_IMAGE}" width="80" height="24" alt="Logo"`);
    expect(out).toContain('<a href="https://site.example/pricing">Pricing</a>');
    expect(out).toContain('<td>cell</td>');
    // 15 references, and the 5 elements that only fetch (base, refresh, 2 links, script).
    expect(facts.dropped).toBe(20);
  });

  it('applies the page patches first, an image patch pointing at the data: URL given', () => {
    const { html } = offlineSnapshot(
      '<h1>Old</h1><img id="hero" src="https://cdn.example/hero.png"><p class="secret">x</p>',
      [
        { selector: 'h1', op: 'text', value: 'New' },
        { selector: '#hero', op: 'image', value: 'ast_1' },
        { selector: '.secret', op: 'hide' },
      ],
      { ast_1: 'data:image/png;base64,CCCC' },
    );
    expect(html).toContain('<h1>New</h1>');
    expect(html).toContain('<img id="hero" src="data:image/png;base64,CCCC">');
    expect(html).toContain('style="display: none !important"');
  });

  it('leaves CSS without remote references as it is', () => {
    const css = 'a{color:#123}b{background:url("data:image/svg+xml;utf8,<svg></svg>")}';
    expect(offlineCss(css)).toBe(css);
  });
});

describe('pictureReferences', () => {
  it('lists the pictures a snapshot loads from its site, each once, up to the limit', () => {
    const html = `<style>.a{background:url("https://s.example/a.png")} @font-face{src:url(data:font/woff2;base64,AA)}</style>
<img src="https://s.example/b.png"><img src="data:image/png;base64,CC"><img src="https://s.example/b.png"><input type="image" src="http://s.example/c.png">
<video poster="https://s.example/d.png"></video><div style="background-image:url('https://s.example/e.png')"></div><img src="/relative.png"><a href="https://s.example/page">x</a>`;
    expect(pictureReferences([html], 10)).toEqual([
      'https://s.example/a.png',
      'https://s.example/b.png',
      'http://s.example/c.png',
      'https://s.example/d.png',
      'https://s.example/e.png',
    ]);
    expect(pictureReferences([html, html], 2)).toHaveLength(2);
  });

  it('writes the fetched pictures in where the page names them', () => {
    const { html, facts } = offlineSnapshot('<img src="https://s.example/b.png"><p style="background:url(https://s.example/b.png)">x</p>', [], {}, {
      'https://s.example/b.png': 'data:image/png;base64,DD',
    });
    expect(html).toContain('<img src="data:image/png;base64,DD">');
    expect(html).toContain('url(&quot;data:image/png;base64,DD&quot;)');
    expect(facts).toEqual({ dropped: 0, inlined: 2 });
  });
});
