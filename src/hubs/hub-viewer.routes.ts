// The public hub viewer API (/v1/hub-viewer/:token…): gates, the hub's demos, opening one, covers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { sha256Hex } from '../core/crypto';
import { bytesResponse, dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { assertServedHere } from '../core/http/public-host';
import type { ZodApp } from '../core/http/types';
import { IMAGE_TYPES } from '../core/image-sniff';
import { viewerCookieName, visitorOf } from '../viewing/viewer.routes';
import { hubAccessBody, hubOpenSchema, hubViewerEntryParams, hubViewerParams, hubViewerStateSchema, toHubViewerState } from './hub-viewer.schemas';
import type { HubViewer } from './hub-viewer.service';

const tags = ['Viewer'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 410: errorEnvelope, 429: errorEnvelope };

/** Where a hub page that cannot use cookies (a cross-site iframe, consent not given) sends its session token. */
export const HUB_SESSION_HEADER = 'x-hub-session';
/**
 * A request saying the embedding page has not granted consent yet (docs/consent.md): nothing is stored in the
 * browser, so no cookie is set; the session rides in headers.
 */
export const CONSENT_HEADER = 'x-viewer-consent';

/** The hub session's cookie: named after the hub, so hubs never overwrite each other's. */
export const hubCookieName = (token: string) => `ds_hub_${sha256Hex(token).slice(0, 16)}`;

const consentPending = (request: FastifyRequest) => request.headers[CONSENT_HEADER] === 'pending';

/** The hub viewer API: public, on the viewer rate budget, gated hub by hub. */
export function hubViewerRoutes(app: ZodApp, ctx: ModuleContext<Services['hubs']>) {
  const { viewer } = ctx.services;
  const secure = ctx.config.APP_URL.startsWith('https:');
  const config = { public: true, viewer: true } as const;
  const maxAge = Math.floor(ctx.config.VIEWER_SESSION_TTL / 1000);
  const here = (request: FastifyRequest) => (workspaceId: string) => assertServedHere(request, workspaceId, 'Hub');

  const sessionToken = (request: FastifyRequest, token: string): string | undefined => {
    const header = request.headers[HUB_SESSION_HEADER];
    return request.cookies[hubCookieName(token)] ?? (typeof header === 'string' ? header : undefined);
  };

  const setCookie = (request: FastifyRequest, reply: FastifyReply, name: string, value: string) => {
    if (consentPending(request)) return;
    reply.setCookie(name, value, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge });
  };

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    result: Pick<Awaited<ReturnType<HubViewer['state']>>, 'hub' | 'session' | 'issued' | 'gate'>,
  ) {
    reply.header('cache-control', 'no-store');
    if (result.issued) setCookie(request, reply, hubCookieName(token), result.issued);
    const collections = result.gate === 'ready' ? await viewer.content(result.hub) : [];
    return toHubViewerState(result.hub, result.session, await viewer.brand(result.hub), result.gate, collections, token, result.issued);
  }

  // GET /v1/hub-viewer/:token — the gate the viewer stands at and, once open, the hub's demos
  app.get(
    '/hub-viewer/:token',
    {
      config,
      schema: {
        tags,
        summary: 'Hub viewer: state',
        description:
          'Public. 404 for an unknown or deleted hub, 410 for an expired one (`details[0].message` names the gate: ' +
          '`hub`, `expired`). Otherwise the gate the viewer must pass next, the hub’s title, intro and brand, and at ' +
          'the `ready` gate its collections of published demos. A first call opens a hub session (a visit).',
        params: hubViewerParams,
        response: { 200: dataEnvelope(hubViewerStateSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const result = await viewer.state(token, sessionToken(request, token), visitorOf(request), here(request));
      return ok(request, await answer(request, reply, token, result));
    },
  );

  // POST /v1/hub-viewer/:token/access — the hub's one gate form (password, identification or lead form)
  app.post(
    '/hub-viewer/:token/access',
    {
      config,
      schema: {
        tags,
        summary: 'Hub viewer: pass the gates',
        description:
          'Sends what `fields` asks in one submit: 400 naming each missing field, 401 for a wrong password (the same ' +
          'budgets as a link’s: 429 while blocked), 403 for an address the allow-lists refuse. Nothing is stored ' +
          'unless all pass. Passing the identification or lead form emits `viewer.identified` with the hub’s `hub_id`, ' +
          '`hub_name` and the answers (`values`), once per hub session and address (docs/hubs.md). Then the hub’s state, as GET answers it.',
        params: hubViewerParams,
        body: hubAccessBody,
        response: { 200: dataEnvelope(hubViewerStateSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { password, name, email, ...values } = request.body;
      const result = await viewer.access(token, sessionToken(request, token), { password, name, email, values }, visitorOf(request), here(request));
      return ok(request, await answer(request, reply, token, result));
    },
  );

  // POST /v1/hub-viewer/:token/entries/:entry_id/open — open one of the hub's demos
  app.post(
    '/hub-viewer/:token/entries/:entry_id/open',
    {
      config,
      schema: {
        tags,
        summary: 'Hub viewer: open a demo',
        description:
          'For a viewer past the hub’s gates (401/403 otherwise): counts a demo opened for the hub and answers a viewer ' +
          'session on the entry’s link, already unlocked and identified as on the hub, so its player asks nothing again. ' +
          '404 for an entry not on the hub or no longer published.',
        params: hubViewerEntryParams,
        response: { 200: dataEnvelope(hubOpenSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token, entry_id } = request.params;
      const opened = await viewer.open(token, sessionToken(request, token), entry_id, visitorOf(request), here(request));
      reply.header('cache-control', 'no-store');
      setCookie(request, reply, viewerCookieName(opened.shareToken), opened.sessionToken);
      const urls = await ctx.origins.shareUrls(opened.hub.workspaceId);
      return ok(request, {
        share_token: opened.shareToken,
        page_url: urls.page(opened.shareToken),
        embed_url: urls.embed(opened.shareToken),
        session_token: opened.sessionToken,
      });
    },
  );

  // GET /v1/hub-viewer/:token/entries/:entry_id/cover — an entry's card image
  app.get(
    '/hub-viewer/:token/entries/:entry_id/cover',
    {
      config,
      schema: {
        tags,
        summary: 'Hub viewer: an entry’s cover',
        description:
          'Public to whoever holds the hub’s address (as a link’s preview image): the uploaded cover, else on a hub ' +
          'without a password the demo’s first screen; 404 otherwise (the page shows the brand colour).',
        params: hubViewerEntryParams,
        querystring: z.object({ v: z.string().max(20).optional().meta({ description: 'The cover’s version (cache busting).' }) }).strict(),
        response: { 200: bytesResponse('The image bytes', IMAGE_TYPES), 400: errorEnvelope, 404: errorEnvelope, 410: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      const { token, entry_id } = request.params;
      const cover = await viewer.cover(token, entry_id, here(request));
      return reply
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('etag', `"${cover.sha256}"`)
        .type(cover.contentType)
        .send(cover.bytes);
    },
  );
}
