import { ViewerError } from './api';
import { applyBrand, pageTitle, readBrand } from './brand';
import { mountPlayer } from './player';
import type { Consent } from './consent';
import { askBeaconConsent } from './offline-consent';
import { Tracker } from './tracker';
import { collectVariables, fillText } from './variables';
import type { PlayableDemo, TrackedEvent } from './wire';

// The offline file's source (docs/offline.md): the demo, its pictures and its snapshots come from the page
// itself, written there by GET /v1/demos/:id/export/offline (src/offline/offline-bundle.ts). No API, no
// gates; lead forms say that they send nothing. The one request such a page may make is the optional
// beacon, to the instance that made it.

export interface OfflineBundle {
  format: 'demoshare-offline';
  version: number;
  demo: PlayableDemo;
  /** Keys of the payload (image_url, brand.logo_url) → data: URLs. */
  assets: Record<string, string>;
  /** Keys of the payload (html_url) → the snapshot's HTML, made offline. */
  snapshots: Record<string, string>;
  /** `ask`: only once the person viewing the file allowed it (offline-consent.ts). */
  beacon: { url: string; ask?: boolean } | null;
}

/** The offline data block, when this page is an offline file (`<script type="application/json" id="demoshare-offline">`). */
export function readOfflineBundle(): OfflineBundle | null {
  const block = document.getElementById('demoshare-offline');
  if (!block?.textContent) return null;
  try {
    const raw = JSON.parse(block.textContent) as Partial<OfflineBundle> | null;
    if (raw?.format !== 'demoshare-offline' || !raw.demo || !Array.isArray(raw.demo.steps)) return null;
    return { ...raw, assets: raw.assets ?? {}, snapshots: raw.snapshots ?? {}, beacon: raw.beacon ?? null } as OfflineBundle;
  } catch {
    return null;
  }
}

/**
 * The beacon (export with beacon=true or ask): events posted as text/plain (no CORS preflight from file:// or
 * a static host) with the session the instance gave the first batch, so one viewer is one view. Without
 * `consent` granted nothing is sent or stored: the tracker keeps its events and tries again once it is;
 * once refused, it drops them.
 */
function beaconApi(url: string, consent: Consent | null) {
  const key = `demoshare:offline-session:${url}`;
  const allowed = () => !consent || consent.granted();
  let session: string | null = null;
  let read = false;
  async function post(events: TrackedEvent[], keepalive: boolean) {
    // Refused during the visit: a refusal the tracker takes as final (a 4xx), so it drops what it holds and
    // stops trying, instead of retrying every 30 s for as long as the page stays open.
    if (consent?.state() === 'denied') throw new ViewerError(403, 'consent_denied', 'The viewer refused the statistics');
    if (!allowed()) throw new ViewerError(0, 'network_error', 'Waiting for the viewer to allow the statistics');
    if (!read) {
      read = true;
      try {
        session = localStorage.getItem(key);
      } catch {
        session = null;
      }
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ ...(session ? { session_token: session } : {}), events }),
        credentials: 'omit',
        keepalive,
      });
    } catch {
      throw new ViewerError(0, 'network_error', 'Offline');
    }
    if (!response.ok) throw new ViewerError(response.status, 'refused', `The server answered ${response.status}.`);
    const answer = (await response.json().catch(() => null)) as { data?: { session_token?: string } } | null;
    if (answer?.data?.session_token) {
      session = answer.data.session_token;
      try {
        localStorage.setItem(key, session);
      } catch {
        // Blocked storage: the session lives as long as the page.
      }
    }
  }
  return {
    events: (events: TrackedEvent[]) => post(events, false),
    keepalive: (events: TrackedEvent[] | unknown): Promise<undefined> =>
      (allowed() ? post(events as TrackedEvent[], true) : Promise.resolve()).then(
        () => undefined,
        () => undefined,
      ),
  };
}

/** Plays the offline file's demo in `root`. */
export function playOffline(root: HTMLElement, bundle: OfflineBundle) {
  const asset = (key: string | null | undefined) => (key ? (bundle.assets[key] ?? null) : null);
  const raw = bundle.demo;
  const brand = readBrand(raw.brand ? { ...raw.brand, logo_url: asset(raw.brand.logo_url) } : null);
  const demo: PlayableDemo = { ...raw, brand: brand as PlayableDemo['brand'], steps: raw.steps.map((s) => ({ ...s, image_url: asset(s.image_url) })) };
  applyBrand(root, brand);
  document.title = pageTitle(fillText(demo.title, collectVariables({ link: demo.variables ?? null, url: new URLSearchParams(location.search) })), brand);
  const { beacon } = bundle;
  // beacon=ask: asked first; refused on this device before, the file has no beacon (offline-consent.ts).
  const consent = beacon?.ask ? askBeaconConsent(document.body, beacon.url, brand) : null;
  const tracker =
    beacon && (!beacon.ask || consent) ? new Tracker(beaconApi(beacon.url, consent), `offline:${beacon.url}`, consent ?? undefined) : null;
  mountPlayer(root, {
    demo,
    assets: {
      assetAsDataUrl: async () => null,
      assetText: async (key) => bundle.snapshots[key] ?? null,
    },
    tracker,
    leads: null,
    offline: true,
    embed: window.parent !== window,
    onFirstPaint: () => performance.mark('demoshare:first-step'),
  });
}
