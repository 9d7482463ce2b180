import { describe, expect, it } from 'vitest';
import {
  VARIABLE_PATTERN as PLAYER_PATTERN,
  type TextTreeNode,
  collectVariables,
  fillText,
  fillTextNodes,
  normaliseName,
} from '../player/src/variables';
import { VARIABLE_PATTERN } from '../src/demos/story.schemas';

// A tiny stand-in for the DOM: fillTextNodes reads nodeType, nodeName, nodeValue and childNodes only.
const text = (value: string): TextTreeNode => ({ nodeType: 3, nodeName: '#text', nodeValue: value, childNodes: [] });
const element = (name: string, ...children: TextTreeNode[]): TextTreeNode => ({
  nodeType: 1,
  nodeName: name,
  nodeValue: null,
  childNodes: children,
});

describe('player variables', () => {
  it('uses the same pattern as the server contract', () => {
    expect(PLAYER_PATTERN.source).toBe(VARIABLE_PATTERN.source);
    expect(PLAYER_PATTERN.flags).toBe(VARIABLE_PATTERN.flags);
  });

  it('fills a value, else the fallback, else nothing', () => {
    const vars = { first_name: 'Dana', company: 'Acme' };
    expect(fillText('Hi {{first_name}}, welcome to {{company|your team}}!', vars)).toBe('Hi Dana, welcome to Acme!');
    expect(fillText('Welcome {{company|your team}}', {})).toBe('Welcome your team');
    expect(fillText('Welcome {{ company | your team }}.', {})).toBe('Welcome your team.');
    expect(fillText('Hi {{first_name}}!', {})).toBe('Hi !');
    expect(fillText('Hi {{first_name|}}!', {})).toBe('Hi !');
    // An empty value counts as absent, so the fallback shows.
    expect(fillText('{{company|your team}}', { company: '' })).toBe('your team');
  });

  it('leaves what is not a variable alone', () => {
    expect(fillText('{{Company}} {{1st}} {{ }} {company} {{a-b}}', { company: 'Acme' })).toBe(
      '{{Company}} {{1st}} {{ }} {company} {{a-b}}',
    );
    expect(fillText('no braces', { company: 'Acme' })).toBe('no braces');
  });

  it('looks names up as own properties only', () => {
    expect(fillText('{{constructor|x}} {{tostring|y}} {{hasownproperty}}', {})).toBe('x y ');
  });

  it('inserts values as they are: no pattern inside a value is filled again', () => {
    const vars = { company: '{{first_name}} $& $1 $$', first_name: 'Dana' };
    expect(fillText('{{company}}', vars)).toBe('{{first_name}} $& $1 $$');
  });

  it('fills text nodes only, leaving scripts and styles alone', () => {
    const vars = { company: '<img src=x onerror=alert(1)>' };
    const heading = text('Welcome {{company|team}}');
    const bold = text('{{company}}');
    const script = text('var c = "{{company}}"');
    const style = text('.x::after { content: "{{company}}" }');
    const root = element(
      '#document',
      element('H1', heading),
      element('P', element('B', bold)),
      element('SCRIPT', script),
      element('STYLE', style),
    );
    expect(fillTextNodes(root, vars)).toBe(2);
    expect(heading.nodeValue).toBe('Welcome <img src=x onerror=alert(1)>');
    expect(bold.nodeValue).toBe('<img src=x onerror=alert(1)>');
    expect(script.nodeValue).toBe('var c = "{{company}}"');
    expect(style.nodeValue).toBe('.x::after { content: "{{company}}" }');
  });

  it('refills from the original text when the values change', () => {
    const node = text('Hi {{first_name|there}}');
    const root = element('DIV', node);
    fillTextNodes(root, {});
    expect(node.nodeValue).toBe('Hi there');
    fillTextNodes(root, { first_name: 'Dana' });
    expect(node.nodeValue).toBe('Hi Dana');
    fillTextNodes(root, { first_name: 'Sam' });
    expect(node.nodeValue).toBe('Hi Sam');
    // Text someone else wrote since is the new template.
    node.nodeValue = 'Bye {{first_name}}';
    fillTextNodes(root, { first_name: 'Lee' });
    expect(node.nodeValue).toBe('Bye Lee');
  });

  it('normalises names', () => {
    expect(normaliseName('First-Name')).toBe('first_name');
    expect(normaliseName(' company name ')).toBe('company_name');
    expect(normaliseName('utm.source')).toBe('utm_source');
    expect(normaliseName('1st')).toBeNull();
    expect(normaliseName('__proto__')).toBeNull();
    expect(normaliseName('')).toBeNull();
    expect(normaliseName('a'.repeat(41))).toBeNull();
  });

  it('merges link < URL parameters < form values', () => {
    const vars = collectVariables({
      link: { company: 'Acme', first_name: 'Dana', role: 'CFO' },
      url: '?company=Globex&First-Name=%20Sam%20&empty=&role=',
      values: { first_name: 'Lee', consent: true, email: ' lee@example.com ' },
    });
    expect(vars).toEqual({ company: 'Globex', first_name: 'Lee', role: 'CFO', email: 'lee@example.com' });
    expect(collectVariables({ url: new URLSearchParams('company=Initech') })).toEqual({ company: 'Initech' });
    expect(collectVariables({ url: { company: 'Umbrella' } })).toEqual({ company: 'Umbrella' });
    expect(collectVariables({})).toEqual({});
    expect(collectVariables({ link: null, url: null, values: null })).toEqual({});
  });

  it('caps values and the number of variables per source', () => {
    const long = collectVariables({ url: `?company=${'x'.repeat(500)}` });
    expect(long.company).toHaveLength(200);
    const many = new URLSearchParams();
    for (let i = 0; i < 80; i++) many.set(`v${i}`, String(i));
    expect(Object.keys(collectVariables({ url: many }))).toHaveLength(50);
  });

  it('keeps values as text whatever they contain', () => {
    const payloads = ['<img src=x onerror=alert(1)>', '"><script>alert(1)</script>', '</script><script>alert(1)</script>'];
    for (const payload of payloads) {
      const vars = collectVariables({ url: `?company=${encodeURIComponent(payload)}` });
      expect(vars.company).toBe(payload);
      expect(fillText('{{company}}', vars)).toBe(payload);
    }
  });
});
