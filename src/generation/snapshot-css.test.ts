import { TokenType, tokenize } from '@csstools/css-tokenizer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAIN_FUNCTIONS, STRING_URL_FUNCTIONS, URL_FUNCTIONS } from './css-allow-lists';
import { cleanDeclarations, cleanStylesheet, cleanValue, MAX_CSS_NESTING } from './snapshot-css';

const SHEET = 'https://site.example/css/main.css';
/** The SSRF guard's syntax check, as sanitize.ts gets it: private and loopback literals refused. */
const mayReach = (url: string) => !/^https?:\/\/(127\.|10\.|169\.254\.|\[)/.test(url);
const L = 'http://127.0.0.1:39999';

const declarations = (css: string) => cleanDeclarations(css, SHEET, mayReach);
const sheet = (css: string) => cleanStylesheet(css, SHEET, mayReach);

/**
 * Reads `css` as a browser does (a CSS Syntax Level 3 tokenizer) and lists every address in it and every
 * function it calls: what the viewer's browser could fetch.
 */
function reachable(css: string): { addresses: string[]; functions: string[] } {
  const addresses: string[] = [];
  const functions: string[] = [];
  const tokens = tokenize({ css }).filter((t) => t[0] !== TokenType.Comment && t[0] !== TokenType.Whitespace);
  tokens.forEach((t, i) => {
    const value = (t[4] as { value?: unknown } | undefined)?.value;
    if (t[0] === TokenType.URL || t[0] === TokenType.String) addresses.push(value as string);
    if (t[0] === TokenType.Function) functions.push((value as string).toLowerCase());
    if (t[0] === TokenType.BadURL) addresses.push(`bad url at ${i}`);
  });
  return { addresses, functions };
}

const KNOWN = new Set([...URL_FUNCTIONS, ...STRING_URL_FUNCTIONS, ...PLAIN_FUNCTIONS, 'attr']);

function expectNothingRefused(css: string): void {
  const { addresses, functions } = reachable(css);
  for (const address of addresses) {
    let url: URL | null = null;
    try {
      url = new URL(address, SHEET);
    } catch {}
    if (url && /^https?:$/.test(url.protocol)) expect(mayReach(url.href), `${address} in ${css}`).toBe(true);
    expect(address).not.toMatch(/^bad url/);
  }
  for (const name of functions) expect(KNOWN.has(name), `${name}() in ${css}`).toBe(true);
}

describe('snapshot CSS: every way of writing a url is read as the browser reads it', () => {
  it.each([
    ['hex escape in the function name', `background:u\\72l(${L}/b)`],
    ['character escape in the function name', `background:u\\rl(${L}/b)`],
    ['escape at the start of the name', `background:\\75 rl(${L}/b)`],
    ['upper case and escapes', `background:U\\52L("${L}/b")`],
    ['escapes inside the address', `background:url(http\\:\\/\\/127.0.0.1\\:39999/b)`],
    ['a hex-escaped address', `background:url("\\68 ttp://127.0.0.1/b")`],
    ['quoted with white space around', `background:url( "${L}/b" )`],
    ['single-quoted', `background:url('${L}/b')`],
    ['unquoted with white space around', `background:url(  ${L}/b  )`],
    ['protocol-relative', 'background:url(//127.0.0.1:39999/b)'],
    ['backslashes as slashes', 'background:url("\\\\\\\\127.0.0.1\\\\b")'],
    ['image-set() string', `background-image:image-set("${L}/a" 1x)`],
    ['image-set() url', `background-image:image-set(url(${L}/a) 1x, "ok.png" 2x)`],
    ['-webkit-image-set()', `background-image:-webkit-image-set("${L}/a" 1x)`],
    ['escaped image-set()', `background-image:im\\61ge-set("${L}/a" 1x)`],
    ['cross-fade()', `background-image:cross-fade(url(ok.png) 50%, url(${L}/b))`],
    ['-webkit-cross-fade()', `background-image:-webkit-cross-fade(url(ok.png), url(${L}/b), 50%)`],
    ['src()', `background-image:src("${L}/b")`],
    ['a url inside a gradient', `background:linear-gradient(red, blue), url(${L}/b)`],
    ['IPv4-compatible IPv6', 'background:url(http://[::127.0.0.1]:39999/b)'],
    ['a custom property that var() can put in image-set()', `--u:"${L}/b"`],
    ['cursor', `cursor:url(${L}/c), auto`],
    ['mask', `-webkit-mask-image:url(${L}/m)`],
    ['content', `content:url(${L}/c)`],
  ])('drops %s', (_what, declaration) => {
    const out = declarations(`color:red;${declaration};margin:0`);
    expect(out).not.toContain('127.0.0.1');
    expect(out).not.toContain('::');
    expect(out).toContain('color:red');
    expect(out).toContain('margin:0');
    expectNothingRefused(out);
  });

  it.each([
    ['a bad url (white space inside)', `background:url(${L}/a b)`],
    ['a bad url (quote inside)', `background:url(${L}/a"b)`],
    ['a comment inside url(, which is part of the address', 'background:url(/*x*/ok.png)'],
    ['element()', 'background:element(#hero)'],
    ['-moz-element()', 'background:-moz-element(#hero)'],
    ['paint()', 'background:paint(checkerboard)'],
    ['image()', 'background:image("ok.png")'],
    ['attr() outside content', 'width:attr(data-width px)'],
    ['expression()', 'width:expression(alert(1))'],
    ['url() with modifiers', 'background:url("ok.png" crossorigin(anonymous))'],
    ['src() with var()', 'background:src(var(--u))'],
    ['javascript:', 'background:url(javascript:alert(1))'],
    ['a data: stylesheet', 'background:url(data:text/css,a{})'],
    ['an old IE behavior', 'behavior:url(ok.htc)'],
    ['an old Firefox binding', '-moz-binding:url(ok.xml#b)'],
    ['a bad string', 'content:"a\n'],
  ])('drops %s', (what, declaration) => {
    const out = declarations(`color:red;${declaration};margin:0`);
    expect(out).toContain('color:red');
    expect(out).toContain('margin:0');
    expectNothingRefused(out);
    // The comment inside url( is kept as the address it is: relative to the stylesheet, on its site.
    if (what.startsWith('a comment')) expect(out).toContain('url(https://site.example/*x*/ok.png)');
    else expect(out.replace(/color:red|margin:0|[;\s]/g, '')).toBe('');
  });

  it('keeps what loads from the site, absolute (quoted where it must be), and local references as they are', () => {
    expect(declarations('background:url( bg.png ) no-repeat,url("/i/a\\29 b.png");color:red !important')).toBe(
      'background:url(https://site.example/css/bg.png) no-repeat,url("https://site.example/i/a)b.png");color:red !important',
    );
    expect(declarations('background-image:image-set("a.png" 1x, url(b.png) 2x type("image/png"))')).toBe(
      'background-image:image-set("https://site.example/css/a.png" 1x, url(https://site.example/css/b.png) 2x type("image/png"))',
    );
    expect(declarations('filter:url(#blur);clip-path:url("#c")')).toBe('filter:url(#blur);clip-path:url("#c")');
    expect(declarations('background:url(data:image/svg+xml;utf8,<svg/>)')).toBe('background:url("data:image/svg+xml;utf8,\\3c svg/>")');
    expect(declarations('content:attr(data-label);width:calc(100% - var(--gap, 2px))')).toBe(
      'content:attr(data-label);width:calc(100% - var(--gap, 2px))',
    );
  });

  it('resolves @import and @font-face sources before judging them, and drops a refused one with its rule', () => {
    const css = sheet(
      `@import u\\72l(${L}/i.css); @im\\70ort "${L}/j.css"; @import url("data:text/css,a{}"); @import "theme.css" layer(base) screen;` +
        `@font-face{font-family:a;src:url(${L}/f.woff) format("woff"), local("A")}` +
        '@font-face{font-family:b;src:url(b.woff2) format("woff2")} a{color:red}',
    );
    expect(css).toBe(
      '@import "https://site.example/css/theme.css" layer(base) screen;@font-face{font-family:a;}' +
        '@font-face{font-family:b;src:url(https://site.example/css/b.woff2) format("woff2")} a{color:red}',
    );
  });

  it('cleans inside @media, nesting and @supports, and drops unknown at-rules', () => {
    expect(sheet(`@media (min-width:600px){.a{background:u\\rl(${L}/m)} .b{color:red}} @document url-prefix(){a{color:red}}`)).toBe(
      '@media (min-width:600px){.a{} .b{color:red}}',
    );
    expect(sheet(`.a{color:red; &:hover{background:url(${L}/h)} .c &{color:blue}}`)).toBe('.a{color:red; &:hover{} .c &{color:blue}}');
    expect(sheet(`@supports (background:url(${L}/s)){a{color:red}} @keyframes k{from{opacity:0}to{opacity:1}}`)).toBe(
      '@keyframes k{from{opacity:0}to{opacity:1}}',
    );
    expect(sheet('<!-- a{color:red} -->')).toBe('a{color:red}');
  });

  it('writes names, numbers and strings back so that they read as the same tokens', () => {
    expect(sheet('.a\\:hover\\<b, #\\31 23, #fff{color:#123}')).toBe('.a\\:hover\\3c b, #\\31 23, #fff{color:#123}');
    expect(declarations('width:1\\65 3px;margin:1e3px -.5em +2px;grid-area:1/2/3/4')).toBe(
      'width:1\\65 3px;margin:1e3px -.5em +2px;grid-area:1/2/3/4',
    );
    expect(sheet('a/**/b{c:d} .x{width:calc(1px/**/+/**/2px)}')).toBe('a/**/b{c:d} .x{width:calc(1px+/**/2px)}');
    expect(declarations('content:"</style><img src=x>"')).toBe('content:"\\3c /style>\\3c img src=x>"');
    expect(sheet('a{color:red')).toBe('a{color:red}');
  });

  it('drops CSS nested deeper than the cap whole, without deep recursion', () => {
    const deep = (n: number) => `a{width:${'calc('.repeat(n)}1px${')'.repeat(n)}}`;
    expect(sheet(deep(MAX_CSS_NESTING - 2))).not.toBe('');
    expect(sheet(deep(MAX_CSS_NESTING + 1))).toBe('');
    expect(sheet(deep(200_000))).toBe('');
  });

  it('cleans one property value (SVG presentation attributes)', () => {
    expect(cleanValue('url(#paint) red', SHEET, mayReach)).toBe('url(#paint) red');
    expect(cleanValue('url(cursor.png), pointer', SHEET, mayReach)).toBe('url(https://site.example/css/cursor.png), pointer');
    expect(cleanValue(`u\\72l(${L}/f#f)`, SHEET, mayReach)).toBeNull();
    expect(cleanValue('red;background:blue', SHEET, mayReach)).toBeNull();
  });

  it('leaves, for any input, nothing a browser would fetch from a refused address, and is its own fixed point', () => {
    const piece = fc.constantFrom(
      'url(', 'u\\72l(', 'u\\rl(', '\\75 rl(', 'URL(', 'image-set(', 'src(', 'attr(', 'calc(', '@import ', '@font-face',
      '(', ')', '{', '}', '[', ']', '"', "'", '\\', '\\29 ', '/*', '*/', ' ', '\n', ':', ';', ',', '<!--', '-->', '<',
      '!important', 'background', 'content', '--x', 'a', 'e', '-', '#', '.', '+', '5', '1x', L, '//127.0.0.1', 'ok.png',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const css = pieces.join('');
        for (const out of [sheet(css), declarations(css)]) expectNothingRefused(out);
        expect(sheet(sheet(css))).toBe(sheet(css));
        expect(declarations(declarations(css))).toBe(declarations(css));
      }),
      { numRuns: 3000 },
    );
  });
});
