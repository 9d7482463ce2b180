import { brandLogo, type Brand, readableAccent, textOn } from './brand';
import { h, ICONS, icon, safeUrl } from './dom';
import { buildEndCard } from './end-card';
import { hotspotBox, hotspotElement, moveHotspot } from './hotspot';
import { kindOf } from './player-state';
import type { FractionBox } from './snapshot-layout';
import type { SnapshotView } from './snapshot-view';
import { richText, storyButton } from './story-screens';
import type { Tooltip } from './tooltip';
import { fillText, type Variables } from './variables';
import type { Button, Hotspot, Step } from './wire';
import { PHONE_MAX_WIDTH, zoomTo } from './zoom';

/** A step without its own size was captured at this one (screenshots and snapshots alike). */
const CAPTURE = { width: 1280, height: 800 };

/** Loads a gated asset with the session header, for frames where the session cookie is not sent. */
export interface AssetFallback {
  assetAsDataUrl(url: string): Promise<string | null>;
  assetText(url: string): Promise<string | null>;
}

export interface ViewOptions {
  title: string;
  /** The sharing workspace: its logo leads the title bar. */
  brand: Brand | null;
  embed: boolean;
  accent: string;
  progressBar: boolean;
  badge: boolean;
  /** `navigation.buttons` is off: Back and Next hide on steps that have a hotspot to follow. */
  minimalNav: boolean;
  cta: { label: string; url: string } | null;
  steps: Step[];
  tip: Tooltip;
  snapshots: SnapshotView;
  assets?: AssetFallback;
  /** The end card is up: the tooltip stays hidden behind it. */
  ended(): boolean;
  back(): void;
  forward(): void;
  replay(): void;
  ctaClicked(): void;
  follow(spot: Hotspot): void;
  /** The viewer's personalisation values, as they are now. */
  vars(): Variables;
  /** A page step's own buttons (beside Next). */
  press(step: Step, button: Button): void;
  /** The panel of a step that is not a page (cover, chapter menu, form, end), and what takes focus in it. */
  screen(step: Step): [panel: HTMLElement, focus: HTMLElement] | null;
  /** Called once, the frame after the first step's picture is on screen. */
  onFirstPaint(): void;
}

/** The step with its variables filled in its plain texts (rich ones are filled node by node). */
function personalise(step: Step, vars: Variables): Step {
  const fill = (text: string) => fillText(text, vars);
  return {
    ...step,
    title: fill(step.title),
    description: fill(step.description),
    hotspots: step.hotspots.map((spot) => ({ ...spot, label: fill(spot.label), tooltip: fill(spot.tooltip) })),
  };
}

/**
 * The player's screen: its frame (title bar, progress, picture, caption, buttons) and one step at a time
 * in it, or the end card. It only draws; navigation decides what.
 */
export function createStepView(o: ViewOptions) {
  const { steps, tip, snapshots, cta } = o;
  let index = 0;
  let active = 0;
  let painted = false;
  let hotspots: HTMLElement[] = [];
  let step: Step | undefined;
  let panelShown = false;
  let shownOnce = false;

  const counter = h('span', { class: 'ds-count' });
  const fill = h('div', { class: 'ds-progress-fill' });
  const progress = h(
    'div',
    { class: 'ds-progress', role: 'progressbar', 'aria-label': 'Demo progress', 'aria-valuemin': 1, 'aria-valuemax': steps.length },
    fill,
  );
  if (!o.progressBar) progress.hidden = true;
  const stage = h('div', { class: 'ds-stage' });
  const endCard = h('div', { class: 'ds-end', hidden: true });
  // Cover, chapter menu, form and end screen: in the frame's place.
  const panel = h('div', { class: 'ds-panel-wrap', hidden: true });
  // The visible part of the picture: the picture fits in it, or on phones is zoomed and scrolls in it.
  const frame = h('div', { class: 'ds-fit' }, stage);
  const wrap = h('div', { class: 'ds-wrap' }, frame, panel, tip.el, endCard);
  const stepTitle = h('h2', { class: 'ds-step-title', id: 'ds-step-title' });
  // A div: rich text brings paragraphs and lists.
  const stepText = h('div', { class: 'ds-step-text', id: 'ds-step-text' });
  // A text longer than its box scrolls, and touch screens draw no scrollbar: a fade and this chip say
  // there is more, and take the viewer there. Screen readers read the whole text anyway: it is not for them.
  const more = h(
    'button',
    {
      type: 'button',
      class: 'ds-more',
      tabindex: -1,
      'aria-hidden': 'true',
      hidden: true,
      onclick: () => stepText.scrollBy({ top: stepText.clientHeight * 0.8, behavior: 'smooth' }),
    },
    'More',
    icon(ICONS.down, 14),
  );
  // Its word gives way to the arrow on phones (player.css); the name stays.
  const back = h(
    'button',
    { type: 'button', class: 'ds-button ds-button-back', 'aria-label': 'Back', onclick: o.back },
    icon(ICONS.prev, 16),
    h('span', { class: 'ds-button-text' }, 'Back'),
  );
  const forward = h('button', { type: 'button', class: 'ds-button ds-button-primary', onclick: o.forward });
  const ctaLink = cta
    ? h(
        'a',
        { class: 'ds-button ds-button-primary ds-cta', href: safeUrl(cta.url) as string, target: '_blank', rel: 'noopener noreferrer', onclick: o.ctaClicked },
        cta.label,
        icon(ICONS.external, 16),
      )
    : null;
  const extra = h('span', { class: 'ds-step-buttons' });
  const nav = h('nav', { class: 'ds-nav', 'aria-label': 'Demo steps' }, back, extra, forward, ctaLink);
  const caption = h('div', { class: 'ds-caption' }, stepTitle, stepText, more);
  const bar = h('footer', { class: 'ds-bar' }, caption, nav);
  const main = h('main', { class: 'ds-main', 'aria-labelledby': 'ds-step-title' }, wrap);
  const live = h('div', { class: 'ds-sr-only', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const player = h(
    'div',
    { class: `ds-player${o.embed ? ' ds-embed' : ''}` },
    h('header', { class: 'ds-top' }, brandLogo(o.brand, 'ds-logo'), h('h1', { class: 'ds-title', title: o.title }, o.title), counter, o.badge ? h('span', { class: 'ds-badge' }, 'Made with Demoshare') : null),
    progress,
    main,
    bar,
    live,
  );
  const accent = readableAccent(o.accent);
  player.style.setProperty('--ds-accent', accent);
  player.style.setProperty('--ds-on-accent', textOn(accent));

  const done = () => {
    if (painted) return;
    painted = true;
    // The frame after the load is the one that shows it.
    requestAnimationFrame(() => o.onFirstPaint());
  };

  function media(step: Step): HTMLElement {
    if (panelShown) {
      snapshots.clear();
      requestAnimationFrame(done);
      return h('div', {});
    }
    const title = step.title || `Step ${step.number}`;
    snapshots.clear();
    if (step.image_url) {
      const img = h('img', { class: 'ds-shot', src: step.image_url, alt: `Screenshot: ${title}`, draggable: 'false' });
      img.addEventListener('load', done, { once: true });
      img.addEventListener(
        'error',
        () => {
          void (o.assets?.assetAsDataUrl(step.image_url as string) ?? Promise.resolve(null)).then((data) => {
            if (data) img.src = data;
            else done();
          });
        },
        { once: true },
      );
      return img;
    }
    if (step.html_url) return snapshots.show(step, title, done, placeOnElements, o.vars());
    requestAnimationFrame(done);
    return h('div', { class: 'ds-blank' }, 'No picture for this step');
  }

  function placeOnElements(boxes: Array<FractionBox | null>) {
    boxes.forEach((box, i) => {
      const el = hotspots[i];
      if (box && el) moveHotspot(el, box);
    });
    layout(true);
  }

  function showTip(i: number, centre = false) {
    active = i;
    const spot = panelShown ? undefined : step?.hotspots[i];
    tip.show(hotspots, i, spot ? spot.tooltip || spot.label : '', !o.ended(), spot?.tooltip_html ? richText(spot.tooltip_html, o.vars()) : null);
    layout(centre);
  }

  let zoomed = false;

  /**
   * Phones: the picture at a readable scale, the frame scrolled to the active hotspot when `centre`.
   * Wider screens: the picture fits the frame (CSS does it).
   */
  function zoom(centre: boolean) {
    const phone = wrap.clientWidth > 0 && wrap.clientWidth <= PHONE_MAX_WIDTH && !!step && !panelShown;
    if (phone !== zoomed) {
      zoomed = phone;
      player.classList.toggle('ds-zoomed', phone);
    }
    if (!phone || !step) {
      stage.style.width = '';
      stage.style.height = '';
      return;
    }
    const capture = step.width && step.height ? { width: step.width, height: step.height } : CAPTURE;
    const el = hotspots[active];
    const z = zoomTo(capture, { width: frame.clientWidth, height: frame.clientHeight }, el ? hotspotBox(el) : null);
    stage.style.width = `${z.width}px`;
    stage.style.height = `${z.height}px`;
    if (centre) frame.scrollTo({ left: z.left, top: z.top, behavior: 'instant' });
  }

  /**
   * Sizes the picture, then places the tooltip beside its hotspot; when no side has room, the tooltip
   * becomes a sheet under the picture, which gives it its height back.
   */
  function layout(centre: boolean) {
    fitText();
    wrap.style.removeProperty('--ds-sheet');
    zoom(centre);
    snapshots.fit(stage.clientWidth);
    if (tip.place(wrap, frame) !== null || !tip.shown()) return;
    // No side has room (a hotspot panned out of view is not that: its bubble just waits).
    wrap.style.setProperty('--ds-sheet', `${tip.sheet()}px`);
    zoom(centre);
    snapshots.fit(stage.clientWidth);
  }

  /**
   * The text takes what it needs up to its cap (player.css); one that goes past it by two lines at most
   * is shown whole instead: a cue over the last line would hide about as much as it saves.
   */
  function fitText() {
    stepText.style.maxHeight = '';
    const over = stepText.scrollHeight - stepText.clientHeight;
    if (over > 1 && over <= 2 * (Number.parseFloat(getComputedStyle(stepText).lineHeight) || 20)) stepText.style.maxHeight = 'none';
    moreCue();
  }

  /** The text scrolls and some of it is below: the fade and the chip show; keyboards can scroll it. */
  function moreCue() {
    const scrolls = !stepText.hidden && stepText.scrollHeight > stepText.clientHeight + 1;
    const below = scrolls && stepText.scrollHeight - stepText.clientHeight - stepText.scrollTop > 1;
    stepText.classList.toggle('ds-more-below', below);
    if (scrolls) stepText.tabIndex = 0;
    else stepText.removeAttribute('tabindex');
    more.hidden = !below;
  }
  stepText.addEventListener('scroll', moreCue, { passive: true });

  // Panning moves the hotspot: its tooltip follows, or waits unseen while there is no room beside it.
  frame.addEventListener(
    'scroll',
    () => {
      if (zoomed && !wrap.style.getPropertyValue('--ds-sheet')) tip.place(wrap, frame);
    },
    { passive: true },
  );

  return {
    el: player,
    wrap,
    /** The picture's frame, which scrolls on phones (swipes there wait for its edge). */
    frame,
    show(at: number, canBack = at > 0) {
      const before = panelShown;
      index = at;
      step = personalise(steps[index]!, o.vars());
      const last = index === steps.length - 1;
      const kind = kindOf(step);
      const screen = kind === 'page' ? null : o.screen(step);
      panelShown = !!screen;
      panel.hidden = !screen;
      frame.hidden = !!screen;
      caption.hidden = !!screen;
      // A cover has nothing to go back to, an end screen its own buttons.
      bar.hidden = kind === 'end' || (kind === 'cover' && !canBack);
      forward.hidden = !!screen;
      panel.replaceChildren(...(screen ? [screen[0]] : []));
      main.setAttribute('aria-labelledby', screen ? 'ds-panel-title' : 'ds-step-title');
      extra.replaceChildren(...(screen ? [] : (step.buttons ?? []).map((b) => storyButton(b, o.vars(), (button) => o.press(step!, button)))));
      stage.style.setProperty('--ds-ratio', String(step.width && step.height ? step.width / step.height : 16 / 10));
      hotspots = step.hotspots.map((spot, i) => hotspotElement(spot, () => showTip(i), () => o.follow(spot)));
      stage.replaceChildren(media(step), ...hotspots);
      stepTitle.textContent = step.title || `Step ${index + 1}`;
      // A panel says its text itself.
      stepText.replaceChildren(screen ? '' : step.description_html ? richText(step.description_html, o.vars()) : step.description);
      stepText.hidden = !step.description && !step.description_html;
      stepText.scrollTop = 0;
      counter.textContent = `Step ${index + 1} of ${steps.length}`;
      fill.style.width = `${((index + 1) / steps.length) * 100}%`;
      progress.setAttribute('aria-valuenow', String(index + 1));
      progress.setAttribute('aria-valuetext', `Step ${index + 1} of ${steps.length}`);
      back.disabled = !canBack;
      forward.replaceChildren(last ? 'Finish' : 'Next', icon(last ? ICONS.check : ICONS.next, 16));
      forward.className = `ds-button ${last && ctaLink ? '' : 'ds-button-primary'}`;
      if (ctaLink) ctaLink.hidden = !last || !!screen;
      // On phones the call to action needs the bar's width: the buttons go under the text.
      bar.classList.toggle('ds-bar-wide-nav', !!ctaLink && last);
      // Without buttons a step without hotspots would be a dead end: the buttons come back for it.
      nav.classList.toggle('ds-nav-minimal', o.minimalNav && step.hotspots.length > 0);
      showTip(0, true);
      // Focus left with the screen it was on (a cover's or a menu's button): it goes to the new screen's
      // first control, so keyboard users go on from there.
      if (shownOnce && (screen || before) && document.activeElement === document.body) {
        (screen ? screen[1] : (hotspots[0] ?? (forward.hidden ? null : forward)))?.focus({ preventScroll: true });
      }
      shownOnce = true;
      const nextStep = steps[index + 1];
      if (nextStep?.image_url) new Image().src = nextStep.image_url;
      else if (nextStep?.html_url) void snapshots.prefetch(nextStep.html_url);
    },
    showEnd() {
      tip.hide();
      layout(false);
      const [card, focus] = buildEndCard(o.title, cta, o.replay, o.ctaClicked);
      endCard.replaceChildren(card);
      endCard.hidden = false;
      forward.disabled = true;
      live.textContent = 'End of the demo.';
      focus.focus({ preventScroll: true });
    },
    hideEnd(focusForward: boolean) {
      endCard.hidden = true;
      forward.disabled = false;
      showTip(active);
      if (focusForward) forward.focus({ preventScroll: true });
    },
    announce(text: string) {
      // Navigation names the step by its title as written: said as shown, personalised.
      live.textContent = fillText(text, o.vars());
    },
    hotspotFocused: () => hotspots.includes(document.activeElement as HTMLElement),
    /** Keyboard users who follow hotspots keep going with Enter instead of hunting for the next one. */
    focusHotspot() {
      if (document.activeElement === document.body) hotspots[0]?.focus({ preventScroll: true });
    },
    /** The stage changed size: the snapshot scales again and the tooltip follows its hotspot. */
    relayout() {
      layout(true);
    },
    /** A demo without steps: says so, without buttons. */
    showEmpty() {
      stepTitle.textContent = 'This demo has no steps yet';
      nav.hidden = true;
    },
  };
}
