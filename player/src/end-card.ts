import { h, ICONS, icon, safeUrl } from './dom';
import type { Shell } from './player-shell';

export interface EndCardOptions {
  shell: Shell;
  title: string;
  cta: { label: string; url: string } | null;
  replay(): void;
  ctaClicked(): void;
}

/** The card over the last step once the viewer finishes: thanks, the call to action, and "Replay demo". */
export function createEndCard({ shell, title, cta, replay, ctaClicked }: EndCardOptions) {
  const { endCard, forward, live } = shell;
  return {
    show() {
      const replayButton = h('button', { type: 'button', class: 'ds-button', onclick: () => replay() }, icon(ICONS.replay, 16), 'Replay demo');
      const endCta = cta
        ? h(
            'a',
            { class: 'ds-button ds-button-primary', href: safeUrl(cta.url) as string, target: '_blank', rel: 'noopener noreferrer', onclick: () => ctaClicked() },
            cta.label,
            icon(ICONS.external, 16),
          )
        : null;
      const heading = h('h2', { class: 'ds-end-title', tabindex: '-1' }, 'You have reached the end');
      endCard.replaceChildren(
        h(
          'div',
          { class: 'ds-end-card', role: 'dialog', 'aria-modal': 'false', 'aria-label': 'End of the demo' },
          heading,
          h('p', { class: 'ds-end-text' }, `Thanks for watching “${title}”.`),
          h('div', { class: 'ds-end-actions' }, replayButton, endCta),
        ),
      );
      endCard.hidden = false;
      forward.disabled = true;
      live.textContent = 'End of the demo.';
      (endCta ?? heading).focus({ preventScroll: true });
    },
    hide() {
      endCard.hidden = true;
      forward.disabled = false;
    },
  };
}
