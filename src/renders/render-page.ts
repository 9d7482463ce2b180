// The page a render films: the real player (dist/player) at a private origin inside Chromium, its viewer API answered from the published payload, plus an overlay (cursor, highlight, caption).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Route } from 'playwright-core';
import { scriptJson } from '../core/html';

/** The origin the render page is served at: never resolved, every request is answered by the route below. */
export const RENDER_ORIGIN = 'http://render.demoshare.invalid';
/** The viewer token the render page's player uses: its API calls are answered here, never by the server. */
export const RENDER_TOKEN = 'render';

const PLAYER_ROOT = fileURLToPath(new URL('../../dist/player', import.meta.url));

/** What the page needs from the demo: the player's payload (asset addresses under RENDER_ORIGIN) and its assets. */
export interface RenderSource {
  /** The viewer payload (GET /v1/viewer/:token/demo's data) of the published version. */
  payload: { title: string; brand: unknown; steps: Array<{ number: number; kind?: string; title: string; description: string }> };
  /** An asset the payload names (a snapshot with its page patches when `patches` is its hash). */
  asset(assetId: string, patches: string | undefined): Promise<{ contentType: string; bytes: Buffer } | undefined>;
}

/** The address the payload gives an asset: the render page's own, answered by {@link routeRenderPage}. */
export const renderAssetUrl = (assetId: string) => `${RENDER_ORIGIN}/v1/viewer/${RENDER_TOKEN}/assets/${assetId}`;

function shell(brand: unknown): string {
  const config = scriptJson({ token: RENDER_TOKEN, embed: false, status: 200, brand });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<script id="demoshare-player-config" type="application/json">${config}</script>
<link rel="stylesheet" href="/player/player.css"><script type="module" src="/player/player.js"></script>
</head><body><div id="player"></div></body></html>`;
}

/**
 * Answers every request of the context: the shell, the player bundle, the viewer API (state, demo, events)
 * and the assets. Anything else (another origin, a captured page's remote resources) is refused: a render
 * opens no connection.
 */
export async function routeRenderPage(context: BrowserContext, source: RenderSource): Promise<void> {
  const [js, css] = await Promise.all([readFile(`${PLAYER_ROOT}/player.js`), readFile(`${PLAYER_ROOT}/player.css`)]);
  const api = `/v1/viewer/${RENDER_TOKEN}`;
  const state = {
    gate: 'ready',
    share: { require_identification: false, has_password: false },
    fields: [],
    brand: source.payload.brand,
    title: source.payload.title,
  };
  const json = (route: Route, data: unknown) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data, meta: { request_id: 'req_render' } }) });

  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== RENDER_ORIGIN) return route.abort('blockedbyclient');
    const path = url.pathname;
    if (path === '/') return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: shell(source.payload.brand) });
    if (path === '/player/player.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: js });
    if (path === '/player/player.css') return route.fulfill({ status: 200, contentType: 'text/css', body: css });
    if (path === api || path === `${api}/`) return json(route, state);
    if (path === `${api}/demo`) return json(route, source.payload);
    if (path.startsWith(`${api}/events`) || path.startsWith(`${api}/leads`)) return route.fulfill({ status: 202, body: '' });
    const asset = path.startsWith(`${api}/assets/`) ? path.slice(`${api}/assets/`.length) : null;
    if (asset) {
      const found = await source.asset(decodeURIComponent(asset), url.searchParams.get('patches') ?? undefined).catch(() => undefined);
      if (found) return route.fulfill({ status: 200, contentType: found.contentType, body: found.bytes });
    }
    return route.fulfill({ status: 404, body: '' });
  });
  await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'blocked' }));
}

/**
 * The overlay put over the player (runs in the page): a cursor, a highlight around the target, the step's
 * text as a caption; the player's own bar and buttons hidden (a video has no one to press them), and no
 * transitions or animations, so that each frame shows a settled state.
 */
export function installOverlay(o: { accent: string; width: number; height: number }) {
  const style = document.createElement('style');
  const cursor = Math.max(18, Math.round(o.height / 28));
  const font = Math.max(13, Math.round(Math.min(o.width / 56, o.height / 30)));
  style.textContent = `
*,*::before,*::after{transition:none!important;animation:none!important;caret-color:transparent!important}
.ds-bar{display:none!important}
#rnd-cursor{position:fixed;left:0;top:0;width:${cursor}px;height:${Math.round(cursor * 1.5)}px;z-index:2147483647;pointer-events:none;filter:drop-shadow(0 1px 2px rgba(0,0,0,.45))}
#rnd-cursor.pressed svg{transform:scale(.85);transform-origin:0 0}
#rnd-ripple{position:fixed;width:${cursor * 2}px;height:${cursor * 2}px;margin:-${cursor}px 0 0 -${cursor}px;border-radius:50%;background:${o.accent};opacity:.35;z-index:2147483646;pointer-events:none;display:none}
#rnd-spot{position:fixed;z-index:2147483645;pointer-events:none;border:3px solid ${o.accent};border-radius:10px;box-shadow:0 0 0 9999px rgba(15,23,42,.28);display:none}
#rnd-caption{position:fixed;left:50%;bottom:${Math.round(o.height * 0.04)}px;transform:translateX(-50%);max-width:min(88vw,${Math.round(font * 42)}px);z-index:2147483646;pointer-events:none;
background:rgba(15,23,42,.88);color:#fff;border-radius:${Math.round(font * 0.6)}px;padding:${Math.round(font * 0.55)}px ${Math.round(font * 0.9)}px;font:400 ${font}px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:center;box-shadow:0 4px 18px rgba(0,0,0,.25)}
#rnd-caption b{display:block;font-weight:650;font-size:${Math.round(font * 1.08)}px;margin-bottom:${Math.round(font * 0.15)}px}
#rnd-caption:empty{display:none}`;
  document.head.appendChild(style);
  const el = (id: string) => {
    const node = document.createElement('div');
    node.id = id;
    document.body.appendChild(node);
    return node;
  };
  el('rnd-spot');
  el('rnd-caption');
  el('rnd-ripple');
  el('rnd-cursor').innerHTML =
    '<svg viewBox="0 0 16 24" width="100%" height="100%"><path d="M1 1 L1 19 L5.5 14.8 L8.6 22 L11.6 20.7 L8.6 13.6 L14.5 13.6 Z" fill="#fff" stroke="#111" stroke-width="1.3" stroke-linejoin="round"/></svg>';
}

/** Sets the overlay for the next frame (runs in the page). */
export function setOverlay(s: {
  x: number;
  y: number;
  pressed: boolean;
  spot: { x: number; y: number; width: number; height: number } | null;
  caption?: { title: string; text: string };
}) {
  const cursor = document.getElementById('rnd-cursor')!;
  cursor.style.transform = `translate(${s.x}px,${s.y}px)`;
  cursor.classList.toggle('pressed', s.pressed);
  const ripple = document.getElementById('rnd-ripple')!;
  ripple.style.display = s.pressed ? 'block' : 'none';
  ripple.style.left = `${s.x}px`;
  ripple.style.top = `${s.y}px`;
  const spot = document.getElementById('rnd-spot')!;
  if (s.spot) {
    const pad = 6;
    Object.assign(spot.style, {
      display: 'block',
      left: `${s.spot.x - pad}px`,
      top: `${s.spot.y - pad}px`,
      width: `${s.spot.width + pad * 2}px`,
      height: `${s.spot.height + pad * 2}px`,
    });
  } else spot.style.display = 'none';
  if (s.caption) {
    const caption = document.getElementById('rnd-caption')!;
    caption.replaceChildren();
    if (s.caption.title) caption.appendChild(document.createElement('b')).textContent = s.caption.title;
    if (s.caption.text) caption.appendChild(document.createTextNode(s.caption.text));
  }
}

/**
 * Whether step `n` of `total` is on screen and its picture loaded (runs in the page); then the box of
 * what the cursor goes to: the step's first visible hotspot, else a story screen's first button.
 */
export function stepOnScreen(a: { n: number; total: number }) {
  const count = document.querySelector('.ds-count');
  if (!count || count.textContent !== `Step ${a.n} of ${a.total}`) return null;
  const img = document.querySelector<HTMLImageElement>('img.ds-shot');
  if (img && !(img.complete && img.naturalWidth > 0)) return null;
  const visible = (e: Element) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth ? r : null;
  };
  const candidates = [...document.querySelectorAll('.ds-hotspot'), ...document.querySelectorAll('.ds-panel-wrap button, .ds-panel-wrap a')];
  for (const c of candidates) {
    const r = visible(c);
    if (r) return { target: { x: r.left, y: r.top, width: r.width, height: r.height } };
  }
  return { target: null };
}
