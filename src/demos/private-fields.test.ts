import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { removePrivateFields } from './private-fields';

const clean = (html: string) => {
  const doc = parseDocument(html);
  removePrivateFields(doc);
  return render(doc, { encodeEntities: 'utf8' });
};

describe('removePrivateFields', () => {
  it('drops the value of password inputs, whatever the case of their type', () => {
    expect(clean('<input type="password" name="pw" value="hunter2">')).toBe('<input type="password" name="pw">');
    expect(clean('<input type=" PassWord " value="hunter2">')).not.toContain('hunter2');
  });

  it.each([
    'cc-number', 'cc-csc', 'cc-exp', 'cc-exp-month', 'cc-exp-year', 'cc-name', 'cc-given-name', 'cc-additional-name', 'cc-family-name',
    'current-password', 'new-password', 'one-time-code',
  ])(
    'drops the value of a control with autocomplete %s (alone or among other tokens)',
    (token) => {
      expect(clean(`<input autocomplete="${token}" value="s3cret">`)).not.toContain('s3cret');
      expect(clean(`<input autocomplete="section-pay billing ${token}" value="s3cret">`)).not.toContain('s3cret');
      expect(clean(`<textarea autocomplete="${token}">s3cret</textarea>`)).not.toContain('s3cret');
      const select = clean(`<select autocomplete="${token}"><optgroup><option>01</option><option selected value="07">07</option></optgroup></select>`);
      expect(select).not.toContain('selected');
    },
  );

  it('keeps the values of other controls', () => {
    const html = '<input name="q" value="invoices"><input autocomplete="email" value="a@example.com"><textarea>note</textarea>';
    expect(clean(html)).toBe(html);
  });

  it.each(['data-demoshare-redact', 'data-demoshare-blur'])('obscures an element marked %s as a redaction does: bullets, no words in attributes', (mark) => {
    const out = clean(`<p>Hello <span ${mark} title="Jane Roe">Jane Roe <input value="x@y.z"></span></p>`);
    expect(out).not.toMatch(/Jane|Roe|x@y\.z/);
    expect(out).toContain('•••• •••');
    expect(out).toContain('Hello');
  });
});
