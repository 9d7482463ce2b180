import { h, ICONS, icon, safeUrl } from './dom';

/**
 * The card shown over the last step once the viewer finishes: thanks, the call to action and "Replay
 * demo". Returns the card and what takes focus in it (the call to action, else the heading).
 */
export function buildEndCard(
  title: string,
  cta: { label: string; url: string } | null,
  replay: () => void,
  ctaClicked: () => void,
): [card: HTMLElement, focus: HTMLElement] {
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
  const card = h(
    'div',
    { class: 'ds-end-card', role: 'dialog', 'aria-modal': 'false', 'aria-label': 'End of the demo' },
    heading,
    h('p', { class: 'ds-end-text' }, `Thanks for watching “${title}”.`),
    h('div', { class: 'ds-end-actions' }, replayButton, endCta),
  );
  return [card, endCta ?? heading];
}
