/**
 * What never leaves the browser. The recorder blurs these elements in the live page while recording (so
 * screenshots show them blurred), and the snapshot code strips them from every DOM snapshot before it is
 * sent. Both read the rules from here, so a field is never blurred on screen yet readable in the HTML.
 *
 * Pure DOM: no `chrome.*`, usable in content scripts, the popup and tests alike.
 */

import { BLUR_ATTRIBUTE, REDACT_ATTRIBUTE, SENSITIVE_AUTOCOMPLETE_TOKENS } from '../../../src/core/sensitive-fields';

export { BLUR_ATTRIBUTE, REDACT_ATTRIBUTE, SENSITIVE_AUTOCOMPLETE_TOKENS };

/** What redacted text becomes: one bullet per character, so the layout keeps its shape. */
export const MASK_CHARACTER = '•';

const SENSITIVE_TOKENS = new Set(SENSITIVE_AUTOCOMPLETE_TOKENS);
const REDACTED_SELECTOR = `[${REDACT_ATTRIBUTE}], [${BLUR_ATTRIBUTE}]`;

/**
 * A form field whose value must never be recorded: any password input (also one a "show password" button
 * has not yet switched to text), and inputs and textareas whose autocomplete names a secret or card field.
 * Selects too: payment forms often pick the expiry month and year from a `<select autocomplete=cc-exp-month>`.
 * The attribute may carry section and billing/shipping tokens before the field name
 * ("section-pay billing cc-number"), so it is read token by token, case-insensitively.
 */
export function isSensitiveField(el: Element): boolean {
  const tag = el.localName;
  if (tag !== 'input' && tag !== 'textarea' && tag !== 'select') return false;
  if (tag === 'input' && (el.getAttribute('type') ?? '').trim().toLowerCase() === 'password') return true;
  const autocomplete = el.getAttribute('autocomplete');
  if (!autocomplete) return false;
  return autocomplete
    .toLowerCase()
    .split(/\s+/)
    .some((token) => SENSITIVE_TOKENS.has(token));
}

/**
 * The element, or an ancestor, is marked redact or blur. Crosses shadow-root boundaries upwards, so an
 * element inside a web component under a marked ancestor counts too.
 */
export function isRedacted(el: Element): boolean {
  let current: Element | null = el;
  while (current) {
    if (current.closest(REDACTED_SELECTOR)) return true;
    // Not instanceof ShadowRoot: an element of a same-origin frame belongs to the frame's window.
    const root = current.getRootNode() as Node & { host?: Element };
    current = root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && root.host ? root.host : null;
  }
  return false;
}

/** The redaction root: the outermost marked element of each marked subtree of `root`, in document order. */
export function redactedRoots(root: ParentNode): Element[] {
  return [...root.querySelectorAll(REDACTED_SELECTOR)].filter((el) => !el.parentElement?.closest(REDACTED_SELECTOR));
}

/** Text of the same length with every non-space character masked, so lines still wrap where they did. */
export function maskText(text: string): string {
  return text.replace(/\S/gu, MASK_CHARACTER);
}

/** The selector list matching sensitive fields, built from the same token list as isSensitiveField. */
export function sensitiveFieldSelector(): string {
  const autocomplete = SENSITIVE_AUTOCOMPLETE_TOKENS.flatMap((token) =>
    ['input', 'textarea', 'select'].map((tag) => `${tag}[autocomplete~="${token}" i]`),
  );
  return ['input[type="password" i]', ...autocomplete].join(',\n');
}

/** How strongly marked content is blurred on screen: enough that text of any size cannot be read. */
export const REDACTION_BLUR = '6px';

/**
 * Injected into the live page while recording: sensitive fields and marked elements are blurred, so the
 * screenshots taken while recording never show them. `!important` because the page's own filters must not
 * undo it; nested marked elements blur twice, which does no harm.
 */
export const REDACTION_CSS = `${sensitiveFieldSelector()},
${REDACTED_SELECTOR} {
  filter: blur(${REDACTION_BLUR}) !important;
}
`;
