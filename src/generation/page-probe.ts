import { LAYOUT_ATTRIBUTE } from './snapshot';

/** Per element: [number, x, y, width, height, visible]; page pixels. */
export interface StampResult {
  items: Array<[number, number, number, number, number, 0 | 1]>;
  height: number;
}

/**
 * Runs in the captured page: numbers every element of the body (`data-ds-n`, read back from the
 * serialised DOM) and records its box in page coordinates and whether a person can see it. Kept as
 * source text so that no compiler helper leaks into the page.
 */
export const STAMP_SCRIPT = `(() => {
  const items = [];
  const sx = window.scrollX, sy = window.scrollY;
  const all = document.body ? document.body.querySelectorAll('*') : [];
  let n = 0;
  for (const el of all) {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    const visible = r.width > 2 && r.height > 2 && r.right > 0 && r.bottom + sy > 0 &&
      s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05;
    el.setAttribute('${LAYOUT_ATTRIBUTE}', String(n));
    items.push([n, Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height), visible ? 1 : 0]);
    n++;
  }
  const height = Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0);
  return { items, height };
})()`;
