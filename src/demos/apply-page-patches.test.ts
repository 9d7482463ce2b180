import { describe, expect, it } from 'vitest';
import { applyPagePatches, HIDDEN_STYLE, matchPagePatches } from './apply-page-patches';
import { patchesHash } from './page-patches';

const page = (body: string) => `<!doctype html><html><head><style>h1{color:red}</style></head><body>${body}</body></html>`;

describe('applyPagePatches', () => {
  it('sets text, hides and swaps images, in order, and leaves the rest as stored', () => {
    const { html, applied } = applyPagePatches(
      page('<h1 id="t">Old <b>title</b></h1><p class="x" style="color: blue;">Secret</p><img id="logo" src="https://a/x.png" srcset="a.png 2x"><p>Kept &amp; plain</p>'),
      [
        { selector: '#t', op: 'text', value: 'First' },
        { selector: 'p.x', op: 'hide' },
        { selector: '#logo', op: 'image', value: 'ast_1' },
        { selector: '#t', op: 'text', value: 'New title' },
      ],
      { ast_1: '/v1/viewer/tok/assets/ast_1' },
    );
    expect(applied).toEqual([1, 1, 1, 1]);
    expect(html).toContain('<h1 id="t">New title</h1>');
    expect(html).toContain(`<p class="x" style="color: blue; ${HIDDEN_STYLE}">Secret</p>`);
    expect(html).toContain('<img id="logo" src="/v1/viewer/tok/assets/ast_1">');
    expect(html).toContain('<p>Kept &amp; plain</p>');
    expect(html).toContain('<style>h1{color:red}</style>');
  });

  it('writes a text value as text: markup in it is escaped, never parsed', () => {
    const { html } = applyPagePatches(page('<p id="a">x</p><textarea id="b">y</textarea>'), [
      { selector: '#a', op: 'text', value: '<script>alert(1)</script><img src=x onerror=alert(2)> & "q"' },
      { selector: '#b', op: 'text', value: '</textarea><script>alert(3)</script>' },
    ], {});
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('<p id="a">&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; &amp; "q"</p>');
    expect(html).toContain('<textarea id="b">&lt;/textarea&gt;&lt;script&gt;alert(3)&lt;/script&gt;</textarea>');
  });

  it('skips what it cannot apply: no match, raw-text elements, an image patch on a paragraph, an unknown asset, a bad selector', () => {
    const source = page('<p id="a">x</p><img id="i" src="https://a/i.png">');
    const { html, applied } = applyPagePatches(
      source,
      [
        { selector: '#gone', op: 'text', value: 'y' },
        { selector: 'style', op: 'text', value: '</style><script>alert(1)</script>' },
        { selector: '#a', op: 'image', value: 'ast_1' },
        { selector: '#i', op: 'image', value: 'ast_unknown' },
        { selector: 'p[', op: 'hide' },
      ],
      { ast_1: '/x' },
    );
    expect(applied).toEqual([0, 0, 0, 0, 0]);
    expect(html).toBe(applyPagePatches(source, [], {}).html);
    expect(html).not.toContain('<script>');
  });

  it('swaps the image of a <picture> and drops its sources', () => {
    const { html } = applyPagePatches(
      page('<picture id="p"><source srcset="a.webp" type="image/webp"><img src="a.png"></picture>'),
      [{ selector: '#p', op: 'image', value: 'ast_1' }],
      { ast_1: '/new.png' },
    );
    expect(html).toContain('<picture id="p"><img src="/new.png"></picture>');
  });
});

describe('matchPagePatches', () => {
  it('says which patches still find an element they apply to', () => {
    expect(
      matchPagePatches(page('<h1 id="t">T</h1><img class="logo" src="x">'), [
        { selector: '#t', op: 'text', value: 'a' },
        { selector: '#gone', op: 'hide' },
        { selector: 'img.logo', op: 'image', value: 'ast_1' },
        { selector: '#t', op: 'image', value: 'ast_1' },
      ]),
    ).toEqual([true, false, true, false]);
  });
});

describe('patchesHash', () => {
  it('names a list of patches: equal lists the same, any change another', () => {
    const a = [{ selector: '#t', op: 'text' as const, value: 'a' }];
    expect(patchesHash(a)).toBe(patchesHash([{ value: 'a', op: 'text', selector: '#t' }]));
    expect(patchesHash(a)).not.toBe(patchesHash([{ selector: '#t', op: 'text', value: 'b' }]));
    expect(patchesHash(a)).toMatch(/^[0-9a-f]{16}$/);
  });
});
