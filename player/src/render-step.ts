import { h, ICONS, icon, safeUrl } from './dom';
import type { Shell } from './player-shell';
import type { FractionBox } from './snapshot-layout';
import type { SnapshotView } from './snapshot-view';
import type { Tooltip } from './tooltip';
import type { Hotspot, Step } from './wire';

/** Loads a gated asset with the session header, for frames where the session cookie is not sent. */
export interface AssetFallback {
  assetAsDataUrl(url: string): Promise<string | null>;
  assetText(url: string): Promise<string | null>;
}

export interface StepViewOptions {
  shell: Shell;
  steps: Step[];
  tip: Tooltip;
  snapshots: SnapshotView;
  assets?: AssetFallback;
  /** `navigation.buttons` is off: Back and Next hide on steps that have a hotspot to follow. */
  minimalNav: boolean;
  /** The end card is up: the tooltip stays hidden behind it. */
  ended(): boolean;
  onHotspot(spot: Hotspot): void;
  /** Called once, the frame after the first step's picture is on screen. */
  onFirstPaint(): void;
}

/** Draws one step into the shell: its picture, hotspots, tooltip, caption, counter, progress and buttons. */
export function createStepView({ shell, steps, tip, snapshots, assets, minimalNav, ended, onHotspot, onFirstPaint }: StepViewOptions) {
  let index = 0;
  let active = 0;
  let painted = false;
  let hotspots: HTMLElement[] = [];

  const done = () => {
    if (painted) return;
    painted = true;
    // The frame after the load is the one that shows it.
    requestAnimationFrame(() => onFirstPaint());
  };

  function media(step: Step): HTMLElement {
    const title = step.title || `Step ${step.number}`;
    snapshots.clear();
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
    if (step.html_url) return snapshots.show(step, title, done, placeOnElements);
    requestAnimationFrame(done);
    return h('div', { class: 'ds-blank' }, 'No picture for this step');
  }

  /** Snapshot steps: each hotspot whose element was found moves onto it. */
  function placeOnElements(boxes: Array<FractionBox | null>) {
    boxes.forEach((box, i) => {
      const button = hotspots[i];
      if (!box || !button) return;
      button.style.left = `${box.x * 100}%`;
      button.style.top = `${box.y * 100}%`;
      button.style.width = `${box.width * 100}%`;
      button.style.height = `${box.height * 100}%`;
    });
    tip.place(shell.wrap);
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
      return h('a', { ...common, href: url, target: '_blank', rel: 'noopener noreferrer', onclick: () => onHotspot(spot) });
    }
    return h('button', { ...common, type: 'button', onclick: () => onHotspot(spot) });
  }

  function showTip(i: number) {
    active = i;
    const spot = steps[index]!.hotspots[i];
    tip.show(hotspots, i, spot ? spot.tooltip || spot.label : '', !ended());
    tip.place(shell.wrap);
  }

  function fitSnapshot() {
    snapshots.fit(shell.stage.clientWidth);
  }

  function show(at: number) {
    index = at;
    const { stage, stepTitle, stepText, counter, fill, progress, back, forward, ctaLink, nav } = shell;
    const step = steps[index]!;
    const last = index === steps.length - 1;
    stage.style.setProperty('--ds-ratio', String(step.width && step.height ? step.width / step.height : 16 / 10));
    hotspots = step.hotspots.map(hotspotElement);
    stage.replaceChildren(media(step), ...hotspots);
    fitSnapshot();
    stepTitle.textContent = step.title || `Step ${index + 1}`;
    stepText.textContent = step.description;
    stepText.hidden = !step.description;
    counter.textContent = `Step ${index + 1} of ${steps.length}`;
    fill.style.width = `${((index + 1) / steps.length) * 100}%`;
    progress.setAttribute('aria-valuenow', String(index + 1));
    progress.setAttribute('aria-valuetext', `Step ${index + 1} of ${steps.length}`);
    back.disabled = index === 0;
    forward.replaceChildren(last ? 'Finish' : 'Next', icon(last ? ICONS.check : ICONS.next, 16));
    forward.className = `ds-button ${last && ctaLink ? '' : 'ds-button-primary'}`;
    if (ctaLink) ctaLink.hidden = !last;
    // Without buttons a step without hotspots would be a dead end: the buttons come back for it.
    nav.classList.toggle('ds-nav-minimal', minimalNav && step.hotspots.length > 0);
    showTip(0);
    const nextStep = steps[index + 1];
    if (nextStep?.image_url) new Image().src = nextStep.image_url;
    else if (nextStep?.html_url) void snapshots.prefetch(nextStep.html_url);
  }

  return {
    show,
    fitSnapshot,
    /** Points the tooltip at the hotspot it was on (after the end card closes). */
    retip: () => showTip(active),
    hotspotFocused: () => hotspots.includes(document.activeElement as HTMLElement),
    /** Keyboard users who follow hotspots keep going with Enter instead of hunting for the next one. */
    focusHotspot() {
      if (document.activeElement === document.body) hotspots[0]?.focus({ preventScroll: true });
    },
  };
}

export type StepView = ReturnType<typeof createStepView>;
