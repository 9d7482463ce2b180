import { type Document, type Element, isText } from 'domhandler';
import { removeElement } from 'domutils';
import { forEachElement } from '../generation/dom-walk';
import { redactElement } from './redact-snapshot';

/**
 * The attributes that mark an element whose content must never be kept: set by a site's developers
 * (`data-demoshare-redact`) or by the recorder's blur tool (`data-demoshare-blur`), as the extension's own
 * privacy rules have them (extension/src/shared/privacy.ts).
 */
export const REDACT_MARKS = ['data-demoshare-redact', 'data-demoshare-blur'] as const;

/**
 * `autocomplete` tokens (WHATWG autofill field names) of payment and secret fields. The cardholder's name
 * is one, as the extension has it: no demo needs the name printed on a card.
 */
const SECRET_AUTOCOMPLETE = new Set([
  'cc-number',
  'cc-csc',
  'cc-exp',
  'cc-exp-month',
  'cc-exp-year',
  'cc-name',
  'cc-given-name',
  'cc-additional-name',
  'cc-family-name',
  'current-password',
  'new-password',
  'one-time-code',
]);

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
