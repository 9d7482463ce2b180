import { readBrand } from './brand';
import { safeUrl } from './dom';
import { type FormValues, formScreen } from './form-view';
import type { Leads } from './leads';
import { bindKeys, createNavigation, kindOf } from './player-state';
import { type AssetFallback, createStepView } from './render-step';
import { createSnapshotView } from './snapshot-view';
import { coverScreen, endScreen, menuScreen } from './story-screens';
import { bindSwipe } from './swipe';
import { createTelemetry } from './telemetry';
import { createTooltip } from './tooltip';
import type { Tracker } from './tracker';
import { collectVariables, fillText } from './variables';
import type { Button, Configuration, PlayableDemo, Step } from './wire';

export interface PlayerOptions {
  demo: PlayableDemo;
  assets?: AssetFallback;
  tracker: Pick<Tracker, 'track'> | null;
  embed: boolean;
  /** Lead forms' submissions (none: forms are shown but go on without sending). */
  leads?: Leads | null;
  /** The identified viewer: fills forms and variables. */
  viewer?: { name: string | null; email: string | null } | null;
  /** An offline file: forms say that they send nothing (docs/offline.md). */
  offline?: boolean;
  /** Form steps already sent (the gate's form): skipped. */
  passed?: ReadonlySet<number>;
  /** Values the viewer already gave (the gate's form). */
  known?: FormValues;
  /** Called once the first step's picture is on screen (for the first-paint performance mark). */
  onFirstPaint(): void;
}

const DEFAULT_ACCENT = '#4f46e5';

/** Another demo's share link, in this frame: an embedded player goes to the link's embeddable page. */
function openDemo(target: string, embed: boolean) {
  const url = safeUrl(target);
  if (!url) return;
  const next = new URL(url);
  if (embed && next.origin === location.origin) next.pathname = next.pathname.replace(/^\/s\//, '/embed/');
  location.assign(next.href);
}

/**
 * Plays `demo` inside `root`. The pieces: navigation (player-state) decides where the viewer is, the
 * view (render-step, with snapshot-view, hotspot, tooltip, end-card and the story's screens) draws it,
 * telemetry tells the server and the host page.
 */
export function mountPlayer(root: HTMLElement, { demo, assets, tracker, embed, leads, viewer, passed, known: given, offline, onFirstPaint }: PlayerOptions) {
  const steps: Step[] = [...demo.steps].sort((a, b) => a.number - b.number);
  // Read defensively: a payload cached from an older server may lack options added since.
  const config: Partial<Configuration> = demo.configuration ?? {};
  const accent = /^#[0-9a-f]{6}$/i.test(config.theme_color ?? '') ? (config.theme_color as string) : DEFAULT_ACCENT;
  const cta = config.call_to_action && safeUrl(config.call_to_action.url) ? config.call_to_action : null;
  const autoplayMs = config.autoplay?.enabled ? Math.max(1, config.autoplay.delay_seconds ?? 5) * 1000 : 0;
  const params = new URLSearchParams(location.search);

  // What the viewer told us (identification, forms): fills later forms and the variables.
  const known: Record<string, string> = {};
  if (viewer?.name) {
    known.name = viewer.name;
    known.first_name = viewer.name.split(/\s+/)[0] ?? '';
  }
  if (viewer?.email) known.email = viewer.email;
  for (const [name, value] of Object.entries(given ?? {})) if (typeof value === 'string') known[name] = value;
  const variables = () => collectVariables({ link: demo.variables ?? null, url: params, values: known });
  let vars = variables();
  const remember = (values: FormValues) => {
    for (const [name, value] of Object.entries(values)) if (typeof value === 'string') known[name] = value;
    if (known.name && !values.first_name) known.first_name ??= known.name.split(/\s+/)[0] ?? '';
    vars = variables();
  };

  const telemetry = createTelemetry(tracker, steps);
  const tip = createTooltip();

  /** A button of a step: a call to action is counted as one; then its action. */
  function press(step: Step, button: Button) {
    if (button.cta || (kindOf(step) === 'end' && (button.action.type === 'url' || button.action.type === 'demo'))) {
      telemetry.ctaClicked(String(button.action.target ?? ''), step, button.id);
    }
    nav.act(button);
  }

  function screen(step: Step): [HTMLElement, HTMLElement] | null {
    const options = { step, vars, press: (button: Button) => press(step, button) };
    switch (kindOf(step)) {
      case 'cover':
        return coverScreen(options, fillText(demo.title, vars));
      case 'chapter_menu':
        return menuScreen(options, (id) => nav.visited(id));
      case 'end':
        return endScreen(options, () => nav.replay());
      case 'form': {
        if (!step.form) return null;
        telemetry.form('form_shown', step);
        // The submit button's target, when the author gave one: where the form leads once sent.
        const submit = step.buttons?.find((b) => b.action.type === 'submit') ?? { id: 'submit', action: { type: 'submit' as const } };
        return formScreen({
          step,
          form: step.form,
          vars,
          known,
          params,
          started: () => telemetry.form('form_started', step),
          note: offline ? 'This is an offline copy of the demo: what you enter here stays on this page and is not sent to anyone.' : undefined,
          submit: async (values) => (leads ? leads.submit(step.number, values) : { status: 'queued' }),
          done: (values) => {
            telemetry.form('form_submitted', step);
            remember(values);
            nav.act(submit);
          },
          skip: () => nav.act({ id: 'skip', action: { type: 'next' } }),
        });
      }
      default:
        return null;
    }
  }

  const view = createStepView({
    title: fillText(demo.title, vars),
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
    vars: () => vars,
    press,
    screen,
    onFirstPaint,
  });
  root.replaceChildren(view.el);

  if (steps.length === 0) {
    view.showEmpty();
    onFirstPaint();
    return;
  }

  const nav = createNavigation(steps, demo.chapters ?? [], view, telemetry, autoplayMs, (url) => openDemo(url, embed), passed);
  if (config.navigation?.keyboard !== false) bindKeys(nav);
  bindSwipe(view.el, view.frame, nav);
  new ResizeObserver(() => view.relayout()).observe(view.wrap);
  nav.start();
}
