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

/**
 * JSON text made safe inside a `<script type="application/json">` element: `<` escaped so that no value can
 * close the element (`</script>`, `<!--`), and U+2028/U+2029 too, so that the text stays valid wherever it
 * is read as script. `JSON.parse` of the element's text gives the same value back.
 *
 * @example
 * ```ts
 * import { scriptJsonText } from './html';
 *
 * scriptJsonText(JSON.stringify({ title: '</script>' })); // '{"title":"\\u003c/script>"}'
 * ```
 */
export const scriptJsonText = (json: string) =>
  json.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** A value as script-safe JSON text (scriptJsonText of its JSON.stringify). */
export const scriptJson = (value: unknown) => scriptJsonText(JSON.stringify(value));

/**
 * A public page up to its body (a share link's player, a hub): the document's head with the page's own tags
 * (`head`: title, link-preview tags), its configuration as script-safe JSON in the element `configId`, and
 * `assets` (preloads, stylesheet, module script), which the browser starts loading before the body arrives.
 * Not indexed by search engines: a share link is for the people it is sent to.
 *
 * @example
 * ```ts
 * import { publicPageHead } from './html';
 *
 * const page = `${publicPageHead({ head: '<title>Tour</title>', configId: 'demoshare-hub-config', config: { token }, assets: '' })}<div id="hub"></div></body></html>`;
 * ```
 */
export function publicPageHead(page: { head: string; configId: string; config: unknown; assets: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
${page.head}
<script id="${page.configId}" type="application/json">${scriptJson(page.config)}</script>
${page.assets}</head><body>`;
}
