import { h } from './dom';

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, Math.max(min, max)));

export type Placement = 'below' | 'above' | 'right' | 'left' | 'sheet';

/** Text compared as people read it: case, spacing and a final full stop do not make it different. */
const same = (a: string, b: string) => {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').replace(/[.!]$/, '').toLowerCase();
  return norm(a) === norm(b);
};

/** The bubble that shows a hotspot's tooltip (or label) next to it. */
export function createTooltip() {
  // A div: a rich tooltip brings paragraphs and lists.
  const text = h('div', { class: 'ds-tip-text' });
  const arrow = h('span', { class: 'ds-tip-arrow', 'aria-hidden': 'true' });
  const el = h('div', { class: 'ds-tip', id: 'ds-tip', role: 'tooltip', hidden: true }, text, arrow);
  let anchor: HTMLElement | undefined;

  /**
   * Points at `anchors[i]`, which alone is described by the bubble; an empty message hides it. A message
   * that only repeats the hotspot's name is shown but not also given as its description, so screen
   * readers say it once.
   */
  function show(anchors: HTMLElement[], i: number, message: string, visible: boolean, rich: Node | null = null) {
    anchor = anchors[i];
    text.replaceChildren(rich ?? message);
    el.hidden = !message || !visible;
    anchors.forEach((b, j) => {
      if (j === i && message && !same(message, b.getAttribute('aria-label') ?? '')) b.setAttribute('aria-describedby', 'ds-tip');
      else b.removeAttribute('aria-describedby');
    });
  }

  /**
   * Next to the hotspot, on the first side with room for the whole bubble inside `area` (below, above,
   * right, left), so it never covers what it points at. `frame` is the visible part of the picture: a
   * hotspot scrolled partly out of it counts by its visible part. Returns the side, or null when no side
   * has room (the caller then shows it as a sheet, or not at all while the viewer pans), or 'unseen' when
   * the hotspot is out of view (the bubble waits, invisible).
   */
  function place(area: HTMLElement, frame: HTMLElement): Placement | 'unseen' | null {
    if (!anchor || el.hidden) return null;
    delete el.dataset.placement;
    el.style.visibility = '';
    const bounds = area.getBoundingClientRect();
    const seen = frame.getBoundingClientRect();
    const full = anchor.getBoundingClientRect();
    const margin = 8;
    const gap = 12;
    // Coordinates inside `area`, the anchor cut to what is visible of the picture.
    const x = Math.max(full.left, seen.left) - bounds.left;
    const y = Math.max(full.top, seen.top) - bounds.top;
    const right = Math.min(full.right, seen.right) - bounds.left;
    const bottom = Math.min(full.bottom, seen.bottom) - bounds.top;
    if (right <= x || bottom <= y) {
      hideForNow();
      return 'unseen';
    }
    const W = bounds.width;
    const H = bounds.height;
    const cx = (x + right) / 2;
    const cy = (y + bottom) / 2;

    const measure = (maxWidth: number) => {
      el.style.maxWidth = `${maxWidth}px`;
      return { width: el.offsetWidth, height: el.offsetHeight };
    };
    const wide = Math.min(300, W - 2 * margin);
    let size = measure(wide);
    const inside = (top: number, left: number) =>
      top >= margin - 0.5 && left >= margin - 0.5 && top + size.height <= H - margin + 0.5 && left + size.width <= W - margin + 0.5;

    const vertical = (placement: 'below' | 'above', top: number) => {
      const left = clamp(cx - size.width / 2, margin, W - size.width - margin);
      return inside(top, left) ? put(placement, top, left, clamp(cx - left - 6, 10, size.width - 22)) : null;
    };
    const side = (placement: 'right' | 'left', room: number) => {
      // A narrower bubble, taller, may fit beside the hotspot where the widest does not.
      if (room < 120) return null;
      size = measure(Math.min(wide, room));
      const left = placement === 'right' ? right + gap : x - gap - size.width;
      const top = clamp(cy - size.height / 2, margin, H - size.height - margin);
      const found = inside(top, left) ? put(placement, top, left, clamp(cy - top - 6, 10, size.height - 22)) : null;
      if (!found) size = measure(wide);
      return found;
    };

    return (
      vertical('below', bottom + gap) ??
      vertical('above', y - gap - size.height) ??
      side('right', W - right - gap - margin) ??
      side('left', x - gap - margin) ??
      hideForNow()
    );
  }

  function put(placement: Placement, top: number, left: number, arrowAt: number): Placement {
    el.style.top = `${top}px`;
    el.style.left = `${left}px`;
    el.dataset.placement = placement;
    const along = placement === 'below' || placement === 'above';
    arrow.style.left = along ? `${arrowAt}px` : '';
    arrow.style.top = along ? '' : `${arrowAt}px`;
    return placement;
  }

  /** Nowhere to go without covering the hotspot: invisible (still read) until the caller decides. */
  function hideForNow(): null {
    el.style.visibility = 'hidden';
    return null;
  }

  /** Below the picture, across the whole width: for a hotspot that leaves no room beside it. */
  function sheet(): number {
    el.style.visibility = '';
    el.style.maxWidth = '';
    el.style.top = '';
    el.style.left = '';
    el.dataset.placement = 'sheet';
    return el.offsetHeight;
  }

  return {
    el,
    show,
    place,
    sheet,
    /** Shown (there is a message and nothing hides it). */
    shown: () => !el.hidden,
    hide() {
      el.hidden = true;
    },
  };
}

export type Tooltip = ReturnType<typeof createTooltip>;
