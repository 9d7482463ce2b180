import type { Telemetry } from './telemetry';
import type { Chapter, Step, StoryAction } from './wire';

/** What navigation asks of the screen. */
export interface NavigationView {
  /** `canBack`: Back has somewhere to go. */
  show(index: number, canBack: boolean): void;
  showEnd(): void;
  hideEnd(focusForward: boolean): void;
  /** Says the change to screen readers. */
  announce(text: string): void;
  hotspotFocused(): boolean;
  focusHotspot(): void;
}

export const kindOf = (step: Step | undefined) => step?.kind ?? 'page';

/** Something the viewer acts on: a hotspot or a button. */
export interface Element {
  id: string;
  action: StoryAction;
}

/**
 * Where the viewer is: the step, whether the end card is up, whether the demo was completed (once per
 * page), the autoplay timer, and for a story (issue 29) the way back, the chapter menu the viewer chose
 * from and the chapters seen. Every move goes through here, so each is tracked and announced once.
 */
export function createNavigation(
  steps: Step[],
  chapters: Chapter[],
  view: NavigationView,
  telemetry: Telemetry,
  autoplayMs: number,
  /** Opens another demo's share link (the `demo` action). */
  openDemo: (url: string) => void = () => {},
  /** Form steps already sent (the gate's form): passed over to where their submit leads. */
  passed: ReadonlySet<number> = new Set(),
) {
  let index = 0;
  let completed = false;
  let ended = false;
  let autoplay: ReturnType<typeof setTimeout> | null = null;
  // A linear demo (pages and hotspots only) keeps Back as the step before; a story goes back the way the
  // viewer came.
  const story = steps.some((s) => kindOf(s) !== 'page' || s.chapter_id || s.buttons?.length);
  const trail: number[] = [];
  /** The chapter menu the viewer picked a chapter on: `next` at that chapter's end comes back to it. */
  let menu: number | null = null;
  const visited = new Set<string>();

  const announce = () => view.announce(`Step ${index + 1} of ${steps.length}: ${steps[index]!.title}`);
  const byNumber = (n: unknown) => steps.findIndex((s) => s.number === Number(n));

  function show() {
    view.show(index, story ? trail.length > 0 : index > 0);
    if (autoplay) clearTimeout(autoplay);
    autoplay = autoplayMs && index < steps.length - 1 && kindOf(steps[index]) === 'page' ? setTimeout(() => next(), autoplayMs) : null;
  }

  /** `target`, or where a form already sent leads (its submit button's step, else the one after it). */
  function pass(target: number): number {
    for (let guard = 0; guard < steps.length && kindOf(steps[target]) === 'form' && passed.has(steps[target]!.number); guard++) {
      const submit = steps[target]!.buttons?.find((b) => b.action.type === 'submit')?.action.target;
      const to = submit === null || submit === undefined ? -1 : byNumber(submit);
      target = to >= 0 && to !== target ? to : target + 1;
    }
    return target;
  }

  function go(to: number, fromHotspot = false, remember = true) {
    const target = pass(to);
    if (target < 0 || target >= steps.length) return;
    const hadFocus = view.hotspotFocused() || fromHotspot;
    closeEnd();
    const seconds = telemetry.lap();
    if (remember && target !== index) trail.push(index);
    index = target;
    const step = steps[index]!;
    if (step.chapter_id) visited.add(step.chapter_id);
    show();
    telemetry.reached(step, seconds);
    announce();
    if (kindOf(step) === 'end') complete();
    if (hadFocus) view.focusHotspot();
  }

  /** Where `next` leads from here: the step after, the chapter menu at a chapter's end, or -1 (the end). */
  function nextIndex(): number {
    const chapter = steps[index]!.chapter_id;
    if (menu !== null && chapter && steps[index + 1]?.chapter_id !== chapter) return menu;
    return index < steps.length - 1 ? index + 1 : -1;
  }

  function next(fromHotspot = false) {
    if (ended) return;
    const to = nextIndex();
    if (to >= 0) go(to, fromHotspot);
    else finish();
  }

  function previous() {
    if (ended) return closeEnd(true);
    if (!story) return go(index - 1);
    const back = trail.pop();
    if (back !== undefined) go(back, false, false);
  }

  function complete() {
    if (completed) return;
    completed = true;
    telemetry.completed(steps[index]);
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

  /** Step 1 again, as if new: no way back, no chapter menu, no chapter seen. */
  function restart(fromHotspot = false) {
    trail.length = 0;
    menu = null;
    visited.clear();
    go(0, fromHotspot, false);
  }

  /** The step an action leads to (-1: the built-in end card; null: nowhere, it stays). */
  function targetOf(action: StoryAction): number | null {
    switch (action.type) {
      case 'next':
        return nextIndex();
      case 'goto':
      case 'submit': {
        // A goto to the step itself, or to none, goes on as next (as hotspots always have).
        const to = action.target === null || action.target === undefined ? -2 : byNumber(action.target);
        return to >= 0 && to !== index ? to : nextIndex();
      }
      case 'chapter': {
        const first = chapters.find((c) => c.id === action.target)?.first_step;
        const to = first === null || first === undefined ? -2 : byNumber(first);
        return to >= 0 ? to : null;
      }
      case 'end':
        return steps.findIndex((s, i) => i > index && kindOf(s) === 'end');
      case 'restart':
        return 0;
      default:
        return null;
    }
  }

  /** A hotspot or button acts (a form's submit button once the form is sent). */
  function act(element: Element, fromHotspot = false) {
    if (ended) return;
    const step = steps[index]!;
    const { action } = element;
    const to = targetOf(action);
    telemetry.action(step, element.id, action.type, to !== null && to >= 0 ? steps[to]! : null);
    if (action.type === 'url') return;
    if (action.type === 'demo') return openDemo(String(action.target ?? ''));
    if (action.type === 'chapter' && typeof action.target === 'string') {
      if (kindOf(step) === 'chapter_menu') {
        menu = index;
        telemetry.chapterSelected(step, action.target);
      }
    }
    if (action.type === 'restart') return restart(fromHotspot);
    if (action.type === 'end') complete();
    if (to === null) return;
    if (to >= 0) go(to, fromHotspot);
    else finish();
  }

  return {
    /** Next by key, swipe or the Next button: a chapter menu, a form that may not be skipped and an end screen wait for their own buttons. */
    next() {
      const step = steps[index]!;
      const kind = kindOf(step);
      if (kind === 'chapter_menu' || kind === 'end' || (kind === 'form' && !step.form?.skippable)) return;
      next();
    },
    previous,
    /** Escape: closes the end card, or leaves a chapter for the menu it was chosen on. */
    escape() {
      if (ended) return closeEnd(true);
      if (menu !== null && steps[index]!.chapter_id && menu !== index) go(menu);
    },
    /** Back to the first step (the end card's "Replay demo"). */
    replay: () => restart(),
    ended: () => ended,
    visited: (chapterId: string) => visited.has(chapterId),
    start() {
      index = Math.min(pass(0), steps.length - 1);
      show();
      telemetry.started(steps[index]!);
      announce();
      if (kindOf(steps[0]) === 'end') complete();
    },
    follow(spot: Element & { label: string }) {
      telemetry.hotspotClicked(steps[index]!, spot);
      act(spot, true);
    },
    act,
    ctaClicked(url: string) {
      telemetry.ctaClicked(url);
      complete();
    },
  };
}

export type Navigation = ReturnType<typeof createNavigation>;

/**
 * ← and → move between steps, Escape leaves an end card or a chapter, unless the viewer is typing or holds
 * a modifier (browser shortcuts).
 */
export function bindKeys(nav: Pick<Navigation, 'next' | 'previous' | 'escape'>) {
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable]')) return;
    if (event.key === 'ArrowRight') nav.next();
    else if (event.key === 'ArrowLeft') nav.previous();
    else if (event.key === 'Escape') nav.escape();
    else return;
    event.preventDefault();
  });
}
