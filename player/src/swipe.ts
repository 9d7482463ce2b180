/** A swipe: mostly sideways, at least this far (CSS pixels), and quick. */
const DISTANCE = 50;
const LONGEST_MS = 1500;

/**
 * Touch screens: a swipe to the left is Next, to the right is Back. On the zoomed picture a swipe first
 * pans it; only a swipe that starts with the picture already at its edge in that direction changes the
 * step. Two fingers (pinch) and a page the viewer has pinch-zoomed never change it.
 */
export function bindSwipe(el: HTMLElement, frame: HTMLElement, nav: { next(): void; previous(): void }) {
  let start: { x: number; y: number; at: number; scroll: number; onFrame: boolean } | null = null;

  el.addEventListener(
    'touchstart',
    (event) => {
      const touch = event.touches[0];
      start =
        event.touches.length === 1 && touch
          ? { x: touch.clientX, y: touch.clientY, at: event.timeStamp, scroll: frame.scrollLeft, onFrame: frame.contains(event.target as Node) }
          : null;
    },
    { passive: true },
  );
  el.addEventListener(
    'touchmove',
    (event) => {
      if (event.touches.length > 1) start = null;
    },
    { passive: true },
  );
  el.addEventListener(
    'touchend',
    (event) => {
      const touch = event.changedTouches[0];
      const from = start;
      start = null;
      if (!from || !touch || event.touches.length > 0) return;
      if ((window.visualViewport?.scale ?? 1) > 1.01) return;
      const dx = touch.clientX - from.x;
      const dy = touch.clientY - from.y;
      if (Math.abs(dx) < DISTANCE || Math.abs(dx) < 2 * Math.abs(dy) || event.timeStamp - from.at > LONGEST_MS) return;
      if (from.onFrame) {
        const end = frame.scrollWidth - frame.clientWidth;
        const atEdge = dx < 0 ? from.scroll >= end - 1 : from.scroll <= 1;
        if (!atEdge || Math.abs(frame.scrollLeft - from.scroll) > 1) return;
      }
      if (dx < 0) nav.next();
      else nav.previous();
    },
    { passive: true },
  );
  el.addEventListener('touchcancel', () => {
    start = null;
  });
}
