import { type Brand, readBrand } from './brand';
import type { PlayableDemo, ViewerState } from './wire';

/**
 * What the server's viewer page passes to the player, in a JSON script block:
 * `<script type="application/json" id="demoshare-player-config">{"token": "...", "embed": false}</script>`
 * (`demoshare-viewer` is accepted too).
 */
export interface BootConfig {
  token: string;
  embed: boolean;
  /** Where the /v1 API lives when it is not this page's origin. */
  apiBase: string;
  /** The sharing workspace's brand, when the link leads to a demo (not on a 404 or 410 page). */
  brand: Brand | null;
}

export function readBootConfig(): BootConfig | null {
  const block = document.getElementById('demoshare-player-config') ?? document.getElementById('demoshare-viewer');
  if (!block?.textContent) return null;
  try {
    const raw = JSON.parse(block.textContent) as { token?: unknown; embed?: unknown; api_base?: unknown; brand?: unknown };
    if (typeof raw.token !== 'string' || !raw.token) return null;
    return {
      token: raw.token,
      embed: raw.embed === true,
      apiBase: typeof raw.api_base === 'string' ? raw.api_base.replace(/\/+$/, '') : '',
      brand: readBrand(raw.brand),
    };
  } catch {
    return null;
  }
}

/**
 * The player's first answers, inlined by the server's viewer page (src/viewing/viewer-bootstrap.ts): the
 * link state and, when the viewer may play, the payload, as GET /v1/viewer/:token and …/demo would answer.
 */
export interface Bootstrap {
  state: ViewerState;
  /** Only once the gates let this viewer play. */
  demo?: PlayableDemo;
  /** The languages the page chose the payload for, as the player's `lang` query would list them. */
  lang: string;
  /** Whether the page saw this link's session cookie (so its state is the one the API would answer). */
  cookie: boolean;
}

export function readBootstrap(): Bootstrap | null {
  const block = document.getElementById('demoshare-bootstrap');
  if (!block?.textContent) return null;
  try {
    const raw = JSON.parse(block.textContent) as Partial<Bootstrap>;
    if (!raw.state || typeof raw.state !== 'object' || typeof raw.state.gate !== 'string') return null;
    return { state: raw.state, demo: raw.demo, lang: typeof raw.lang === 'string' ? raw.lang : '', cookie: raw.cookie === true };
  } catch {
    return null;
  }
}
