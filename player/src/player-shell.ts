import { h, ICONS, icon, safeUrl } from './dom';

export interface ShellOptions {
  title: string;
  embed: boolean;
  accent: string;
  stepCount: number;
  progressBar: boolean;
  badge: boolean;
  cta: { label: string; url: string } | null;
  /** The tooltip bubble, positioned inside the picture's area. */
  tip: HTMLElement;
  back(): void;
  forward(): void;
  ctaClicked(): void;
}

/** Dark text on light theme colours, white on dark ones (WCAG relative luminance). */
export function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.45 ? '#101828' : '#ffffff';
}

/** The player's frame: title bar, progress, the picture's area, caption and buttons; empty until a step is shown. */
export function buildShell(o: ShellOptions) {
  const counter = h('span', { class: 'ds-count' });
  const fill = h('div', { class: 'ds-progress-fill' });
  const progress = h(
    'div',
    { class: 'ds-progress', role: 'progressbar', 'aria-label': 'Demo progress', 'aria-valuemin': 1, 'aria-valuemax': o.stepCount },
    fill,
  );
  if (!o.progressBar) progress.hidden = true;
  const stage = h('div', { class: 'ds-stage' });
  const endCard = h('div', { class: 'ds-end', hidden: true });
  const wrap = h('div', { class: 'ds-wrap' }, h('div', { class: 'ds-fit' }, stage), o.tip, endCard);
  const stepTitle = h('h2', { class: 'ds-step-title', id: 'ds-step-title' });
  const stepText = h('p', { class: 'ds-step-text' });
  const back = h('button', { type: 'button', class: 'ds-button', onclick: () => o.back() }, icon(ICONS.prev, 16), 'Back');
  const forward = h('button', { type: 'button', class: 'ds-button ds-button-primary', onclick: () => o.forward() });
  const ctaLink = o.cta
    ? h(
        'a',
        {
          class: 'ds-button ds-button-primary ds-cta',
          href: safeUrl(o.cta.url) as string,
          target: '_blank',
          rel: 'noopener noreferrer',
          onclick: () => o.ctaClicked(),
        },
        o.cta.label,
        icon(ICONS.external, 16),
      )
    : null;
  const nav = h('nav', { class: 'ds-nav', 'aria-label': 'Demo steps' }, back, forward, ctaLink);
  const live = h('div', { class: 'ds-sr-only', 'aria-live': 'polite', 'aria-atomic': 'true' });

  const player = h(
    'div',
    { class: `ds-player${o.embed ? ' ds-embed' : ''}` },
    h('header', { class: 'ds-top' }, h('h1', { class: 'ds-title' }, o.title), counter, o.badge ? h('span', { class: 'ds-badge' }, 'Made with Demoshare') : null),
    progress,
    h('main', { class: 'ds-main', 'aria-labelledby': 'ds-step-title' }, wrap),
    h('footer', { class: 'ds-bar' }, h('div', { class: 'ds-caption' }, stepTitle, stepText), nav),
    live,
  );
  player.style.setProperty('--ds-accent', o.accent);
  player.style.setProperty('--ds-on-accent', textOn(o.accent));
  return { player, counter, fill, progress, stage, wrap, endCard, stepTitle, stepText, back, forward, ctaLink, nav, live };
}

export type Shell = ReturnType<typeof buildShell>;
