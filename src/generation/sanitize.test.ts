import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { sanitizeDocument } from './sanitize';

const PAGE = 'https://site.example/docs/page.html';

function clean(body: string, head = '', mayReach?: (url: string) => boolean): string {
  const doc = parseDocument(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  sanitizeDocument(doc, PAGE, mayReach);
  return render(doc, { encodeEntities: 'utf8' });
}

/** Whatever is left must not run, navigate or load anything by itself in a browser. */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<script|<iframe|<object|<embed|<frame|<base|<noscript|<template|<xmp|<animate|<set\b/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:|vbscript:|data:text\/html|srcdoc|formaction|http-equiv="refresh"/i);
}

describe('sanitizeDocument', () => {
  it.each([
    ['<script>alert(1)</script>'],
    ['<img src=x onerror=alert(1)>'],
    ['<svg onload=alert(1)><circle r=1 /></svg>'],
    ['<a href="jAvAsCrIpT:alert(1)">x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a>'],
    ['<a href="  javascript:alert(1)">x</a>'],
    ['<a href="vbscript:msgbox(1)">x</a>'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>'],
    ['<iframe src="https://evil.example" srcdoc="<script>alert(1)</script>"></iframe>'],
    ['<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">'],
    ['<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>'],
    ['<svg><a xlink:href="javascript:alert(1)"><text>x</text></a><animate attributeName="href" to="javascript:alert(1)"/><set attributeName="href" to="javascript:alert(1)"/></svg>'],
    ['<div style="background:url(javascript:alert(1))">x</div><p style="width:expression(alert(1))">y</p>'],
    ['<noscript><img src=x onerror=alert(1)></noscript><template><img src=x onerror=alert(1)></template>'],
    ['<xmp><img src=x onerror=alert(1)></xmp>'],
    ['<details open ontoggle=alert(1)>x</details><body onload=alert(1)>'],
    ['<!--[if IE]><script>alert(1)</script><![endif]--><p>ok</p>'],
  ])('leaves nothing that runs of %s', (body) => {
    expectInert(clean(body));
  });

  it('keeps nothing in the head that loads or navigates on its own', () => {
    const html = clean(
      '<p>x</p>',
      '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="/">' +
        '<link rel="import" href="/x"><link rel="preload" href="/x.js" as="script"><link rel="stylesheet" href="javascript:alert(1)">' +
        '<link rel="stylesheet" href="/main.css"><meta name="description" content="About us">',
    );
    expectInert(html);
    expect(html).not.toMatch(/preload|import|evil\.example/);
    expect(html).toContain('<link rel="stylesheet" href="https://site.example/main.css">');
    expect(html).toContain('<meta name="description" content="About us">');
    expect(html).toContain('Content-Security-Policy');
  });

  it('cannot be broken out of through a style element (including MathML/SVG mutation tricks)', () => {
    const html = clean(
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>' +
        '<svg><style><img src=x onerror=alert(2)></style></svg>',
      '<style>a{color:red}</style>',
    );
    // Parsed as text, the markup is CSS that calls a function no stylesheet may (alert): dropped; parsed
    // as elements, it was cleaned like any other.
    expect(html).toContain('<mglyph></mglyph>');
    expect(html).not.toMatch(/<img|onerror/);
    expect(html).toContain('a{color:red}');
  });

  it('makes URLs absolute, honouring <base>, and keeps only web and image addresses', () => {
    const html = clean(
      '<a href="pricing">p</a><a href="/signup?plan=pro#top">s</a><a href="#faq">f</a><a href="mailto:hi@site.example">m</a>' +
        '<img src="logo.png" srcset="a.png 1x, /b.png 2x"><img src="data:image/png;base64,iVBORw0KGgo=">' +
        '<div style="background: url(\'bg.jpg\')">x</div>',
      '<base href="https://site.example/app/">',
    );
    expect(html).toContain('href="https://site.example/app/pricing"');
    expect(html).toContain('href="https://site.example/signup?plan=pro#top"');
    expect(html).toContain('href="#faq"');
    expect(html).toContain('href="mailto:hi@site.example"');
    expect(html).toContain('src="https://site.example/app/logo.png"');
    expect(html).toContain('srcset="https://site.example/app/a.png 1x, https://site.example/b.png 2x"');
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(html).toContain('style="background: url(&quot;https://site.example/app/bg.jpg&quot;)"');
  });

  it('drops addresses the SSRF guard refuses on sight, in attributes and in CSS', () => {
    const refused = (url: string) => !/169\.254\.|\/\/10\./.test(url);
    const html = clean(
      '<img src="http://169.254.169.254/latest/meta-data/"><a href="http://10.0.0.1/admin">a</a>' +
        '<div style="background:url(http://10.0.0.1/x.png)">x</div><img src="https://cdn.example/ok.png">',
      '',
      refused,
    );
    expect(html).not.toMatch(/169\.254|10\.0\.0\.1/);
    expect(html).toContain('https://cdn.example/ok.png');
  });

  it('keeps style text only where HTML and SVG parsing read it alike (character references)', () => {
    const html = clean(
      // htmlparser2 keeps this style in the SVG (and writes its quotes as &quot;); a browser leaves the
      // SVG at </p> and reads the text raw, where the quoted url would be a url.
      '<svg></p><style>.a{content:"x url(http://127.0.0.1/b) y"}</style></svg>' +
        '<svg><style>.c{fill:url(#g)}</style></svg>' +
        '<math><mtext><table><mglyph><style>a{b:&quot;;c:"url(http://127.0.0.1/c) "}</style></mglyph></table></mtext></math>',
      '<style>.d{&:hover{color:red}}</style>',
    );
    expect(html).not.toContain('127.0.0.1');
    // Nothing left, no element: an empty SVG style is written <style/>, an open style element to HTML.
    expect(html).not.toMatch(/<style\/>|<style><\/style>/);
    expect(html).toContain('<style>.c{fill:url(#g)}</style>');
    expect(html).toContain('<style>.d{&:hover{color:red}}</style>');
  });

  it('drops hidden inputs, which carry tokens rather than anything a viewer sees', () => {
    const html = clean('<form><input type="hidden" name="csrf" value="secret-token"><input name="email"></form>');
    expect(html).not.toContain('secret-token');
    expect(html).toContain('name="email"');
  });
});
