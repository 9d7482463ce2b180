import { type Brand, fontStack } from '../../src/workspaces/branding';
import { h, safeUrl } from './dom';

export type { Brand };

const DARK = '#101828';
const luminance = (hex: string) => {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
};
const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** White or dark text, whichever reads better on `hex` (WCAG contrast ratio). */
export function textOn(hex: string): string {
  const l = luminance(hex);
  return ratio(l, 1) >= ratio(l, luminance(DARK)) ? '#ffffff' : DARK;
}

/**
 * The theme colour as buttons and the cover wear it: itself when white or dark text reads on it at 4.5:1
 * (WCAG AA), else darkened just enough for white text to (mid-tones where neither quite does).
 */
export function readableAccent(hex: string): string {
  let colour = hex;
  for (let dark = 0; dark < 1 && Math.max(ratio(luminance(colour), 1), ratio(luminance(colour), luminance(DARK))) < 4.5; dark += 0.05) {
    colour = `#${[1, 3, 5].map((i) => Math.round(Number.parseInt(hex.slice(i, i + 2), 16) * (1 - dark - 0.05)).toString(16).padStart(2, '0')).join('')}`;
  }
  return colour;
}

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
    const accent = readableAccent(brand.color);
    root.style.setProperty('--ds-accent', accent);
    root.style.setProperty('--ds-on-accent', textOn(accent));
  }
  root.style.fontFamily = fontStack(brand.font);
}

/** The workspace's logo, named by the workspace for assistive tech; null without one. */
export function brandLogo(brand: Brand | null, className: string): HTMLElement | null {
  // data:image/… is an offline file's own copy of the logo (static-source.ts).
  const src = brand?.logo_url?.startsWith('data:image/') ? brand.logo_url : brand?.logo_url ? safeUrl(brand.logo_url) : null;
  if (!brand || !src) return null;
  return h('img', { class: className, src, alt: brand.name, decoding: 'async' });
}

/** "Title · Workspace" for the window title. */
export const pageTitle = (title: string, brand: Brand | null) => `${title} · ${brand?.name || 'Demoshare'}`;
