/**
 * Selectors for elements of a snapshot shown in the editor's frame, made the way the server makes them for
 * hotspots (src/generation/css-path.ts): `#id` where the id is unique and plain, otherwise a
 * `tag:nth-of-type(n)` path up to the nearest such id. The server finds the element again with css-select
 * in the snapshot's HTML as stored; a table's tbody is skipped (the browser adds one the stored HTML may not
 * have), so the step across it is a descendant combinator.
 */
const PLAIN_ID = /^[A-Za-z][\w-]*$/;
const IMPLIED = new Set(['tbody', 'thead', 'tfoot']);

function uniqueId(el: Element): string | null {
  const id = el.getAttribute('id');
  if (!id || !PLAIN_ID.test(id)) return null;
  return el.ownerDocument.querySelectorAll(`[id="${id}"]`).length === 1 ? id : null;
}

function step(el: Element): string {
  const name = el.localName;
  const parent = el.parentElement;
  if (!parent || name === 'body' || name === 'head') return name;
  const same = [...parent.children].filter((c) => c.localName === name);
  return same.length <= 1 ? name : `${name}:nth-of-type(${same.indexOf(el) + 1})`;
}

export function selectorFor(el: Element): string {
  let selector = '';
  let joiner = '';
  let current: Element | null = el;
  while (current && current.localName !== 'html') {
    const id = uniqueId(current);
    if (id) return `#${id}${joiner}${selector}`;
    if (IMPLIED.has(current.localName) && current !== el) {
      joiner = ' ';
    } else {
      selector = `${step(current)}${joiner}${selector}`;
      joiner = ' > ';
    }
    current = current.parentElement;
  }
  return selector;
}

/** "p “Jane Cooper”": what the editor lists for a picked element (at most 24 characters of its words). */
export function describeElement(el: Element): string {
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const input = el.localName === 'input' ? (el as HTMLInputElement) : null;
  const value = input ? input.value || input.placeholder : '';
  const words = text || value || el.getAttribute('alt') || '';
  return words ? `${el.localName} “${words.length > 24 ? `${words.slice(0, 24)}…` : words}”` : el.localName;
}

const PICTURES = new Set(['img', 'input', 'textarea', 'select', 'svg', 'canvas', 'video', 'picture']);

/**
 * The elements a keyboard user steps through, in document order: those with words of their own or that
 * are a picture or a field, and whose box shows in the first `height` pixels of the page.
 */
export function pickableElements(doc: Document, width: number, height: number, limit = 600): Element[] {
  const out: Element[] = [];
  for (const el of doc.body?.querySelectorAll('*') ?? []) {
    if (out.length >= limit) break;
    const rect = el.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2 || rect.bottom <= 0 || rect.right <= 0 || rect.top >= height || rect.left >= width) continue;
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
    if (ownText || PICTURES.has(el.localName)) out.push(el);
  }
  return out;
}
