/**
 * Which elements a page's own stylesheets hide on a desktop screen, for the capture mode without a browser:
 * `.dropdown-menu { display: none }` hides the notification menu a visitor never sees open. Rules are read
 * with PostCSS; those inside `@media` apply when the query holds for a 1280 px screen; the cascade between
 * rules that hide and rules that show is decided by importance, specificity (css-what) and order.
 */
import { compile } from 'css-select';
import { parse as parseSelector, type Selector } from 'css-what';
import type { Document, Element } from 'domhandler';
import { textContent } from 'domutils';
import postcss, { type AtRule, type Container, type Rule } from 'postcss';
import { forEachElement } from './dom-walk';

const SCREEN_WIDTH = 1280;
const MAX_CSS_CHARS = 2 * 1024 * 1024;
/** States a visitor must act to reach (hovering, focusing, ticking): not how the page first looks. */
const INTERACTIVE = /:(hover|focus|focus-within|focus-visible|active|checked|target|visited|open)\b|::?[a-z-]*(before|after|placeholder|selection|marker|backdrop)/i;

interface DisplayRule {
  selector: string;
  /** The classes (`.x`), ids (`#x`) and tag the matched element itself must have. */
  subject: string[];
  hides: boolean;
  important: boolean;
  specificity: [number, number, number];
  order: number;
}

/** The elements the page's `<style>` rules hide (display: none or visibility: hidden), subtrees included. */
export function hiddenByStylesheets(doc: Document): Set<Element> {
  const css = styleText(doc);
  const hidden = new Set<Element>();
  if (!css) return hidden;
  let root: postcss.Root;
  try {
    root = postcss.parse(css);
  } catch {
    return hidden;
  }
  const rules: DisplayRule[] = [];
  collect(root, rules);
  if (!rules.some((r) => r.hides)) return hidden;

  const index = elementsByName(doc);
  const all = index.get('*') ?? [];
  const winner = new Map<Element, DisplayRule>();
  for (const rule of rules) {
    // Only the elements carrying the rarest class, id or tag the rule requires are tried: most of a
    // framework's rules name classes the page never uses and cost nothing.
    let candidates = all;
    for (const name of rule.subject) {
      const holders = index.get(name) ?? [];
      if (holders.length < candidates.length) candidates = holders;
    }
    if (candidates.length === 0) continue;
    let matches: (el: Element) => boolean;
    try {
      matches = compile(rule.selector) as unknown as (el: Element) => boolean;
    } catch {
      continue;
    }
    for (const el of candidates) {
      if (!matches(el)) continue;
      const current = winner.get(el);
      if (!current || outranks(rule, current)) winner.set(el, rule);
    }
  }
  for (const [el, rule] of winner) if (rule.hides) hidden.add(el);
  return hidden;
}

function styleText(doc: Document): string {
  let css = '';
  forEachElement(doc, (el) => {
    if (el.name === 'style' && appliesToScreen(el.attribs.media)) css += `${textContent(el)}\n`;
    return css.length < MAX_CSS_CHARS;
  });
  return css.slice(0, MAX_CSS_CHARS);
}

function collect(container: Container, rules: DisplayRule[]) {
  container.each((node) => {
    if (node.type === 'atrule') {
      const at = node as AtRule;
      const name = at.name.toLowerCase();
      if ((name === 'media' && appliesToScreen(at.params)) || name === 'supports' || name === 'layer' || name === 'container') collect(at, rules);
    } else if (node.type === 'rule') {
      const rule = node as Rule;
      let display: { hides: boolean; important: boolean } | undefined;
      // The rule's own declarations only (a nested rule, such as `&:hover`, is another state); the last wins.
      for (const decl of rule.nodes) {
        if (decl.type !== 'decl') continue;
        const prop = decl.prop.toLowerCase();
        const value = decl.value.trim().toLowerCase();
        if (prop === 'display') display = { hides: value === 'none', important: decl.important === true };
        else if (prop === 'visibility' && (value === 'hidden' || value === 'collapse')) display = { hides: true, important: decl.important === true };
      }
      if (!display) return;
      for (const selector of rule.selectors) {
        if (INTERACTIVE.test(selector)) continue;
        const parsed = parsedSelector(selector);
        if (!parsed) continue;
        rules.push({ selector, subject: subjectOf(parsed), ...display, specificity: specificityOf(parsed), order: rules.length });
      }
    }
  });
}

/** Whether a media query list holds for a desktop screen SCREEN_WIDTH px wide; what cannot be told does not. */
export function appliesToScreen(media: string | undefined): boolean {
  const list = media?.trim();
  if (!list) return true;
  return list.split(',').some((query) => {
    const q = query.trim().toLowerCase().replace(/^only\s+/, '');
    if (q.startsWith('not ')) return false;
    const parts = q.split(/\s+and\s+/);
    return parts.every((part) => {
      if (part === 'all' || part === 'screen') return true;
      const feature = /^\(\s*(min|max)-width\s*:\s*([\d.]+)(px|em|rem)\s*\)$/.exec(part);
      if (!feature) return false;
      const px = Number(feature[2]) * (feature[3] === 'px' ? 1 : 16);
      return feature[1] === 'min' ? SCREEN_WIDTH >= px : SCREEN_WIDTH <= px;
    });
  });
}

function parsedSelector(selector: string): Selector[] | null {
  try {
    return parseSelector(selector)[0] ?? null;
  } catch {
    return null;
  }
}

const COMBINATORS = new Set(['descendant', 'child', 'sibling', 'adjacent', 'parent', 'column-combinator']);

/** What the rightmost compound of a selector requires of the element itself. */
function subjectOf(tokens: Selector[]): string[] {
  let start = 0;
  tokens.forEach((t, i) => {
    if (COMBINATORS.has(t.type)) start = i + 1;
  });
  const names: string[] = [];
  for (const t of tokens.slice(start)) {
    if (t.type === 'tag') names.push(t.name.toLowerCase());
    else if (t.type === 'attribute' && t.name === 'class' && t.action === 'element') names.push(`.${t.value}`);
    else if (t.type === 'attribute' && t.name === 'id' && t.action === 'equals') names.push(`#${t.value}`);
  }
  return names;
}

/** Every element under `*`, and under each tag name, `.class` and `#id` it has. */
function elementsByName(doc: Document): Map<string, Element[]> {
  const index = new Map<string, Element[]>();
  const add = (name: string, el: Element) => {
    const list = index.get(name);
    if (list) list.push(el);
    else index.set(name, [el]);
  };
  forEachElement(doc, (el) => {
    add('*', el);
    add(el.name.toLowerCase(), el);
    if (el.attribs.id) add(`#${el.attribs.id}`, el);
    for (const c of new Set((el.attribs.class ?? '').split(/\s+/))) if (c) add(`.${c}`, el);
    return true;
  });
  return index;
}

function specificityOf(tokens: Selector[]): [number, number, number] {
  const total: [number, number, number] = [0, 0, 0];
  const count = (list: Selector[]) => {
    for (const t of list) {
      if (t.type === 'attribute' && t.name === 'id' && t.action === 'equals') total[0]++;
      else if (t.type === 'attribute' || t.type === 'pseudo') {
        // :not(), :is() and :has() count as their argument; :where() counts nothing.
        if (t.type === 'pseudo' && Array.isArray(t.data)) {
          if (t.name !== 'where') for (const inner of t.data.slice(0, 1)) count(inner);
        } else total[1]++;
      } else if (t.type === 'tag' || t.type === 'pseudo-element') total[2]++;
    }
  };
  count(tokens);
  return total;
}

function outranks(a: DisplayRule, b: DisplayRule): boolean {
  if (a.important !== b.important) return a.important;
  for (let i = 0; i < 3; i++) if (a.specificity[i] !== b.specificity[i]) return a.specificity[i]! > b.specificity[i]!;
  return a.order > b.order;
}
