import { h, safeUrl } from './dom';
import type { Hotspot } from './wire';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A hotspot over the picture, placed by its fractions so it stays on the same spot at any width. A `url`
 * action is a real link; the others are buttons. `point` shows its tooltip; `follow` acts on a click.
 */
export function hotspotElement(spot: Hotspot, point: () => void, follow: () => void): HTMLElement {
  const name = spot.label || spot.tooltip || (spot.action.type === 'url' ? 'Open link' : 'Continue');
  // The ring is an element of its own (not a pseudo-element) so that its size can be capped by the room
  // the hotspot has inside the picture, and measured.
  const ring = h('span', { class: 'ds-ring', 'aria-hidden': 'true' });
  const common = { class: 'ds-hotspot', 'aria-label': name, 'data-hotspot-id': spot.id, onmouseenter: point, onfocus: point };
  const url = spot.action.type === 'url' ? safeUrl(spot.action.target) : null;
  // A real link: it opens in a new tab without a popup blocker and says where it goes.
  const el = url
    ? h('a', { ...common, href: url, target: '_blank', rel: 'noopener noreferrer', onclick: follow }, ring)
    : h('button', { ...common, type: 'button', onclick: follow }, ring);
  moveHotspot(el, spot);
  return el;
}

/**
 * Puts a hotspot on a box in fractions of the picture (its own, or the element it marks on snapshot steps).
 * The fractions also go to CSS, where the ring reads how far it may grow before leaving the picture.
 */
export function moveHotspot(el: HTMLElement, box: Box) {
  el.style.left = `${box.x * 100}%`;
  el.style.top = `${box.y * 100}%`;
  el.style.width = `${box.width * 100}%`;
  el.style.height = `${box.height * 100}%`;
  el.style.setProperty('--ds-x', String(box.x));
  el.style.setProperty('--ds-y', String(box.y));
  el.style.setProperty('--ds-w', String(box.width));
  el.style.setProperty('--ds-h', String(box.height));
}

/** The box a hotspot is on now, in fractions of the picture. */
export function hotspotBox(el: HTMLElement): Box {
  const read = (name: string) => Number(el.style.getPropertyValue(name)) || 0;
  return { x: read('--ds-x'), y: read('--ds-y'), width: read('--ds-w'), height: read('--ds-h') };
}
