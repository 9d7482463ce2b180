import { h } from './dom';

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, Math.max(min, max)));

/** The bubble that shows a hotspot's tooltip (or label) next to it. */
export function createTooltip() {
  const text = h('p', { class: 'ds-tip-text' });
  const arrow = h('span', { class: 'ds-tip-arrow', 'aria-hidden': 'true' });
  const el = h('div', { class: 'ds-tip', id: 'ds-tip', role: 'tooltip', hidden: true }, text, arrow);
  let anchor: HTMLElement | undefined;

  /** Points at `anchors[i]`, which alone is described by the bubble; an empty message hides it. */
  function show(anchors: HTMLElement[], i: number, message: string, visible: boolean) {
    anchor = anchors[i];
    text.textContent = message;
    el.hidden = !message || !visible;
    anchors.forEach((b, j) => {
      if (j === i && message) b.setAttribute('aria-describedby', 'ds-tip');
      else b.removeAttribute('aria-describedby');
    });
  }

  /** Next to the hotspot, below it when there is room, else above; always inside `area`. */
  function place(area: HTMLElement) {
    if (!anchor || el.hidden) return;
    const bounds = area.getBoundingClientRect();
    const box = anchor.getBoundingClientRect();
    const margin = 8;
    const gap = 12;
    el.style.maxWidth = `${Math.min(300, bounds.width - 2 * margin)}px`;
    const width = el.offsetWidth;
    const height = el.offsetHeight;
    const x = box.left - bounds.left;
    const y = box.top - bounds.top;
    const roomBelow = bounds.height - (y + box.height) - gap - margin;
    const roomAbove = y - gap - margin;
    const below = roomBelow >= height || roomBelow >= roomAbove;
    const top = clamp(below ? y + box.height + gap : y - gap - height, margin, bounds.height - height - margin);
    const left = clamp(x + box.width / 2 - width / 2, margin, bounds.width - width - margin);
    el.style.top = `${top}px`;
    el.style.left = `${left}px`;
    el.dataset.placement = below ? 'below' : 'above';
    arrow.style.left = `${clamp(x + box.width / 2 - left - 6, 10, width - 22)}px`;
  }

  return {
    el,
    show,
    place,
    hide() {
      el.hidden = true;
    },
  };
}

export type Tooltip = ReturnType<typeof createTooltip>;
