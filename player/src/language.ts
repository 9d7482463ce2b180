// Which language the viewer reads: the page's ?lang= first, then the browser's languages; the server picks among the demo's.

/**
 * The viewer's languages in order of preference, as the `lang` query of GET /v1/viewer/:token/demo: the
 * page's own `?lang=` (a link made for French readers: `…/s/<token>?lang=fr`), then `navigator.languages`.
 * The server serves the first the demo has reviewed, or the original (docs/translation.md).
 *
 * @example
 * // On …/s/abc?lang=fr in a browser set to German, then English:
 * languageQuery(); // '?lang=fr%2Cde-DE%2Cen'
 */
export function languageQuery(search = location.search, browser: readonly string[] = navigator.languages ?? [navigator.language]): string {
  const asked = new URLSearchParams(search).get('lang');
  const list = [...(asked ? asked.split(',') : []), ...browser]
    .map((l) => l.trim())
    .filter((l, i, all) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(l) && all.indexOf(l) === i)
    .slice(0, 10);
  return list.length > 0 ? `?lang=${encodeURIComponent(list.join(','))}` : '';
}
