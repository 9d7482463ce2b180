import { type Document, type Element, isTag } from 'domhandler';
import { forEachElement } from './dom-walk';

const PLAIN_ID = /^[A-Za-z][\w-]*$/;

/**
 * Stable CSS selectors for elements of one snapshot: `#id` where the id is unique and plain, otherwise a
 * `tag:nth-of-type(n)` path up to the nearest such id (or the root). Computed on the sanitised tree, so
 * a selector finds the element again in the snapshot the player shows.
 */
export function createSelectorFinder(doc: Document): (el: Element) => string {
  const idCounts = new Map<string, number>();
  forEachElement(doc, (el) => {
    const id = el.attribs.id;
    if (id) idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
    return true;
  });
  const uniqueId = (el: Element) => {
    const id = el.attribs.id;
    return id && PLAIN_ID.test(id) && idCounts.get(id) === 1 ? id : null;
  };
  const cache = new Map<Element, string>();

  return function selectorFor(el: Element): string {
    const cached = cache.get(el);
    if (cached) return cached;
    const parts: string[] = [];
    let current: Element | null = el;
    while (current && current.name !== 'html') {
      const id = uniqueId(current);
      if (id) {
        parts.unshift(`#${id}`);
        break;
      }
      parts.unshift(step(current));
      current = current.parent && isTag(current.parent) ? current.parent : null;
    }
    const selector = parts.join(' > ');
    cache.set(el, selector);
    return selector;
  };
}

function step(el: Element): string {
  const siblings = (el.parent?.children ?? []).filter((c): c is Element => isTag(c) && c.name === el.name);
  if (siblings.length <= 1 || el.name === 'body' || el.name === 'head') return el.name;
  return `${el.name}:nth-of-type(${siblings.indexOf(el) + 1})`;
}
