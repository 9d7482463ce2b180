import { type Brand, readBrand } from './brand';

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
