// What never leaves a recorded page snapshot: secret field values and elements the page marked for redaction.
import { type Document, type Element, isText } from 'domhandler';
import { removeElement } from 'domutils';
import { BLUR_ATTRIBUTE, REDACT_ATTRIBUTE, SENSITIVE_AUTOCOMPLETE_TOKENS } from '../core/sensitive-fields';
import { forEachElement } from '../generation/dom-walk';
import { redactElement } from './redact-snapshot';

/** The attributes that mark an element whose content must never be kept (src/core/sensitive-fields.ts). */
export const REDACT_MARKS = [REDACT_ATTRIBUTE, BLUR_ATTRIBUTE] as const;

/** Payment and secret fields, by their `autocomplete` tokens: the same list the extension applies. */
const SECRET_AUTOCOMPLETE = new Set(SENSITIVE_AUTOCOMPLETE_TOKENS);

/** A form control whose value is a secret: a password input, or one whose autocomplete says so. */
export function holdsSecret(el: Element): boolean {
  const name = el.name.toLowerCase();
  if (name !== 'input' && name !== 'textarea' && name !== 'select') return false;
  if (name === 'input' && (el.attribs.type ?? '').trim().toLowerCase() === 'password') return true;
  const tokens = (el.attribs.autocomplete ?? '').toLowerCase().split(/\s+/);
  return tokens.some((token) => SECRET_AUTOCOMPLETE.has(token));
}

/**
 * Takes out of a page snapshot what must never be stored, whatever its sender already did: the value of
 * password inputs and of controls whose `autocomplete` names a payment or secret field (an input's value
 * attribute, a textarea's text, a select's chosen option), and everything an element marked
 * `data-demoshare-redact` or `data-demoshare-blur` says, obscured as the editor's redactions are (`redactElement`: bullets).
 * Changes `doc` in place; run it before anything else reads or stores the document.
 *
 * @example
 * const doc = parseDocument('<input type="password" value="hunter2">');
 * removePrivateFields(doc); // <input type="password">
 */
export function removePrivateFields(doc: Document): void {
  forEachElement(doc, (el) => {
    if (REDACT_MARKS.some((mark) => el.attribs[mark] !== undefined)) {
      redactElement(el);
      // Everything inside is obscured already, secret controls included.
      return false;
    }
    if (holdsSecret(el)) {
      delete el.attribs.value;
      for (const child of [...el.children]) if (isText(child)) removeElement(child);
      forEachElement(el, (option) => {
        delete option.attribs.selected;
        return true;
      });
      return false;
    }
    return true;
  });
}
