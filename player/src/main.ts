import './player.css';
import { ViewerError, viewerApi } from './api';
import { readBootConfig } from './config';
import { h } from './dom';
import { identifyScreen, passwordScreen, problemScreen } from './gates';
import { mountPlayer } from './player';
import { Tracker } from './tracker';
import type { PlayableDemo, ViewerState } from './wire';

// Marks for the bench and the browser test: from navigation start to the first step on screen.
performance.mark('demoshare:start');

const root =
  document.getElementById('demoshare-player') ?? document.getElementById('player') ?? document.body.appendChild(h('div', {}));
root.classList.add('ds-root');
const boot = readBootConfig();

function loading() {
  root.replaceChildren(
    h('div', { class: 'ds-screen ds-loading', role: 'status', 'aria-live': 'polite' }, h('span', { class: 'ds-spinner', 'aria-hidden': 'true' }), 'Loading demo…'),
  );
}

const asError = (err: unknown) => (err instanceof ViewerError ? err : new ViewerError(0, 'internal_error', 'Something went wrong.'));

function fail(err: unknown, retry: () => void) {
  root.replaceChildren(problemScreen(asError(err), retry));
  document.title = 'Demo unavailable · Demoshare';
}

if (!boot) {
  fail(new ViewerError(404, 'not_found', 'No demo link'), () => location.reload());
} else {
  const api = viewerApi(boot);
  let tracker: Tracker | null = null;

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

  async function advance(state: Pick<ViewerState, 'gate'>) {
    if (state.gate === 'password') {
      document.title = 'Password required · Demoshare';
      root.replaceChildren(passwordScreen(api, (next) => void advance(next).catch((err) => fail(err, start))));
      root.querySelector('input')?.focus();
      return;
    }
    if (state.gate === 'identification') {
      document.title = 'Identify yourself · Demoshare';
      root.replaceChildren(identifyScreen(api, (next) => void advance(next).catch((err) => fail(err, start))));
      root.querySelector('input')?.focus();
      return;
    }
    loading();
    const demo: PlayableDemo = await api.demo();
    performance.mark('demoshare:demo');
    document.title = `${demo.title} · Demoshare`;
    tracker ??= new Tracker(api, boot!.token);
    mountPlayer(root, {
      demo,
      assets: api,
      tracker,
      embed: boot!.embed,
      onFirstPaint: () => {
        performance.mark('demoshare:first-step');
        performance.measure('demoshare:open-to-first-step', { start: 0, end: 'demoshare:first-step' });
      },
    });
  }

  void start();
}
