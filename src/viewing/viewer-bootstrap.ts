// What the viewer page inlines so that the player paints without waiting on its first API requests.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { randomToken } from '../core/crypto';
import { scriptJsonText } from '../core/html';
import type { DemoPayload, LinkState } from './viewer-cache';
import type { ViewerSessionRow } from './viewer.repo';
import { consentPending, linkStateAnswer, viewerCookie, viewerCookieName, visitorOf } from './viewer.routes';
import { viewerStateSchema } from './viewer.schemas';
import type { Gate, Visitor } from './viewer-gates.resolve';

/** A page's bootstrap: the JSON text of the data block. */
export interface PageBootstrap {
  json: string;
}


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

/** What the page decided before its headers went: who asks, and the new session's token if one is opened. */
export interface BootstrapPlan {
  token: string;
  cookie: string | undefined;
  visitor: Visitor;
  pending: boolean;
  languages: string[];
  /** The token of the session the page opens (its cookie already set on the answer unless consent is pending). */
  newToken?: string;
  /** The first step's picture, for the head to ask for at once: only when the gates let this viewer play. */
  firstImage: string | null;
}

/**
 * The player's first requests answered in the page: the link state (GET /v1/viewer/:token, which opens the
 * viewer session at the `ready` gate, with its cookie unless consent is pending) and, once the gates let
 * this viewer play, the payload (GET /v1/viewer/:token/demo). A gated link carries its state alone: what the
 * gate shows, nothing behind it. The player uses it once and fetches when it is absent or not its own
 * (player/src/api.ts).
 *
 * In two steps, so that the page's head (first picture, stylesheet, script) goes out while the session is
 * written: `plan` before the headers (a viewer the gates let play and who has no session gets a token drawn
 * now, and its cookie in the headers), `finish` after them (the session written, the state and the payload).
 */
export function pageBootstrap(ctx: ModuleContext<Services['viewing']>) {
  const { viewer } = ctx.services;
  const stateAnswer = linkStateAnswer(ctx);
  const setCookie = viewerCookie(ctx);
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

  /**
   * Before the headers: `resolved` is the gates' answer for this request's cookie. A viewer they let play
   * gets the first step's picture named now (`firstImage`), for the head: the asset route lets the same
   * viewer have it already (an open link needs no session; any other has its session already).
   */
  async function plan(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    resolved: { gate: Gate; session?: ViewerSessionRow; link: LinkState },
  ): Promise<BootstrapPlan> {
    const consent = (request.query as { consent?: unknown }).consent;
    // ?consent=pending (or denied) is what makes the player send X-Viewer-Consent: pending (docs/consent.md).
    const pending = consent === 'pending' || consent === 'denied' || consentPending(request);
    const cookie = request.cookies[viewerCookieName(token)];
    const visitor = { ...visitorOf(request), consentPending: pending };
    const languages = pageLanguages(request);
    const ready = resolved.gate === 'ready';
    const firstImage = ready ? firstImageOf(await viewer.servedPayload(token, resolved.link, languages)) : null;
    const newToken = ready && !resolved.session ? randomToken(32) : undefined;
    if (newToken && !pending) setCookie(reply, token, newToken);
    return { token, cookie, visitor, pending, languages, newToken, firstImage };
  }

  /**
   * After the headers: the state (the session written), and the payload when the gates let this viewer play.
   * The access-log line is handed to `later`, to be written once the page has gone. Undefined: the page goes
   * without a bootstrap (a session the headers could not carry: the player asks the API, which sets its cookie).
   */
  async function finish(p: BootstrapPlan, later: (write: () => Promise<void>) => void): Promise<PageBootstrap | undefined> {
    const result = await viewer.state(p.token, p.cookie, p.visitor, { newToken: p.newToken, later });
    if (result.issued && result.issued !== p.newToken && !p.pending) return undefined;
    const state = JSON.stringify(z.encode(viewerStateSchema, await stateAnswer(null, p.token, result, p.pending)));
    const demo = result.gate === 'ready' ? `,"demo":${(await viewer.servedPayload(p.token, result.link, p.languages)).json}` : '';
    // `cookie`: whether the page saw the viewer's session cookie, for a player holding a session of its own.
    const json = `{"state":${state},"cookie":${p.cookie !== undefined},"lang":${JSON.stringify(p.languages.join(','))}${demo}}`;
    return { json: scriptJsonText(json) };
  }

  return { plan, finish };
}
