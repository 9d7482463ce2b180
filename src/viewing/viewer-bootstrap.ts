// What the viewer page inlines so that the player paints without waiting on its first API requests.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import type { DemoPayload } from './viewer-cache';
import { consentPending, linkStateAnswer, viewerCookieName, visitorOf } from './viewer.routes';
import { viewerStateSchema } from './viewer.schemas';

/** A page's bootstrap: the JSON text of the data block, and the first step's picture to preload. */
export interface PageBootstrap {
  json: string;
  firstImage: string | null;
}

/**
 * JSON inside a script element: `<` escaped so that no value can close the element (`</script>`, `<!--`),
 * and U+2028/U+2029 too, so that the text stays valid wherever it is read as script.
 */
export const scriptJson = (json: string) =>
  json.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/**
 * A browser opening the page to show it: a top-level navigation (/s/) or a frame (/embed/), not a prefetch,
 * a link unfurler or a script. Only then does the page do what the player would do at once (open a viewer
 * session, record the gate decision); anything else gets the page without a bootstrap, as before.
 */
export function isBrowserNavigation(request: FastifyRequest, embed: boolean): boolean {
  const h = request.headers;
  if (h['sec-fetch-mode'] !== 'navigate') return false;
  if (h['sec-purpose'] || h.purpose) return false;
  const dest = h['sec-fetch-dest'];
  return embed ? dest === 'iframe' || dest === 'document' : dest === 'document';
}

/** The player's languages as it would ask the payload for them (player/src/language.ts): `?lang=`, then Accept-Language. */
export function pageLanguages(request: FastifyRequest): string[] {
  const asked = (request.query as { lang?: unknown }).lang;
  const browser = String(request.headers['accept-language'] ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
  return [...(typeof asked === 'string' && asked ? asked.split(',') : []), ...browser]
    .map((l) => l.trim())
    .filter((l, i, all) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(l) && all.indexOf(l) === i)
    .slice(0, 10);
}

/**
 * The player's first requests answered in the page: the link state (GET /v1/viewer/:token, which opens the
 * viewer session at the `ready` gate, with its cookie unless consent is pending) and, once the gates let
 * this viewer play, the payload (GET /v1/viewer/:token/demo). A gated link carries its state alone: what the
 * gate shows, nothing behind it. The player uses it once and fetches when it is absent or not its own
 * (player/src/api.ts).
 */
export function pageBootstrap(ctx: ModuleContext<Services['viewing']>) {
  const { viewer } = ctx.services;
  const stateAnswer = linkStateAnswer(ctx);
  // By cached payload: a payload is parsed once for its first picture, not on every page load.
  const firstImages = new WeakMap<DemoPayload, string | null>();
  const firstImageOf = (payload: DemoPayload) => {
    let found = firstImages.get(payload);
    if (found === undefined) {
      found = (JSON.parse(payload.json) as { steps: { image_url: string | null }[] }).steps[0]?.image_url ?? null;
      firstImages.set(payload, found);
    }
    return found;
  };
  return async (request: FastifyRequest, reply: FastifyReply, token: string): Promise<PageBootstrap> => {
    const consent = (request.query as { consent?: unknown }).consent;
    // ?consent=pending (or denied) is what makes the player send X-Viewer-Consent: pending (docs/consent.md).
    const pending = consent === 'pending' || consent === 'denied' || consentPending(request);
    const cookie = request.cookies[viewerCookieName(token)];
    const visitor = { ...visitorOf(request), consentPending: pending };
    const result = await viewer.state(token, cookie, visitor);
    const state = JSON.stringify(z.encode(viewerStateSchema, await stateAnswer(reply, token, result, pending)));
    const languages = pageLanguages(request);
    let demo = '';
    let firstImage: string | null = null;
    if (result.gate === 'ready') {
      const payload = await viewer.demo(token, result.issued ?? cookie, visitor, languages);
      demo = `,"demo":${payload.json}`;
      firstImage = firstImageOf(payload);
    }
    // `cookie`: whether the page saw the viewer's session cookie, for a player holding a session of its own.
    const json = `{"state":${state},"cookie":${cookie !== undefined},"lang":${JSON.stringify(languages.join(','))}${demo}}`;
    return { json: scriptJson(json), firstImage };
  };
}
