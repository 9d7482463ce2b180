import { type Brand, fontStack, textOn } from '../../src/workspaces/branding';
import { h, safeUrl } from './dom';

export type { Brand };
export { textOn };

export const isColour = (value: unknown): value is string => typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value);

/** Reads a brand defensively: it comes from a page or a payload that an older server may have made. */
export function readBrand(raw: unknown): Brand | null {
  if (!raw || typeof raw !== 'object') return null;
  const b = raw as Record<string, unknown>;
  return {
    name: typeof b.name === 'string' ? b.name : '',
    color: isColour(b.color) ? b.color : null,
    font: (typeof b.font === 'string' ? b.font : 'system') as Brand['font'],
    logo_url: typeof b.logo_url === 'string' ? b.logo_url : null,
  };
}

/** The workspace's colour and font on everything under `root` (gates, player, end card). */
export function applyBrand(root: HTMLElement, brand: Brand | null) {
  if (!brand) return;
  if (brand.color) {
    root.style.setProperty('--ds-accent', brand.color);
    root.style.setProperty('--ds-on-accent', textOn(brand.color));
  }
  root.style.fontFamily = fontStack(brand.font);
}

/** The workspace's logo, named by the workspace for assistive tech; null without one. */
export function brandLogo(brand: Brand | null, className: string): HTMLElement | null {
  const src = brand?.logo_url ? safeUrl(brand.logo_url) : null;
  if (!brand || !src) return null;
  return h('img', { class: className, src, alt: brand.name, decoding: 'async' });
}

/** "Title · Workspace" for the window title. */
export const pageTitle = (title: string, brand: Brand | null) => `${title} · ${brand?.name || 'Demoshare'}`;
