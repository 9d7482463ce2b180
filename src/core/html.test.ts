import { describe, expect, it } from 'vitest';
import { escapeHtml, scriptJson } from './html';

describe('html', () => {
  it('escapeHtml leaves no markup and no quote that could end an attribute', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&`)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
  });

  it('scriptJson: no value can close the script element, and the text gives the same value back, as JSON and as script', () => {
    const value = { title: '</script><script>alert(1)</script>', note: '<!-- a\u2028b\u2029c -->', n: [1, null, true] };
    const text = scriptJson(value);
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(JSON.parse(text)).toEqual(value);
    expect(new Function(`return ${text};`)()).toEqual(value);
  });
});
