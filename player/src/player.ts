import type { Hotspot, PlayableDemo, Step } from './api';
import { h, ICONS, icon } from './dom';
import { postToHost } from './embed';
import { placeOnElements } from './snapshot-layout';
import type { Tracker } from './tracker';

/** Loads a gated asset with the session header, for frames where the session cookie is not sent. */
export interface AssetFallback {
  assetAsDataUrl(url: string): Promise<string | null>;
  assetText(url: string): Promise<string | null>;
}

export interface PlayerOptions {
  demo: PlayableDemo;
  assets?: AssetFallback;
  tracker: Pick<Tracker, 'track'> | null;
  embed: boolean;
  /** Called once the first step's picture is on screen (for the first-paint performance mark). */
  onFirstPaint(): void;
}

const DEFAULT_ACCENT = '#4f46e5';
const SNAPSHOT_SIZE = { width: 1280, height: 800 };

interface ShownSnapshot {
  frame: HTMLIFrameElement;
  step: Step;
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, Math.max(min, max)));

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

/** Dark text on light theme colours, white on dark ones (WCAG relative luminance). */
export function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.45 ? '#101828' : '#ffffff';
}

export function mountPlayer(root: HTMLElement, { demo, assets, tracker, embed, onFirstPaint }: PlayerOptions) {
  const steps: Step[] = [...demo.steps].sort((a, b) => a.number - b.number);
  const config = demo.configuration ?? {};
  const accent = /^#[0-9a-f]{6}$/i.test(config.theme_color ?? '') ? (config.theme_color as string) : DEFAULT_ACCENT;
  const keyboard = config.navigation?.keyboard !== false;
  const cta = config.call_to_action && safeUrl(config.call_to_action.url) ? config.call_to_action : null;
  const autoplayMs = config.autoplay?.enabled ? Math.max(1, config.autoplay.delay_seconds ?? 5) * 1000 : 0;

  let index = 0;
  let enteredAt = performance.now();
  let completed = false;
  let ended = false;
  let active = 0;
  let painted = false;
  let autoplay: ReturnType<typeof setTimeout> | null = null;
  let hotspotButtons: HTMLElement[] = [];
  let snapshot: ShownSnapshot | null = null;
  const snapshotTexts = new Map<string, Promise<string | null>>();

  const counter = h('span', { class: 'ds-count' });
  const fill = h('div', { class: 'ds-progress-fill' });
  const progress = h(
    'div',
    { class: 'ds-progress', role: 'progressbar', 'aria-label': 'Demo progress', 'aria-valuemin': 1, 'aria-valuemax': steps.length },
    fill,
  );
  if (config.progress_bar === false) progress.hidden = true;
  const stage = h('div', { class: 'ds-stage' });
  const tipText = h('p', { class: 'ds-tip-text' });
  const tipArrow = h('span', { class: 'ds-tip-arrow', 'aria-hidden': 'true' });
  const tip = h('div', { class: 'ds-tip', id: 'ds-tip', role: 'tooltip', hidden: true }, tipText, tipArrow);
  const endCard = h('div', { class: 'ds-end', hidden: true });
  const wrap = h('div', { class: 'ds-wrap' }, h('div', { class: 'ds-fit' }, stage), tip, endCard);
  const stepTitle = h('h2', { class: 'ds-step-title', id: 'ds-step-title' });
  const stepText = h('p', { class: 'ds-step-text' });
  const back = h('button', { type: 'button', class: 'ds-button', onclick: () => previous() }, icon(ICONS.prev, 16), 'Back');
  const forward = h('button', { type: 'button', class: 'ds-button ds-button-primary', onclick: () => next() });
  const ctaLink = cta
    ? h(
        'a',
        {
          class: 'ds-button ds-button-primary ds-cta',
          href: safeUrl(cta.url) as string,
          target: '_blank',
          rel: 'noopener noreferrer',
          onclick: () => ctaClicked(),
        },
        cta.label,
        icon(ICONS.external, 16),
      )
    : null;
  const nav = h('nav', { class: 'ds-nav', 'aria-label': 'Demo steps' }, back, forward, ctaLink);
  const live = h('div', { class: 'ds-sr-only', 'aria-live': 'polite', 'aria-atomic': 'true' });

  const player = h(
    'div',
    { class: `ds-player${embed ? ' ds-embed' : ''}` },
    h(
      'header',
      { class: 'ds-top' },
      h('h1', { class: 'ds-title' }, demo.title),
      counter,
      config.branding?.show_badge === false ? null : h('span', { class: 'ds-badge' }, 'Made with Demoshare'),
    ),
    progress,
    h('main', { class: 'ds-main', 'aria-labelledby': 'ds-step-title' }, wrap),
    h('footer', { class: 'ds-bar' }, h('div', { class: 'ds-caption' }, stepTitle, stepText), nav),
    live,
  );
  player.style.setProperty('--ds-accent', accent);
  player.style.setProperty('--ds-on-accent', textOn(accent));
  root.replaceChildren(player);

  if (steps.length === 0) {
    stepTitle.textContent = 'This demo has no steps yet';
    nav.hidden = true;
    onFirstPaint();
    return;
  }

  function secondsOnStep(): number {
    const now = performance.now();
    const seconds = Math.round((now - enteredAt) / 100) / 10;
    enteredAt = now;
    return seconds;
  }

  function media(step: Step): HTMLElement {
    const title = step.title || `Step ${step.number}`;
    const done = () => {
      if (painted) return;
      painted = true;
      // The frame after the load is the one that shows it.
      requestAnimationFrame(() => onFirstPaint());
    };
    snapshot = null;
    if (step.image_url) {
      const img = h('img', { class: 'ds-shot', src: step.image_url, alt: `Screenshot: ${title}`, draggable: 'false' });
      img.addEventListener('load', done, { once: true });
      img.addEventListener(
        'error',
        () => {
          void (assets?.assetAsDataUrl(step.image_url as string) ?? Promise.resolve(null)).then((data) => {
            if (data) img.src = data;
            else done();
          });
        },
        { once: true },
      );
      return img;
    }
    if (step.html_url) {
      const width = step.width ?? SNAPSHOT_SIZE.width;
      const height = step.height ?? SNAPSHOT_SIZE.height;
      // Never allow-scripts: the captured page runs no code (its CSP, inherited through srcdoc, and the
      // sanitiser say the same). allow-same-origin without scripts lets the player, and only the player,
      // read where the page's elements are, to put the hotspots on them. pointer-events are off so its
      // links cannot navigate the frame; scrolling="no": it shows the capture's first screen, or where
      // the player scrolls it.
      const frame = h('iframe', {
        class: 'ds-snapshot',
        sandbox: 'allow-same-origin',
        title: `Page snapshot: ${title}`,
        tabindex: '-1',
        scrolling: 'no',
        referrerpolicy: 'no-referrer',
        style: `width:${width}px;height:${height}px`,
      });
      const shown: ShownSnapshot = { frame, step, width, height };
      snapshot = shown;
      // srcdoc rather than src: the snapshot's address is gated, and a frame on another site gets no
      // cookie; a document of our own origin is also one whose elements the player can find.
      void snapshotText(step.html_url).then((html) => {
        if (snapshot !== shown) return;
        if (html === null) return done();
        const loaded = () => {
          // Not the frame's initial about:blank, which may report its load late.
          if (frame.contentDocument && frame.contentDocument.URL !== 'about:srcdoc') return;
          frame.removeEventListener('load', loaded);
          if (snapshot === shown) placeOnSnapshot(shown);
          done();
        };
        frame.addEventListener('load', loaded);
        frame.srcdoc = html;
      });
      return h('div', { class: 'ds-snapshot-box' }, frame);
    }
    requestAnimationFrame(done);
    return h('div', { class: 'ds-blank' }, 'No picture for this step');
  }

  function snapshotText(url: string): Promise<string | null> {
    let text = snapshotTexts.get(url);
    if (!text) {
      text = assets?.assetText(url) ?? Promise.resolve(null);
      snapshotTexts.set(url, text);
      // A failure is not kept: the next visit to the step tries again.
      void text.then((html) => html === null && snapshotTexts.delete(url));
    }
    return text;
  }

  /** Puts each hotspot of a snapshot step whose element is found on that element. */
  function placeOnSnapshot(shown: ShownSnapshot) {
    const boxes = placeOnElements(shown.frame, shown.step.hotspots.map((spot) => spot.selector), shown.width, shown.height);
    boxes.forEach((box, i) => {
      const button = hotspotButtons[i];
      if (!box || !button) return;
      button.style.left = `${box.x * 100}%`;
      button.style.top = `${box.y * 100}%`;
      button.style.width = `${box.width * 100}%`;
      button.style.height = `${box.height * 100}%`;
    });
    placeTip();
  }

  function hotspotElement(spot: Hotspot, i: number): HTMLElement {
    const name = spot.label || spot.tooltip || (spot.action.type === 'url' ? 'Open link' : 'Continue');
    const style = `left:${spot.x * 100}%;top:${spot.y * 100}%;width:${spot.width * 100}%;height:${spot.height * 100}%`;
    const common = {
      class: 'ds-hotspot',
      style,
      'aria-label': name,
      'data-hotspot-id': spot.id,
      onmouseenter: () => showTip(i),
      onfocus: () => showTip(i),
    };
    const url = spot.action.type === 'url' ? safeUrl(spot.action.target) : null;
    if (url) {
      // A real link: it opens in a new tab without a popup blocker and says where it goes.
      return h('a', { ...common, href: url, target: '_blank', rel: 'noopener noreferrer', onclick: () => hotspotClicked(spot) });
    }
    return h('button', { ...common, type: 'button', onclick: () => hotspotClicked(spot) });
  }

  function hotspotClicked(spot: Hotspot) {
    postToHost({
      type: 'hotspot_clicked',
      step_number: steps[index]!.number,
      hotspot_id: spot.id,
      label: spot.label,
      action: spot.action.type,
    });
    if (spot.action.type === 'url') return;
    if (spot.action.type === 'goto') {
      const target = steps.findIndex((s) => s.number === Number(spot.action.target));
      if (target >= 0 && target !== index) return go(target, true);
    }
    next(true);
  }

  function showTip(i: number) {
    active = i;
    const spot = steps[index]!.hotspots[i];
    const text = spot ? spot.tooltip || spot.label : '';
    tipText.textContent = text;
    tip.hidden = !text || ended;
    hotspotButtons.forEach((b, j) => {
      if (j === i && text) b.setAttribute('aria-describedby', 'ds-tip');
      else b.removeAttribute('aria-describedby');
    });
    placeTip();
  }

  /** Next to the hotspot, below it when there is room, else above; always inside the visible area. */
  function placeTip() {
    const spot = hotspotButtons[active];
    if (!spot || tip.hidden) return;
    const area = wrap.getBoundingClientRect();
    const box = spot.getBoundingClientRect();
    const margin = 8;
    const gap = 12;
    tip.style.maxWidth = `${Math.min(300, area.width - 2 * margin)}px`;
    const width = tip.offsetWidth;
    const height = tip.offsetHeight;
    const x = box.left - area.left;
    const y = box.top - area.top;
    const roomBelow = area.height - (y + box.height) - gap - margin;
    const roomAbove = y - gap - margin;
    const below = roomBelow >= height || roomBelow >= roomAbove;
    const top = clamp(below ? y + box.height + gap : y - gap - height, margin, area.height - height - margin);
    const left = clamp(x + box.width / 2 - width / 2, margin, area.width - width - margin);
    tip.style.top = `${top}px`;
    tip.style.left = `${left}px`;
    tip.dataset.placement = below ? 'below' : 'above';
    tipArrow.style.left = `${clamp(x + box.width / 2 - left - 6, 10, width - 22)}px`;
  }

  function fitSnapshot() {
    if (snapshot) snapshot.frame.style.transform = `scale(${stage.clientWidth / snapshot.width})`;
  }

  function render() {
    const step = steps[index]!;
    const last = index === steps.length - 1;
    stage.style.setProperty('--ds-ratio', String(step.width && step.height ? step.width / step.height : 16 / 10));
    hotspotButtons = step.hotspots.map(hotspotElement);
    stage.replaceChildren(media(step), ...hotspotButtons);
    fitSnapshot();
    stepTitle.textContent = step.title || `Step ${index + 1}`;
    stepText.textContent = step.description;
    stepText.hidden = !step.description;
    counter.textContent = `Step ${index + 1} of ${steps.length}`;
    fill.style.width = `${((completed && last ? steps.length : index + 1) / steps.length) * 100}%`;
    progress.setAttribute('aria-valuenow', String(index + 1));
    progress.setAttribute('aria-valuetext', `Step ${index + 1} of ${steps.length}`);
    back.disabled = index === 0;
    forward.replaceChildren(last ? 'Finish' : 'Next', icon(last ? ICONS.check : ICONS.next, 16));
    forward.className = `ds-button ${last && ctaLink ? '' : 'ds-button-primary'}`;
    if (ctaLink) ctaLink.hidden = !last;
    // Without buttons a step without hotspots would be a dead end: the buttons come back for it.
    nav.classList.toggle('ds-nav-minimal', config.navigation?.buttons === false && step.hotspots.length > 0);
    showTip(0);
    const nextStep = steps[index + 1];
    if (nextStep?.image_url) new Image().src = nextStep.image_url;
    else if (nextStep?.html_url) void snapshotText(nextStep.html_url);
    if (autoplay) clearTimeout(autoplay);
    autoplay = autoplayMs && !last ? setTimeout(() => next(), autoplayMs) : null;
  }

  function go(target: number, fromHotspot = false) {
    if (target < 0 || target >= steps.length) return;
    const hadFocus = hotspotButtons.includes(document.activeElement as HTMLElement) || fromHotspot;
    closeEnd();
    const seconds = secondsOnStep();
    index = target;
    render();
    const step = steps[index]!;
    tracker?.track('step_reached', { step_number: step.number, seconds_on_previous: seconds });
    postToHost({ type: 'step_reached', step_number: step.number, step_count: steps.length });
    live.textContent = `Step ${index + 1} of ${steps.length}: ${step.title}`;
    // Keyboard users who follow hotspots keep going with Enter instead of hunting for the next one.
    if (hadFocus && document.activeElement === document.body) hotspotButtons[0]?.focus({ preventScroll: true });
  }

  function next(fromHotspot = false) {
    if (ended) return;
    if (index < steps.length - 1) go(index + 1, fromHotspot);
    else finish();
  }

  function previous() {
    if (ended) return closeEnd(true);
    go(index - 1);
  }

  function complete() {
    if (completed) return;
    completed = true;
    tracker?.track('completed', { step_number: steps[steps.length - 1]!.number, seconds_on_previous: secondsOnStep() });
    postToHost({ type: 'completed', step_count: steps.length });
    fill.style.width = '100%';
  }

  function ctaClicked() {
    postToHost({ type: 'cta_clicked', url: cta!.url });
    complete();
  }

  function finish() {
    complete();
    ended = true;
    tip.hidden = true;
    const replay = h(
      'button',
      { type: 'button', class: 'ds-button', onclick: () => go(0) },
      icon(ICONS.replay, 16),
      'Replay demo',
    );
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
        h('p', { class: 'ds-end-text' }, `Thanks for watching “${demo.title}”.`),
        h('div', { class: 'ds-end-actions' }, replay, endCta),
      ),
    );
    endCard.hidden = false;
    forward.disabled = true;
    live.textContent = 'End of the demo.';
    (endCta ?? heading).focus({ preventScroll: true });
    if (autoplay) clearTimeout(autoplay);
  }

  function closeEnd(focusForward = false) {
    if (!ended) return;
    ended = false;
    endCard.hidden = true;
    forward.disabled = false;
    showTip(active);
    if (focusForward) forward.focus({ preventScroll: true });
  }

  if (keyboard) {
    document.addEventListener('keydown', (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable]')) return;
      if (event.key === 'ArrowRight') next();
      else if (event.key === 'ArrowLeft') previous();
      else return;
      event.preventDefault();
    });
  }

  new ResizeObserver(() => {
    fitSnapshot();
    placeTip();
  }).observe(wrap);

  render();
  tracker?.track('view_started', { step_number: steps[0]!.number, ...(document.referrer ? { referrer: document.referrer.slice(0, 2048) } : {}) });
  postToHost({ type: 'ready', step_count: steps.length });
  postToHost({ type: 'step_reached', step_number: steps[0]!.number, step_count: steps.length });
  live.textContent = `Step 1 of ${steps.length}: ${steps[0]!.title}`;
}
