import { isSensitiveField } from '../shared/privacy';

/** What a click lands on, as a person would name it: the button or link, not the icon inside it. */
const ACTIONABLE =
  'a[href], button, input, select, textarea, label, summary, option, [role="button"], [role="link"], [role="menuitem"], ' +
  '[role="tab"], [role="option"], [role="checkbox"], [role="radio"], [role="switch"], [role="treeitem"], [onclick], [tabindex]:not([tabindex="-1"])';

export function actionableTarget(el: Element): Element {
  return el.closest(ACTIONABLE) ?? el;
}

const TEXT_INPUT_TYPES = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number', 'date', 'datetime-local', 'month', 'time', 'week', '']);

/** Fields whose clicks are not steps of their own: typing into them is (one step, with its value). */
export function isTextEntry(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  if (el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(el.type.toLowerCase());
}

const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const clip = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** The element's accessible name, approximately: what a screen reader (and a reader of the demo) would call it. */
export function labelOf(el: Element): string {
  const aria = squash(el.getAttribute('aria-label'));
  if (aria) return clip(aria);
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = squash(labelledBy.split(/\s+/).map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' '));
    if (text) return clip(text);
  }
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
    const label = squash(el.labels?.[0]?.textContent);
    if (label) return clip(label);
    if (el instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(el.type)) return clip(squash(el.value));
    const hint = squash(el.getAttribute('placeholder') ?? el.getAttribute('title') ?? el.getAttribute('name'));
    if (hint) return clip(hint);
  }
  const text = squash((el as HTMLElement).innerText ?? el.textContent);
  if (text) return clip(text);
  const img = el.querySelector('img[alt], svg[aria-label], [title]');
  return clip(squash(img?.getAttribute('alt') ?? img?.getAttribute('aria-label') ?? img?.getAttribute('title') ?? el.getAttribute('title')));
}

/** Ids that a framework generates change between page loads; they make poor selectors. */
const GENERATED_ID = /\d{3,}|^[:_]|[:_]r\d|^(ember|react|radix|headlessui|mui)-/i;


/** A selector that finds the element in this page (and so in its snapshot): short where the page allows. */
export function selectorOf(el: Element): string | null {
  const doc = el.ownerDocument;
  const unique = (selector: string) => {
    try {
      return doc.querySelectorAll(selector).length === 1;
    } catch {
      return false;
    }
  };
  if (el.id && !GENERATED_ID.test(el.id) && unique(`#${CSS.escape(el.id)}`)) return `#${CSS.escape(el.id)}`;
  for (const attr of ['data-testid', 'data-test', 'data-cy', 'name', 'aria-label']) {
    const value = el.getAttribute(attr);
    const selector = value ? `${el.localName}[${attr}="${CSS.escape(value)}"]` : null;
    if (selector && unique(selector)) return selector;
  }
  const parts: string[] = [];
  let node: Element | null = el;
  while (node && node !== doc.documentElement && parts.length < 12) {
    if (node.id && !GENERATED_ID.test(node.id) && unique(`#${CSS.escape(node.id)}`)) {
      parts.unshift(`#${CSS.escape(node.id)}`);
      break;
    }
    const parent: Element | null = node.parentElement;
    const name = node.localName;
    const same = parent ? [...parent.children].filter((c) => c.localName === name) : [];
    parts.unshift(same.length > 1 ? `${name}:nth-of-type(${same.indexOf(node) + 1})` : name);
    node = parent;
  }
  const selector = parts.join(' > ');
  return unique(selector) ? selector : null;
}

const quote = (text: string) => `“${text}”`;

/** The draft text of a step; the editor (or the AI writer) can reword it. */
export function clickTitle(el: Element): string {
  const label = labelOf(el);
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
    // The click has not toggled it yet: the capture-phase handler runs first.
    const verb = el.type === 'radio' ? 'Choose' : el.checked ? 'Uncheck' : 'Check';
    return label ? `${verb} ${quote(label)}` : `${verb} this option`;
  }
  return label ? `Click ${quote(label)}` : 'Click here';
}

export function typeTitle(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): { title: string; value: string | null } {
  const label = labelOf(el);
  if (el instanceof HTMLSelectElement) {
    const option = clip(squash(el.selectedOptions[0]?.textContent), 40);
    return { title: label ? `Choose ${quote(option)} in ${label}` : `Choose ${quote(option)}`, value: option };
  }
  if (isSensitiveField(el)) {
    // The value never leaves the browser: not in the step, not in its text.
    return { title: label ? `Enter the ${label.toLowerCase()}` : 'Enter the secret value', value: null };
  }
  const value = el.value;
  const shown = clip(squash(value), 40);
  return { title: label ? `Type ${quote(shown)} in ${label}` : `Type ${quote(shown)}`, value };
}
