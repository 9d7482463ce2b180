import { type RefObject, useEffect } from 'react';

/**
 * Scrolls to `ref` when the address's fragment is `hash` (an e-mail's link to a card), once the card is
 * `ready` (it exists only once its page has loaded). The cards above it load their own data and can grow
 * after it is shown, pushing it down: it is kept in place while they settle, until the person scrolls or
 * presses a key themselves.
 *
 * @example
 * useHashAnchor(section, '#notifications', settings.status === 'ready');
 */
export function useHashAnchor(ref: RefObject<HTMLElement | null>, hash: string, ready: boolean) {
  useEffect(() => {
    const el = ref.current;
    if (!ready || !el || location.hash !== hash) return;
    const anchor = () => el.scrollIntoView({ block: 'start' });
    anchor();
    const observer = new ResizeObserver(anchor);
    if (el.parentElement) observer.observe(el.parentElement);
    const release = () => observer.disconnect();
    const settled = setTimeout(release, 5_000);
    const byHand = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;
    for (const kind of byHand) window.addEventListener(kind, release, { once: true, passive: true });
    return () => {
      release();
      clearTimeout(settled);
      for (const kind of byHand) window.removeEventListener(kind, release);
    };
  }, [ready, ref, hash]);
}
