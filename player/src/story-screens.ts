import { h, ICONS, icon, safeUrl } from './dom';
import { fillText, fillTextNodes, type Variables } from './variables';
import type { Button, Step } from './wire';

// The screens of the story's step kinds other than `page` (issue 29): cover, chapter menu and end screen
// (the form is form-view.ts). Each is a panel in the player's frame, in place of the picture.

/** The elements rich text may hold: what the server's sanitiser keeps (src/demos/rich-text.ts). */
const RICH = /^(B|STRONG|I|EM|A|UL|OL|LI|P|BR)$/;

/**
 * Server-sanitised HTML (a description or a tooltip) as nodes, checked again here (anything else is
 * unwrapped or, for scripts and styles, dropped), links opening in a new tab, and variables filled in its
 * text nodes only: a value never becomes markup.
 */
export function richText(html: string, vars: Variables): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const el of Array.from(template.content.querySelectorAll('*'))) {
    if (!RICH.test(el.tagName)) {
      if (/^(SCRIPT|STYLE|TEMPLATE|IFRAME|OBJECT|SVG|MATH)$/i.test(el.tagName)) el.remove();
      else el.replaceWith(...Array.from(el.childNodes));
      continue;
    }
    const href = el.getAttribute('href') ?? '';
    for (const name of el.getAttributeNames()) el.removeAttribute(name);
    if (el.tagName === 'A') {
      const url = /^mailto:/i.test(href) ? href : safeUrl(href);
      if (url) el.setAttribute('href', url);
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    }
  }
  fillTextNodes(template.content, vars);
  return template.content;
}

/** A step's text: its rich form when it has one, else the plain one, personalised. */
export function stepText(step: Step, vars: Variables): Node | string {
  return step.description_html ? richText(step.description_html, vars) : fillText(step.description, vars);
}

const STYLE_CLASS = { primary: 'ds-button ds-button-primary', secondary: 'ds-button', link: 'ds-button ds-button-link' } as const;

/**
 * A story button: a real link for `url` (new tab, no opener), a button otherwise. `press` is called on
 * activation (after the browser has opened a link).
 */
export function storyButton(button: Button, vars: Variables, press: (button: Button) => void, extraClass = ''): HTMLElement {
  const label = fillText(button.label, vars);
  const attrs = { class: `${STYLE_CLASS[button.style ?? 'primary'] ?? STYLE_CLASS.primary} ${extraClass}`, 'data-button-id': button.id, onclick: () => press(button) };
  const url = button.action.type === 'url' ? safeUrl(button.action.target) : null;
  return url
    ? h('a', { ...attrs, href: url, target: '_blank', rel: 'noopener noreferrer' }, label, icon(ICONS.external, 16))
    : h('button', { ...attrs, type: 'button' }, label);
}

/** A panel's heading: the one the main region is labelled by, and where focus lands when nothing else takes it. */
const heading = (text: string) => h('h2', { class: 'ds-panel-title', id: 'ds-panel-title', tabindex: '-1' }, text);

export interface ScreenOptions {
  step: Step;
  vars: Variables;
  press(button: Button): void;
}

/** Title, text and the start button(s), over the brand's colour. Returns the panel and its first control. */
export function coverScreen({ step, vars, press }: ScreenOptions, title: string): [HTMLElement, HTMLElement] {
  const buttons = step.buttons?.length ? step.buttons : [{ id: 'start', label: 'Start', style: 'primary', action: { type: 'next' } } as Button];
  const actions = buttons.map((b) => storyButton(b, vars, press));
  const head = heading(fillText(step.title, vars) || title);
  const panel = h(
    'section',
    { class: 'ds-panel ds-cover', 'aria-labelledby': 'ds-panel-title' },
    h('div', { class: 'ds-panel-body' }, head, h('div', { class: 'ds-rich' }, stepText(step, vars)), h('div', { class: 'ds-panel-actions' }, ...actions)),
  );
  return [panel, actions[0] ?? head];
}

/**
 * One card per button (label, description, a tick on chapters already seen). ↑ ↓ (and ← →) move between
 * the cards.
 */
export function menuScreen({ step, vars, press }: ScreenOptions, visited: (chapterId: string) => boolean): [HTMLElement, HTMLElement] {
  // Chapters are cards; any other button (go on, a call to action) is a button under them.
  const isCard = (b: Button) => b.action.type === 'chapter';
  const others = (step.buttons ?? []).filter((b) => !isCard(b)).map((b) => storyButton(b, vars, press));
  const cards = (step.buttons ?? []).filter(isCard).map((b) => {
    const seen = b.action.type === 'chapter' && typeof b.action.target === 'string' && visited(b.action.target);
    const card = storyButton(b, vars, press, 'ds-menu-card');
    card.replaceChildren(h('span', { class: 'ds-menu-label' }, fillText(b.label, vars)));
    if (b.description) card.append(h('span', { class: 'ds-menu-text' }, fillText(b.description, vars)));
    if (seen) card.append(h('span', { class: 'ds-menu-seen' }, icon(ICONS.check, 14), 'Viewed'));
    if (seen) card.classList.add('ds-menu-visited');
    return card;
  });
  const list = h('div', { class: 'ds-menu', role: 'group', 'aria-label': 'Chapters' }, ...cards);
  list.addEventListener('keydown', (event) => {
    const i = cards.indexOf(document.activeElement as HTMLElement);
    const move = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (i < 0 || !move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    cards[(i + move + cards.length) % cards.length]!.focus();
    event.preventDefault();
  });
  const head = heading(fillText(step.title, vars) || 'Choose a chapter');
  const panel = h(
    'section',
    { class: 'ds-panel ds-chapters', 'aria-labelledby': 'ds-panel-title' },
    h(
      'div',
      { class: 'ds-panel-body' },
      head,
      h('div', { class: 'ds-rich' }, stepText(step, vars)),
      list,
      others.length ? h('div', { class: 'ds-panel-actions' }, ...others) : null,
    ),
  );
  return [panel, cards[0] ?? others[0] ?? head];
}

/** Title, text, the calls to action, and "Replay demo" unless a button already restarts. */
export function endScreen({ step, vars, press }: ScreenOptions, replay: () => void): [HTMLElement, HTMLElement] {
  const buttons = (step.buttons ?? []).map((b) => storyButton(b, vars, press));
  const replays = step.buttons?.some((b) => b.action.type === 'restart');
  const head = heading(fillText(step.title, vars) || 'Thanks for watching');
  const panel = h(
    'section',
    { class: 'ds-panel ds-end-screen', 'aria-labelledby': 'ds-panel-title' },
    h(
      'div',
      { class: 'ds-panel-body' },
      head,
      h('div', { class: 'ds-rich' }, stepText(step, vars)),
      h(
        'div',
        { class: 'ds-panel-actions' },
        ...buttons,
        replays ? null : h('button', { type: 'button', class: 'ds-button', onclick: replay }, icon(ICONS.replay, 16), 'Replay demo'),
      ),
    ),
  );
  return [panel, buttons[0] ?? head];
}
