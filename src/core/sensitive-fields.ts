/**
 * What a recording must never keep, named once for both sides: the recorder extension applies it in the
 * browser (extension/src/shared/privacy.ts) and the server again to every uploaded snapshot
 * (src/demos/private-fields.ts). No imports: the extension bundles this file.
 */

/**
 * Set by a site's developers on anything whose content must not be recorded.
 *
 * @example
 * ```ts
 * import { REDACT_ATTRIBUTE } from './sensitive-fields';
 *
 * const markup = `<span ${REDACT_ATTRIBUTE}>4242 4242 4242 4242</span>`; // never recorded
 * ```
 */
export const REDACT_ATTRIBUTE = 'data-demoshare-redact';
/**
 * Set by the recorder when the user marks an element to blur while recording; treated like redact.
 *
 * @example
 * ```ts
 * import { BLUR_ATTRIBUTE, REDACT_ATTRIBUTE } from './sensitive-fields';
 *
 * const hidden = `[${REDACT_ATTRIBUTE}], [${BLUR_ATTRIBUTE}]`; // one selector for both
 * ```
 */
export const BLUR_ATTRIBUTE = 'data-demoshare-blur';

/**
 * `autocomplete` tokens (WHATWG autofill field names) whose values are secrets or payment data.
 *
 * The cardholder name (`cc-name` and its parts) is included: it is a real person's name printed on the
 * card and typed next to the number, and no demo needs it. Billing names and addresses (`name`,
 * `street-address`, …) are not: sign-up and settings demos show them on purpose, and a user who minds
 * marks them with the blur tool.
 *
 * @example
 * ```ts
 * import { SENSITIVE_AUTOCOMPLETE_TOKENS } from './sensitive-fields';
 *
 * const secret = (input: { autocomplete: string }) =>
 *   input.autocomplete.split(/\s+/).some((token) => SENSITIVE_AUTOCOMPLETE_TOKENS.includes(token));
 * ```
 */
export const SENSITIVE_AUTOCOMPLETE_TOKENS: readonly string[] = [
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
];
