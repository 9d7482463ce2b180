import { preloadPath } from './routes';

/**
 * Preloads the pages of a link of this app as soon as the pointer is over it or it has focus: the chunk is
 * usually there by the click. One listener for the whole document, so no link needs to know about chunks.
 */
export function prefetchLinksOnIntent() {
  const onIntent = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    preloadPath(link.pathname);
  };
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
}
