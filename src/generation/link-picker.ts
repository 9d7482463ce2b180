// Which same-origin pages a generation visits after the first, ranked by how much they tell of a product (pricing, features, sign-up).
import type { CapturedPage } from './generation.types';

const SCORES: Array<[RegExp, number]> = [
  [/pric|plans?\b/i, 6],
  [/feature|product|tour|how[- ]it[- ]works|solutions?/i, 5],
  [/sign[- ]?up|register|get[- ]started|trial|start/i, 5],
  [/demo|customers?|use[- ]cases?|integrations?/i, 2],
  [/about|docs?|guide/i, 1],
  [/log[- ]?in|sign[- ]?in|log[- ]?out|blog|careers|jobs|legal|privacy|terms|cookie|press|status/i, -4],
];
const FILES = /\.(pdf|zip|gz|dmg|exe|msi|png|jpe?g|gif|webp|svg|mp4|mp3|xml|json|rss|txt|csv)$/i;

/**
 * Which further pages to capture: same origin only (scheme, host and port), never the page itself,
 * never files, best first: pricing, features and sign-up pages, navigation links before others.
 */
export function pickLinks(page: CapturedPage, already: Iterable<string>, limit: number): string[] {
  if (limit <= 0) return [];
  const origin = new URL(page.url).origin;
  const taken = new Set([...already].map(pageKey));
  const scored = new Map<string, { url: string; score: number }>();
  (page.links ?? []).forEach((link, index) => {
    let url: URL;
    try {
      url = new URL(link.href);
    } catch {
      return;
    }
    if (url.origin !== origin || FILES.test(url.pathname)) return;
    const key = pageKey(url.toString());
    if (taken.has(key)) return;
    const words = `${link.text} ${url.pathname}`;
    const score = SCORES.reduce((sum, [pattern, points]) => sum + (pattern.test(words) ? points : 0), 0) + (link.inNav ? 2 : 0);
    // Earlier links win ties: they are usually the ones the site puts first.
    const value = score - index / 1000;
    const known = scored.get(key);
    if (!known || known.score < value) scored.set(key, { url: withoutHash(url), score: value });
  });
  return [...scored.values()]
    .filter(({ score }) => score > -1)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ url }) => url);
}

/** Pages that differ only by query or fragment (?plan=pro, #faq) are one page for a tour. */
export function pageKey(url: string): string {
  const parsed = new URL(url);
  // /pricing, /pricing/ and /pricing/index.html are one page on every common server.
  const path = parsed.pathname.replace(/\/index\.html?$/, '/').replace(/(.)\/+$/, '$1');
  return `${parsed.origin}${path}`;
}

function withoutHash(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.toString();
}
