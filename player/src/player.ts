import { readBrand } from './brand';
import { safeUrl } from './dom';
import { bindKeys, createNavigation } from './player-state';
import { type AssetFallback, createStepView } from './render-step';
import { createSnapshotView } from './snapshot-view';
import { bindSwipe } from './swipe';
import { createTelemetry } from './telemetry';
import { createTooltip } from './tooltip';
import type { Tracker } from './tracker';
import type { Configuration, PlayableDemo, Step } from './wire';

export interface PlayerOptions {
  demo: PlayableDemo;
  assets?: AssetFallback;
  tracker: Pick<Tracker, 'track'> | null;
  embed: boolean;
  /** Called once the first step's picture is on screen (for the first-paint performance mark). */
  onFirstPaint(): void;
}

const DEFAULT_ACCENT = '#4f46e5';

/**
 * Plays `demo` inside `root`. The pieces: navigation (player-state) decides where the viewer is, the
 * view (render-step, with snapshot-view, hotspot, tooltip and end-card) draws it, telemetry tells the
 * server and the host page.
 */
export function mountPlayer(root: HTMLElement, { demo, assets, tracker, embed, onFirstPaint }: PlayerOptions) {
  const steps: Step[] = [...demo.steps].sort((a, b) => a.number - b.number);
  // Read defensively: a payload cached from an older server may lack options added since.
  const config: Partial<Configuration> = demo.configuration ?? {};
  const accent = /^#[0-9a-f]{6}$/i.test(config.theme_color ?? '') ? (config.theme_color as string) : DEFAULT_ACCENT;
  const cta = config.call_to_action && safeUrl(config.call_to_action.url) ? config.call_to_action : null;
  const autoplayMs = config.autoplay?.enabled ? Math.max(1, config.autoplay.delay_seconds ?? 5) * 1000 : 0;

  const telemetry = createTelemetry(tracker, steps);
  const tip = createTooltip();
  const view = createStepView({
    title: demo.title,
    brand: readBrand(demo.brand),
    embed,
    accent,
    progressBar: config.progress_bar !== false,
    badge: config.branding?.show_badge !== false,
    minimalNav: config.navigation?.buttons === false,
    cta,
    steps,
    tip,
    snapshots: createSnapshotView(assets),
    assets,
    ended: () => nav.ended(),
    back: () => nav.previous(),
    forward: () => nav.next(),
    replay: () => nav.replay(),
    ctaClicked: () => nav.ctaClicked(cta!.url),
    follow: (spot) => nav.follow(spot),
    onFirstPaint,
  });
  root.replaceChildren(view.el);

  if (steps.length === 0) {
    view.showEmpty();
    onFirstPaint();
    return;
  }

  const nav = createNavigation(steps, view, telemetry, autoplayMs);
  if (config.navigation?.keyboard !== false) bindKeys(nav);
  bindSwipe(view.el, view.frame, nav);
  new ResizeObserver(() => view.relayout()).observe(view.wrap);
  nav.start();
}
