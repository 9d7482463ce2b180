import { describe, expect, it } from 'vitest';
import { escapeMarkdown, toHtml, toMarkdown } from './guide-text';

describe('rich text in a guide', () => {
  it('turns the sanitiser’s HTML into Markdown: paragraphs, emphasis, links, nested lists, breaks', () => {
    const html =
      '<p>Open <b>Settings</b> and <i>then</i> <a href="https://a.example/x_(1)">the help</a>.</p>' +
      '<ol><li>First<ul><li>inner <strong>one</strong></li></ul></li><li>Second</li></ol><p>line<br>break</p>';
    expect(toMarkdown({ html, text: '' })).toBe(
      'Open **Settings** and *then* [the help](https://a.example/x_%281%29).\n\n1. First\n   - inner **one**\n2. Second\n\nline  \nbreak',
    );
  });

  it('fills variables with their fallback, or nothing, and tidies the space left', () => {
    expect(toMarkdown({ html: '<p>Hi {{name}}, welcome to <b>{{company|your team}}</b>!</p>', text: '' })).toBe('Hi, welcome to **your team**!');
    expect(toMarkdown({ html: null, text: 'Hi {{ name }} !\nNext line' })).toBe('Hi!  \nNext line');
  });

  it('escapes what Markdown would read as syntax, and HTML keeps only the allow-list', () => {
    expect(escapeMarkdown('2*3 = 6 [x] <b>')).toBe('2\\*3 = 6 \\[x\\] \\<b\\>');
    expect(escapeMarkdown('# not a heading\n1. not a list')).toBe('\\# not a heading\n1\\. not a list');
    expect(toHtml({ html: '<p onclick="x()">a <script>b</script><a href="javascript:x()">c</a> &lt;d&gt;</p>', text: '' })).toBe('<p>a c &#60;d&#62;</p>');
  });
});
