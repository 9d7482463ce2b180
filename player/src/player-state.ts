import type { Telemetry } from './telemetry';
import type { Hotspot, Step } from './wire';

/** What navigation asks of the screen. */
export interface NavigationView {
  show(index: number): void;
  showEnd(): void;
  hideEnd(focusForward: boolean): void;
  /** Says the change to screen readers. */
  announce(text: string): void;
  hotspotFocused(): boolean;
  focusHotspot(): void;
}

/**
 * Where the viewer is: the step, whether the end card is up, whether the demo was completed (once per
 * page), and the autoplay timer. Every move goes through here, so each is tracked and announced once.
 */
export function createNavigation(steps: Step[], view: NavigationView, telemetry: Telemetry, autoplayMs: number) {
  let index = 0;
  let completed = false;
  let ended = false;
  let autoplay: ReturnType<typeof setTimeout> | null = null;

  const announce = () => view.announce(`Step ${index + 1} of ${steps.length}: ${steps[index]!.title}`);

  function show() {
    view.show(index);
    if (autoplay) clearTimeout(autoplay);
    autoplay = autoplayMs && index < steps.length - 1 ? setTimeout(() => next(), autoplayMs) : null;
  }

  function go(target: number, fromHotspot = false) {
    if (target < 0 || target >= steps.length) return;
    const hadFocus = view.hotspotFocused() || fromHotspot;
    closeEnd();
    const seconds = telemetry.lap();
    index = target;
    show();
    telemetry.reached(steps[index]!, seconds);
    announce();
    if (hadFocus) view.focusHotspot();
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
    telemetry.completed();
  }

  function finish() {
    complete();
    ended = true;
    view.showEnd();
    if (autoplay) clearTimeout(autoplay);
  }

  function closeEnd(focusForward = false) {
    if (!ended) return;
    ended = false;
    view.hideEnd(focusForward);
  }

  return {
    next,
    previous,
    /** Back to the first step (the end card's "Replay demo"). */
    replay: () => go(0),
    ended: () => ended,
    start() {
      show();
      telemetry.started(steps[0]!);
      announce();
    },
    follow(spot: Hotspot) {
      telemetry.hotspotClicked(steps[index]!, spot);
      if (spot.action.type === 'url') return;
      if (spot.action.type === 'goto') {
        const target = steps.findIndex((s) => s.number === Number(spot.action.target));
        if (target >= 0 && target !== index) return go(target, true);
      }
      next(true);
    },
    ctaClicked(url: string) {
      telemetry.ctaClicked(url);
      complete();
    },
  };
}

export type Navigation = ReturnType<typeof createNavigation>;

/** ← and → move between steps, unless the viewer is typing or holds a modifier (browser shortcuts). */
export function bindKeys(nav: Pick<Navigation, 'next' | 'previous'>) {
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable]')) return;
    if (event.key === 'ArrowRight') nav.next();
    else if (event.key === 'ArrowLeft') nav.previous();
    else return;
    event.preventDefault();
  });
}
