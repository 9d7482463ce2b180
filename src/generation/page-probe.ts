// Scripts run inside the captured page, kept as source text: animations finished, elements stamped and measured, the page scrolled.
import { LAYOUT_ATTRIBUTE } from './snapshot';

/** Per element: [number, x, y, width, height, visible, font size]; page pixels. */
export interface StampResult {
  items: Array<[number, number, number, number, number, 0 | 1, number]>;
  height: number;
}

/**
 * In-page source: entrance animations and transitions jump to their end, looping ones stop at their start.
 * Run when motion is frozen and again after each scroll, which may start new ones.
 */
export const FINISH_ANIMATIONS = 'for (const a of document.getAnimations()) { try { a.finish(); } catch { a.currentTime = 0; a.pause(); } }';

/** How long scroll-driven scripts (reveal-on-scroll libraries throttle their handlers to ~100 ms) get to react. */
const SCROLL_SETTLE_MS = 150;
/** How long entrance effects delayed after load (AOS's data-aos-delay, staggered reveals) get on the first screen. */
const FIRST_SCREEN_WAIT_MS = 350;

/**
 * Runs in the captured page at rest (motion frozen): numbers every element of the body (`data-ds-n`,
 * read back from the serialised DOM) and records its box in page coordinates and whether a person can
 * see it, counting the opacity and visibility of its ancestors. Elements that sites reveal only when
 * scrolled into view (AOS, WOW, IntersectionObserver "reveal" classes) are transparent at the top of
 * the page: when there are any, the page is scrolled through once and each counts as seen, with its box
 * where it was shown. Kept as source text so that no compiler helper leaks into the page.
 */
export const STAMP_SCRIPT = `(async () => {
  const settle = () => new Promise((done) => setTimeout(() => requestAnimationFrame(() => done()), ${SCROLL_SETTLE_MS}));
  const finish = () => { ${FINISH_ANIMATIONS} };
  const shown = (el, r) => r.width > 2 && r.height > 2 &&
    el.checkVisibility({ opacityProperty: true, checkOpacity: true, visibilityProperty: true, checkVisibilityCSS: true });
  const all = document.body ? [...document.body.querySelectorAll('*')] : [];
  const items = [];
  const measure = (el, i) => {
    const r = el.getBoundingClientRect();
    const sy = window.scrollY;
    items[i] = [i, Math.round(r.left + window.scrollX), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height),
      shown(el, r) && r.right > 0 && r.bottom + sy > 0 ? 1 : 0, Math.round(parseFloat(getComputedStyle(el).fontSize) || 0)];
    return r;
  };
  all.forEach((el, i) => { el.setAttribute('${LAYOUT_ATTRIBUTE}', String(i)); measure(el, i); });
  const height = () => Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0);
  // Waiting to be revealed: transparent blocks (small ones, such as copy buttons shown on hover, are not
  // worth waiting for). Those on the first screen may be waiting for a delayed entrance: one short wait.
  const view = window.innerHeight;
  let hidden = all.map((el, i) => [el, i]).filter(([el, i]) => items[i][5] === 0 && items[i][3] * items[i][4] >= 5000 &&
    el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true }));
  if (hidden.some(([, i]) => items[i][2] < view * 0.9)) {
    await new Promise((done) => setTimeout(done, ${FIRST_SCREEN_WAIT_MS}));
    await settle();
    finish();
    hidden = hidden.filter(([el, i]) => { measure(el, i); return items[i][5] === 0; });
  }
  hidden = hidden.filter(([, i]) => items[i][2] >= view * 0.9);
  if (hidden.length > 0 && hidden.length < 2000) {
    const last = Math.max(...hidden.map(([, i]) => items[i][2]));
    for (let top = view * 0.75; top < height() && top - view < last && hidden.length > 0; top += view * 0.75) {
      window.scrollTo(0, top);
      await settle();
      finish();
      hidden = hidden.filter(([el, i]) => {
        const r = el.getBoundingClientRect();
        if (r.bottom <= 0 || r.top >= view) return true;
        measure(el, i);
        return items[i][5] === 0;
      });
    }
    window.scrollTo(0, 0);
    await settle();
    finish();
  }
  return { items, height: height() };
})()`;

/**
 * Scrolls the captured page so the element stamped `n` shows near the top of the screen (or as high as the
 * page allows), lets scroll-driven scripts react, and returns where the page stopped and the element's box there.
 */
export function scrollToScript(n: number, top: number): string {
  return `(async () => {
    window.scrollTo(0, ${Math.max(0, Math.round(top))});
    await new Promise((done) => setTimeout(() => requestAnimationFrame(() => done()), ${SCROLL_SETTLE_MS}));
    ${FINISH_ANIMATIONS}
    const el = document.querySelector('[${LAYOUT_ATTRIBUTE}="${n}"]');
    const r = el ? el.getBoundingClientRect() : null;
    const sy = window.scrollY;
    return { top: sy, box: r && r.width > 0 && r.height > 0 ? { x: Math.round(r.left + window.scrollX), y: Math.round(r.top + sy), width: Math.round(r.width), height: Math.round(r.height) } : null };
  })()`;
}
