// The hub page: its gate, then the demos by collection with search, each opened in the player in an overlay.
import { applyBrand, brandLogo, readBrand, type Brand } from '../../player/src/brand';
import { h, ICONS, icon, safeUrl } from '../../player/src/dom';
import { type Card, HubError, type HubState, hubApi } from './api';
import { gateView } from './gate';
import './hub.css';

interface Boot {
  token: string;
  embed: boolean;
  status: number;
  consent: 'pending' | 'granted';
  brand: unknown;
}

function readBoot(): Boot | null {
  const block = document.getElementById('demoshare-hub-config');
  try {
    const raw = JSON.parse(block?.textContent ?? '') as Partial<Boot>;
    if (typeof raw.token !== 'string') return null;
    return { token: raw.token, embed: raw.embed === true, status: Number(raw.status) || 200, consent: raw.consent === 'pending' ? 'pending' : 'granted', brand: raw.brand };
  } catch {
    return null;
  }
}

const CONSENT_MESSAGE = 'demoshare:consent';

function start() {
  const root = document.getElementById('hub');
  const boot = readBoot();
  if (!root || !boot) return;
  let brand: Brand | null = readBrand(boot.brand);
  applyBrand(document.documentElement, brand);
  const consent = { pending: boot.consent === 'pending' };
  const api = hubApi(boot.token, consent);
  let frame: HTMLIFrameElement | null = null;

  // The host page grants consent later (docs/consent.md): from then on cookies may be set, and the player
  // open in the overlay hears the same message.
  window.addEventListener('message', (event) => {
    const data = event.data as { type?: string; granted?: boolean } | null;
    if (event.source !== window.parent || data?.type !== CONSENT_MESSAGE || data.granted !== true) return;
    consent.pending = false;
    frame?.contentWindow?.postMessage({ type: CONSENT_MESSAGE, granted: true }, location.origin);
  });

  const message = (title: string, text: string) =>
    root.replaceChildren(h('main', { class: 'hub-message' }, brandLogo(brand, 'hub-logo'), h('h1', {}, title), h('p', {}, text)));

  if (boot.status === 410) return message('This hub has expired', 'Ask the person who shared it for a new link.');
  if (boot.status !== 200) return message('This hub does not exist', 'The link may be mistyped, or the hub was removed.');

  function render(state: HubState) {
    brand = readBrand(state.hub.brand) ?? brand;
    applyBrand(document.documentElement, brand);
    if (state.gate !== 'ready') {
      root!.replaceChildren(
        gateView(state, brand, async (form) => {
          const next = await api.access(form);
          render(next);
        }),
      );
      return;
    }
    root!.replaceChildren(hubView(state));
    const wanted = /^#demo=([\w-]+)$/.exec(location.hash)?.[1];
    const card = wanted ? state.collections.flatMap((c) => c.entries).find((e) => e.id === wanted) : undefined;
    if (card) void openDemo(card, false);
  }

  function header(state: HubState) {
    const cta = state.hub.cta_label && state.hub.cta_url ? safeUrl(state.hub.cta_url) : null;
    return h(
      'header',
      { class: 'hub-header' },
      h('div', { class: 'hub-brand' }, brandLogo(brand, 'hub-logo') ?? h('span', { class: 'hub-name' }, brand?.name ?? '')),
      cta ? h('a', { class: 'hub-cta', href: cta, target: '_blank', rel: 'noopener' }, state.hub.cta_label) : null,
    );
  }

  function cardView(card: Card) {
    const cover = h('div', { class: 'hub-cover' }, h('span', { class: 'hub-cover-initial', 'aria-hidden': 'true' }, card.title.slice(0, 1)));
    const img = h('img', { src: card.cover_url, alt: '', loading: 'lazy', decoding: 'async' });
    img.addEventListener('error', () => img.remove());
    img.addEventListener('load', () => cover.classList.add('has-image'));
    cover.append(img);
    return h(
      'li',
      { class: 'hub-card' },
      h(
        'button',
        { type: 'button', class: 'hub-card-button', onclick: () => void openDemo(card, true), 'aria-label': `Open demo: ${card.title}` },
        cover,
        h(
          'span',
          { class: 'hub-card-body' },
          h('span', { class: 'hub-card-title' }, card.title),
          card.description ? h('span', { class: 'hub-card-text' }, card.description) : null,
          h('span', { class: 'hub-card-start' }, 'Start demo', icon(ICONS.next, 16)),
        ),
      ),
    );
  }

  function hubView(state: HubState) {
    const all = state.collections;
    let tab = 'all';
    let query = '';
    const sections = h('div', { class: 'hub-sections' });
    const empty = h('p', { class: 'hub-empty', hidden: true });
    const matches = (card: Card) => !query || `${card.title} ${card.description}`.toLowerCase().includes(query);
    function draw() {
      const shown = all
        .filter((c) => tab === 'all' || c.id === tab)
        .map((c) => ({ ...c, entries: c.entries.filter(matches) }))
        .filter((c) => c.entries.length > 0);
      sections.replaceChildren(
        ...shown.map((c) =>
          h(
            'section',
            { class: 'hub-section', 'aria-labelledby': `col-${c.id}` },
            h('h2', { id: `col-${c.id}` }, c.name),
            h('ul', { class: 'hub-grid' }, ...c.entries.map(cardView)),
          ),
        ),
      );
      empty.hidden = shown.length > 0;
      empty.textContent = query ? `No demos match “${query}”.` : 'No demos here yet.';
      for (const button of tabs.querySelectorAll('button')) button.setAttribute('aria-selected', String(button.dataset.tab === tab));
    }
    const tabButton = (id: string, label: string) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          'data-tab': id,
          onclick: () => {
            tab = id;
            draw();
          },
        },
        label,
      );
    const tabs = h('div', { class: 'hub-tabs', role: 'tablist', 'aria-label': 'Collections' }, tabButton('all', 'All'), ...all.map((c) => tabButton(c.id, c.name)));
    const search = h('input', { type: 'search', class: 'hub-search-input', placeholder: 'Search demos', 'aria-label': 'Search demos' });
    search.addEventListener('input', () => {
      query = search.value.trim().toLowerCase();
      draw();
    });
    draw();
    return h(
      'div',
      { class: 'hub-page' },
      header(state),
      h(
        'section',
        { class: 'hub-hero' },
        h('h1', {}, state.hub.title),
        state.hub.intro ? h('p', { class: 'hub-intro' }, state.hub.intro) : null,
        h('label', { class: 'hub-search' }, icon(ICONS.search, 18), search),
      ),
      all.length > 1 ? tabs : null,
      h('main', { class: 'hub-main' }, sections, empty),
    );
  }

  let lastFocus: HTMLElement | null = null;
  function closeDemo(fromHistory: boolean) {
    document.querySelector('.hub-overlay')?.remove();
    frame = null;
    document.body.classList.remove('hub-locked');
    if (!fromHistory && location.hash.startsWith('#demo=')) history.back();
    lastFocus?.focus();
  }

  async function openDemo(card: Card, push: boolean) {
    lastFocus = document.activeElement as HTMLElement | null;
    let opened: Awaited<ReturnType<typeof api.open>>;
    try {
      opened = await api.open(card.id);
    } catch (error) {
      if (error instanceof HubError && (error.status === 401 || error.status === 403)) return void api.state().then(render);
      window.alert(error instanceof Error ? error.message : 'This demo could not be opened');
      return;
    }
    const src = new URL(opened.embed_url, location.href);
    if (consent.pending) src.searchParams.set('consent', 'pending');
    // The session rides in the fragment: never sent to the server, never in a Referer; the player keeps it in memory.
    src.hash = `ds_session=${opened.session_token}`;
    frame = h('iframe', { class: 'hub-frame', src: src.pathname + src.search + src.hash, title: card.title, allow: 'fullscreen; clipboard-write', allowfullscreen: true });
    const back = h('button', { type: 'button', class: 'hub-back', onclick: () => closeDemo(false) }, icon(ICONS.prev, 18), 'All demos');
    const overlay = h(
      'div',
      { class: 'hub-overlay', role: 'dialog', 'aria-modal': 'true', 'aria-label': card.title },
      h('div', { class: 'hub-overlay-bar' }, back, h('span', { class: 'hub-overlay-title' }, card.title)),
      h('div', { class: 'hub-overlay-body' }, frame),
    );
    document.body.append(overlay);
    document.body.classList.add('hub-locked');
    back.focus();
    if (push) history.pushState({ demo: card.id }, '', `#demo=${card.id}`);
  }

  window.addEventListener('popstate', () => {
    if (!location.hash.startsWith('#demo=') && document.querySelector('.hub-overlay')) closeDemo(true);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && document.querySelector('.hub-overlay')) closeDemo(false);
  });

  api.state().then(render, (error: unknown) => {
    if (error instanceof HubError && error.status === 410) message('This hub has expired', 'Ask the person who shared it for a new link.');
    else message('This hub could not be loaded', error instanceof Error ? error.message : '');
  });
}

start();
