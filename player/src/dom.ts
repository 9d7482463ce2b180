type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * A tiny element factory: the player is plain DOM to stay a few kilobytes, and this keeps the screens
 * readable. Attributes starting with `on` become listeners; `false`/`null` attributes are left out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') el.className = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/** Inline SVG icons (stroke-based, 20×20), so the bundle needs no icon font or image requests. */
export function icon(paths: string, size = 20): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of paths.split('|')) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '1.7');
    path.setAttribute('stroke-linecap', 'round');
    path.setAttribute('stroke-linejoin', 'round');
    svg.append(path);
  }
  return svg;
}

export const ICONS = {
  lock: 'M5.5 9V6.5a4.5 4.5 0 0 1 9 0V9|M4.5 9h11v8h-11z',
  user: 'M10 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z|M3.5 17.5c.8-3.2 3.4-5 6.5-5s5.7 1.8 6.5 5',
  clock: 'M10 17.5a7.5 7.5 0 1 0 0-15 7.5 7.5 0 0 0 0 15z|M10 6v4l2.5 2.5',
  search: 'M9 15.5a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13z|M13.7 13.7 17.5 17.5',
  eyeOff: 'M3 3l14 14|M8.2 4.7A8 8 0 0 1 10 4.5c4.5 0 7.5 5.5 7.5 5.5a13 13 0 0 1-2.1 2.7|M5.2 6.2C3.4 7.6 2.5 10 2.5 10s3 5.5 7.5 5.5c1.2 0 2.3-.3 3.2-.8',
  alert: 'M10 7v4|M10 14h.01|M8.6 3.2 2 15a1.6 1.6 0 0 0 1.4 2.4h13.2A1.6 1.6 0 0 0 18 15L11.4 3.2a1.6 1.6 0 0 0-2.8 0z',
  prev: 'M12 15l-5-5 5-5',
  next: 'M8 5l5 5-5 5',
  down: 'M5 8l5 5 5-5',
  replay: 'M3.5 10a6.5 6.5 0 1 0 2-4.7|M3.5 3.5v3.5H7',
  check: 'M4.5 10.5l3.5 3.5 7.5-8',
  external: 'M11 4h5v5|M16 4l-7 7|M14 11.5V16H4V6h4.5',
} as const;

export const clear = (el: Element) => el.replaceChildren();

/** Only http(s) targets are followed: a `javascript:` URL in a hotspot must never run on the viewer page. */
export function safeUrl(target: unknown): string | null {
  if (typeof target !== 'string') return null;
  try {
    const url = new URL(target, location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
