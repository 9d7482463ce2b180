import { safeUrl } from './dom';
import { createEndCard } from './end-card';
import { bindKeys, createNavigation } from './player-state';
import { buildShell } from './player-shell';
import { type AssetFallback, createStepView } from './render-step';
import { createSnapshotView } from './snapshot-view';
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

/** Plays `demo` inside `root`: puts the pieces together and starts on the first step. */
export function mountPlayer(root: HTMLElement, { demo, assets, tracker, embed, onFirstPaint }: PlayerOptions) {
  const steps: Step[] = [...demo.steps].sort((a, b) => a.number - b.number);
  // Read defensively: a payload cached from an older server may lack options added since.
  const config: Partial<Configuration> = demo.configuration ?? {};
  const accent = /^#[0-9a-f]{6}$/i.test(config.theme_color ?? '') ? (config.theme_color as string) : DEFAULT_ACCENT;
  const cta = config.call_to_action && safeUrl(config.call_to_action.url) ? config.call_to_action : null;
  const autoplayMs = config.autoplay?.enabled ? Math.max(1, config.autoplay.delay_seconds ?? 5) * 1000 : 0;

  const telemetry = createTelemetry(tracker, steps);
  const tip = createTooltip();
  const shell = buildShell({
    title: demo.title,
    embed,
    accent,
    stepCount: steps.length,
    progressBar: config.progress_bar !== false,
    badge: config.branding?.show_badge !== false,
    cta,
    tip: tip.el,
    back: () => nav.previous(),
    forward: () => nav.next(),
    ctaClicked: () => nav.ctaClicked(cta!.url),
  });
  root.replaceChildren(shell.player);

  if (steps.length === 0) {
    shell.stepTitle.textContent = 'This demo has no steps yet';
    shell.nav.hidden = true;
    onFirstPaint();
    return;
  }

  const view = createStepView({
    shell,
    steps,
    tip,
    snapshots: createSnapshotView(assets),
    assets,
    minimalNav: config.navigation?.buttons === false,
    ended: () => nav.ended(),
    onHotspot: (spot) => nav.follow(spot),
    onFirstPaint,
  });
  const end = createEndCard({ shell, title: demo.title, cta, replay: () => nav.replay(), ctaClicked: () => nav.ctaClicked(cta!.url) });
  const nav = createNavigation(
    steps,
    {
      show: view.show,
      showEnd() {
        tip.hide();
        end.show();
      },
      hideEnd(focusForward) {
        end.hide();
        view.retip();
        if (focusForward) shell.forward.focus({ preventScroll: true });
      },
      announce(text) {
        shell.live.textContent = text;
      },
      hotspotFocused: view.hotspotFocused,
      focusHotspot: view.focusHotspot,
    },
    telemetry,
    autoplayMs,
  );

  if (config.navigation?.keyboard !== false) bindKeys(nav);
  new ResizeObserver(() => {
    view.fitSnapshot();
    tip.place(shell.wrap);
  }).observe(shell.wrap);
  nav.start();
}
