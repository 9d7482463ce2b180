import './player.css';
import { ViewerError, viewerApi } from './api';
import { applyBrand, brandLogo, pageTitle, readBrand } from './brand';
import { readBootConfig, readBootstrap } from './config';
import { createConsent } from './consent';
import { postToHost } from './embed';
import { h } from './dom';
import { gateScreen, problemScreen } from './gates';
import { createLeads, type Leads } from './leads';
import { mountPlayer } from './player';
import { playOffline, readOfflineBundle } from './static-source';
import { Tracker, uuid } from './tracker';
import { collectVariables, fillText } from './variables';
import type { PlayableDemo, Step, ViewerState } from './wire';
import { type FormValues, formScreen } from './form-view';

// Marks for the bench and the browser test: from navigation start to the first step on screen.
performance.mark('demoshare:start');

const root =
  document.getElementById('demoshare-player') ?? document.getElementById('player') ?? document.body.appendChild(h('div', {}));
root.classList.add('ds-root');
const boot = readBootConfig();
applyBrand(root, boot?.brand ?? null);

/** A gate or problem card under the workspace's logo. */
function branded(screen: HTMLElement): HTMLElement {
  const logo = brandLogo(boot?.brand ?? null, 'ds-card-logo');
  if (logo) screen.querySelector('.ds-card')?.prepend(logo);
  return screen;
}

function loading() {
  root.replaceChildren(
    h('div', { class: 'ds-screen ds-loading', role: 'status', 'aria-live': 'polite' }, h('span', { class: 'ds-spinner', 'aria-hidden': 'true' }), 'Loading demo…'),
  );
}

const asError = (err: unknown) => (err instanceof ViewerError ? err : new ViewerError(0, 'internal_error', 'Something went wrong.'));

function fail(err: unknown, retry: () => void) {
  root.replaceChildren(branded(problemScreen(asError(err), retry)));
  document.title = pageTitle('Demo unavailable', boot?.brand ?? null);
}

const offline = readOfflineBundle();
if (offline) {
  // An offline file (docs/offline.md): the demo is in the page; no API, no gates.
  playOffline(root, offline);
} else if (!boot) {
  fail(new ViewerError(404, 'not_found', 'No demo link'), () => location.reload());
} else {
  // Before anything is stored: an embed opened with ?consent=pending waits for its page (docs/consent.md).
  const consent = createConsent(location.search);
  consent.onChange((granted) => postToHost({ type: 'consent_changed', granted }));
  if (consent.state() !== 'granted') postToHost({ type: 'consent_pending' });
  const api = viewerApi(boot, consent, readBootstrap());
  let tracker: Tracker | null = null;
  let leads: Leads | null = null;

  const start = async () => {
    loading();
    try {
      const state = await api.state();
      performance.mark('demoshare:state');
      await advance(state);
    } catch (err) {
      fail(err, start);
    }
  };

  // The lead form that stood in for the identification gate: its step is not shown again in the demo,
  // and its answers are what the viewer is known by.
  const passed = new Set<number>();
  let gateValues: FormValues = {};

  /** The demo's own lead form as the identification gate (contract-leads.md, docs/player.md). */
  function gateForm(state: ViewerState & { form: NonNullable<ViewerState['form']> }) {
    const brand = readBrand(state.brand) ?? boot!.brand;
    document.title = pageTitle(state.title ?? 'Demo', brand);
    const step = { number: state.form.step_number, title: state.title ?? 'Before the demo', description: 'Tell us who you are to watch this demo.' } as Step;
    const [panel, focus] = formScreen({
      step,
      form: { fields: state.form.fields, submit_label: state.form.submit_label, gate: true, skippable: false },
      vars: {},
      known: {},
      params: new URLSearchParams(location.search),
      started: () => {},
      submit: async (values) => {
        try {
          const answer = await api.gateLead({ id: uuid(), step_number: step.number, values });
          if (answer.gate && answer.gate !== 'ready') return { status: 'refused', message: 'This demo still asks for something else first.' };
          return { status: 'stored', identified: answer.identified };
        } catch (err) {
          const e = asError(err);
          const errors: Record<string, string> = {};
          for (const d of e.details) if (d.field.startsWith('values.')) errors[d.field.slice(7)] = d.message;
          if (Object.keys(errors).length) return { status: 'invalid', errors, message: e.message };
          return { status: 'refused', message: e.message };
        }
      },
      done: (values) => {
        passed.add(step.number);
        gateValues = values;
        void api
          .state()
          .then(advance)
          .catch((err) => fail(err, start));
      },
      skip: () => {},
    });
    const screen = h('main', { class: 'ds-screen ds-gate-form' }, panel);
    applyBrand(screen, brand);
    root.replaceChildren(screen);
    focus.focus();
  }

  async function advance(state: ViewerState) {
    if (state.gate === 'identification' && state.form) return gateForm({ ...state, form: state.form });
    if (state.gate !== 'ready') {
      // The one gate: whatever the link still asks for, in one form under the workspace's brand.
      const brand = readBrand(state.brand) ?? boot!.brand;
      document.title = pageTitle(state.title ?? 'Protected demo', brand);
      root.replaceChildren(branded(gateScreen(api, { ...state, brand }, (next) => void advance(next).catch((err) => fail(err, start)))));
      root.querySelector('input')?.focus();
      return;
    }
    loading();
    const demo: PlayableDemo = await api.demo();
    performance.mark('demoshare:demo');
    if (demo.language) document.documentElement.lang = demo.language;
    // The tab's title as the header shows it: personalised by the link's values and the URL's.
    const titleVars = collectVariables({ link: demo.variables ?? null, url: new URLSearchParams(location.search) });
    document.title = pageTitle(fillText(demo.title, titleVars), readBrand(demo.brand) ?? boot!.brand);
    tracker ??= new Tracker(api, boot!.token, consent);
    leads ??= createLeads(api, boot!.token, consent);
    // The view's first events wait for the first step's picture: on a busy server they would go before it.
    const painted = tracker.hold();
    mountPlayer(root, {
      demo,
      assets: api,
      tracker,
      leads,
      viewer: state.viewer ?? null,
      passed,
      known: gateValues,
      embed: boot!.embed,
      onFirstPaint: () => {
        painted();
        performance.mark('demoshare:first-step');
        performance.measure('demoshare:open-to-first-step', { start: 0, end: 'demoshare:first-step' });
      },
    });
  }

  void start();
}
