import './player.css';
import { ViewerError, viewerApi } from './api';
import { applyBrand, brandLogo, pageTitle, readBrand } from './brand';
import { readBootConfig } from './config';
import { h } from './dom';
import { gateScreen, problemScreen } from './gates';
import { createLeads, type Leads } from './leads';
import { mountPlayer } from './player';
import { Tracker } from './tracker';
import type { PlayableDemo, ViewerState } from './wire';

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

if (!boot) {
  fail(new ViewerError(404, 'not_found', 'No demo link'), () => location.reload());
} else {
  const api = viewerApi(boot);
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

  async function advance(state: ViewerState) {
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
    document.title = pageTitle(demo.title, readBrand(demo.brand) ?? boot!.brand);
    tracker ??= new Tracker(api, boot!.token);
    leads ??= createLeads(api, boot!.token);
    mountPlayer(root, {
      demo,
      assets: api,
      tracker,
      leads,
      viewer: state.viewer ?? null,
      embed: boot!.embed,
      onFirstPaint: () => {
        performance.mark('demoshare:first-step');
        performance.measure('demoshare:open-to-first-step', { start: 0, end: 'demoshare:first-step' });
      },
    });
  }

  void start();
}
