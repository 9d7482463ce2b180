import { describe, expect, it } from 'vitest';
import { richTextField, sanitizeRichText } from './rich-text';

describe('sanitizeRichText', () => {
  it('keeps the allowed tags without their attributes', () => {
    expect(sanitizeRichText('<p class="x"><b id="y">Bold</b>, <strong>strong</strong>, <i>i</i>, <em>em</em><br>next</p>').html).toBe(
      '<p><b>Bold</b>, <strong>strong</strong>, <i>i</i>, <em>em</em><br>next</p>',
    );
    expect(sanitizeRichText('<ol><li>One</li></ol><ul><li>Two</li></ul>').html).toBe('<ol><li>One</li></ol><ul><li>Two</li></ul>');
  });

  it('forces target and rel on safe links and unwraps the others', () => {
    expect(sanitizeRichText('<a href="https://x.example/a?b=1&amp;c=2" target="_self">x</a>').html).toBe(
      '<a href="https://x.example/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    for (const href of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'data:text/html,<script>', 'vbscript:x', '//evil.example', '/relative', '']) {
      expect(sanitizeRichText(`<a href="${href}">x</a>`).html, href).toBe('x');
    }
  });

  it('drops scripts, styles, event handlers, comments and unknown elements (keeping their text)', () => {
    const { html, text } = sanitizeRichText(
      '<script>alert(1)</script><style>p{}</style><!-- c --><img src=x onerror=alert(1)><div onclick="x()">Hi <span>there</span></div><svg><script>1</script></svg><iframe src="https://x"></iframe>',
    );
    expect(html).toBe('Hi there<br>');
    expect(text).toBe('Hi there');
  });

  it('escapes text so that entities cannot become markup', () => {
    const { html, text } = sanitizeRichText('&lt;script&gt;alert(1)&lt;/script&gt; <b>&amp;</b>');
    expect(html).toBe('&lt;script&gt;alert(1)&lt;/script&gt; <b>&amp;</b>');
    expect(text).toBe('<script>alert(1)</script> &');
  });

  it('gives the plain text with lines for paragraphs and items', () => {
    expect(sanitizeRichText('<p>One  two</p><p>Three</p><ul><li>a</li><li>b</li></ul>').text).toBe('One two\nThree\n• a\n• b');
  });

  it('answers null HTML for input with nothing left, and cuts the text', () => {
    expect(richTextField('<script>x</script>', 10)).toEqual({ html: null, text: '' });
    expect(richTextField('<b>abcdef</b>', 3)).toEqual({ html: '<b>abcdef</b>', text: 'abc' });
  });
});
