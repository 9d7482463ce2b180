/**
 * Text made safe to place in HTML element content or a quoted attribute.
 *
 * @example
 * ```ts
 * import { escapeHtml } from './html';
 *
 * `<h1>${escapeHtml('<b>Tom & "Jerry"</b>')}</h1>`; // '<h1>&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;</h1>'
 * ```
 */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
