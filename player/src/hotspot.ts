import { h, safeUrl } from './dom';
import type { Hotspot } from './wire';

/**
 * A hotspot over the picture, placed by its fractions so it stays on the same spot at any width. A `url`
 * action is a real link; the others are buttons. `point` shows its tooltip; `follow` acts on a click.
 */
export function hotspotElement(spot: Hotspot, point: () => void, follow: () => void): HTMLElement {
  const name = spot.label || spot.tooltip || (spot.action.type === 'url' ? 'Open link' : 'Continue');
  const style = `left:${spot.x * 100}%;top:${spot.y * 100}%;width:${spot.width * 100}%;height:${spot.height * 100}%`;
  const common = { class: 'ds-hotspot', style, 'aria-label': name, 'data-hotspot-id': spot.id, onmouseenter: point, onfocus: point };
  const url = spot.action.type === 'url' ? safeUrl(spot.action.target) : null;
  if (url) {
    // A real link: it opens in a new tab without a popup blocker and says where it goes.
    return h('a', { ...common, href: url, target: '_blank', rel: 'noopener noreferrer', onclick: follow });
  }
  return h('button', { ...common, type: 'button', onclick: follow });
}

/** Moves a hotspot onto the box of the element it marks (snapshot steps). */
export function moveHotspot(el: HTMLElement, box: { x: number; y: number; width: number; height: number }) {
  el.style.left = `${box.x * 100}%`;
  el.style.top = `${box.y * 100}%`;
  el.style.width = `${box.width * 100}%`;
  el.style.height = `${box.height * 100}%`;
}
