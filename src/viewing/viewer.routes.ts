import { sha256Hex } from '../core/crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { bytesResponse, dataEnvelope, errorEnvelope, noContent, ok, sendSerializedData } from '../core/envelope';
import { ASSET_TYPES, IMAGE_TYPES } from '../core/image-sniff';
import { AppError } from '../core/errors';
import type { ZodApp } from '../core/http/types';
import { patchedAssetQuery } from '../demos/page-patches.schemas';
import { assetLanguage, viewerLanguageQuery } from '../translations/translations.schemas';
import type { ShareRow } from '../shares/shares.schemas';
import { eventsAcceptedSchema, eventsBody, } from './view-events.schemas';
import type { ViewerSessionRow } from './viewer.repo';
import {
  accessBody,
  identifyBody,
  publicAssetParams,
  unlockBody,
  viewerAssetParams,
  viewerDemoSchema,
  viewerParams,
  viewerStateSchema,
} from './viewer.schemas';
import type { Gate, Visitor } from './viewer-gates.resolve';
import type { LinkState } from './viewer-cache';
import { gateView } from './viewer-gates.view';
import { SESSION_COOKIE } from '../auth/authenticate';
import { assertServedHere } from '../core/http/public-host';
import type { ViewerGates } from './viewer-gates';

/**
 * A route onRequest hook for every public route under a link's token: on a custom domain, a link of another
 * workspace is a 404 before anything is recorded (core/http/public-host.ts). An unknown token passes on to
 * the route's own 404.
 *
 * @example
 * app.post('/viewer/:token/leads', { onRequest: servedHere(viewer), ... }, handler);
 */
export function servedHere(viewer: Pick<ViewerGates, 'linkWorkspace'>) {
  return async (request: FastifyRequest) => {
    if (!request.publicHost) return;
    const workspaceId = await viewer.linkWorkspace((request.params as { token: string }).token);
    if (workspaceId) assertServedHere(request, workspaceId, 'Share link');
  };
}

const cookieNames = new Map<string, string>();

/**
 * The cookie of one link: its name is derived from the link, so links never overwrite each other's.
 * Remembered for the busiest links: every viewer request needs it.
 *
 * @example
 * reply.setCookie(viewerCookieName(token), issued, { httpOnly: true, sameSite: 'lax', path: '/' });
 */
export function viewerCookieName(linkToken: string): string {
  let name = cookieNames.get(linkToken);
  if (name === undefined) {
    name = `ds_view_${sha256Hex(linkToken).slice(0, 16)}`;
    if (cookieNames.size >= 10_000) cookieNames.clear();
    cookieNames.set(linkToken, name);
  }
  return name;
}

const tags = ['Viewer'];
const assetRedirect = z.null().meta({
  description:
    'A public link\'s image in the S3 store (ASSET_REDIRECT=presigned): no body; `Location` is a presigned GET of the ' +
    'object, valid ASSET_PRESIGN_TTL; `Cache-Control: private, max-age=<a quarter of it>`; `ETag` the SHA-256.',
});
const errors = {
  400: errorEnvelope,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  410: errorEnvelope,
  429: errorEnvelope,
};
/** Where a player that cannot use cookies (a cross-site iframe) sends its session token. */
export const SESSION_HEADER = 'x-viewer-session';
/** `pending` from a player whose embedding page has not granted consent: no cookie, no visitor id (docs/consent.md). */
export const CONSENT_HEADER = 'x-viewer-consent';
export const consentPending = (request: FastifyRequest) => request.headers[CONSENT_HEADER] === 'pending';

/** If-None-Match, compared weakly (RFC 9110 §13.1.2): a list of tags or `*`. */
function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}

export function visitorOf(request: FastifyRequest): Visitor {
  const ua = request.headers['user-agent'];
  const referer = request.headers.referer;
  return {
    ip: request.ip,
    userAgent: typeof ua === 'string' ? ua : null,
    referrer: typeof referer === 'string' ? referer : null,
    // A member previewing their own link: their views are the workspace's own traffic.
    appSession: request.cookies[SESSION_COOKIE] || undefined,
    consentPending: consentPending(request),
  };
}

/** What the gates answered for one request: the link state's inputs. */
export type StateResult = { gate: Gate; share: ShareRow; link: LinkState; session?: ViewerSessionRow; issued?: string };

/**
 * Sets the cookie of a viewer session on `reply`.
 *
 * @example
 * const setCookie = viewerCookie(ctx);
 * setCookie(reply, token, issued);
 */
export function viewerCookie(ctx: ModuleContext<Services['viewing']>) {
  const secure = ctx.config.APP_URL.startsWith('https:');
  return (reply: FastifyReply, token: string, session: string) =>
    reply.setCookie(viewerCookieName(token), session, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      maxAge: Math.floor(ctx.config.VIEWER_SESSION_TTL / 1000),
    });
}

/**
 * The link state (GET /v1/viewer/:token and the gate forms' answers), with the session's cookie set when one
 * was issued, unless consent is pending (then the token travels in the body and X-Viewer-Session only).
 * The viewer page inlines the same answer (viewer.pages.ts), whose headers have gone before (`reply` null:
 * it set the cookie itself).
 *
 * @example
 * const answer = linkStateAnswer(ctx);
 * return ok(request, await answer(reply, token, await viewer.state(token, session, visitor), false));
 */
export function linkStateAnswer(ctx: ModuleContext<Services['viewing']>) {
  const { viewer } = ctx.services;
  const setCookie = viewerCookie(ctx);
  return async (reply: FastifyReply | null, token: string, result: StateResult, pending: boolean) => {
    const view = gateView(result.share, result.session, viewer.brand(result.link), await viewer.preview(result.link));
    reply?.header('cache-control', 'no-store');
    // Before consent the token lives in the player's memory only and rides in X-Viewer-Session.
    if (reply && result.issued && !pending) setCookie(reply, token, result.issued);
    return {
      gate: result.gate,
      share: { require_identification: result.share.requireIdentification, has_password: result.share.passwordHash !== null },
      ...(result.session?.viewerEmail
        ? { viewer: { name: result.session.viewerName, email: result.session.viewerEmail } }
        : {}),
      ...view,
      ...(result.issued ? { session_token: result.issued } : {}),
    };
  };
}

/** The viewer JSON API: public, rate-limited per address, and gated link by link. */
export function viewerRoutes(app: ZodApp, ctx: ModuleContext<Services['viewing']>) {
  const { viewer, ingestion } = ctx.services;
  const stateAnswer = linkStateAnswer(ctx);
  const config = { public: true, viewer: true } as const;
  const onRequest = servedHere(viewer);

  const sessionToken = (request: FastifyRequest, token: string): string | undefined => {
    const header = request.headers[SESSION_HEADER];
    return request.cookies[viewerCookieName(token)] ?? (typeof header === 'string' ? header : undefined);
  };

  const answer = (request: FastifyRequest, reply: FastifyReply, token: string, result: StateResult) =>
    stateAnswer(reply, token, result, consentPending(request));
  // GET /v1/viewer/:token — which gate the viewer stands at; nothing of the demo itself
  app.get(
    '/viewer/:token',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Viewer: link state',
        description:
          'Public. 404 for an unknown or revoked link, 410 (`gone`) for an expired one, 404 "This demo is not ' +
          'published yet" while the demo is not published (`details[0].message` names the gate: `link`, ' +
          '`expired`, `not_published`). Otherwise the gate the viewer must pass next. A viewer who may play ' +
          'gets a viewer session (cookie) here. With `X-Viewer-Consent: pending` (an embed whose page has not granted ' +
          'consent, docs/consent.md) no route of the viewer API sets a cookie, and a new session has no visitor id: its ' +
          '`session_token` is sent back in `X-Viewer-Session` only.',
        params: viewerParams,
        response: { 200: dataEnvelope(viewerStateSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const result = await viewer.state(token, sessionToken(request, token), visitorOf(request));
      return ok(request, await answer(request, reply, token, result));
    },
  );

  // POST /v1/viewer/:token/unlock — enter a link's password
  app.post(
    '/viewer/:token/unlock',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Viewer: enter the password',
        description:
          'Public. 401 `unauthorized` "Wrong password". After 5 wrong passwords in 15 minutes from one address ' +
          '(configurable) every attempt is 429 with Retry-After, the right password included.',
        params: viewerParams,
        body: unlockBody,
        response: { 200: dataEnvelope(viewerStateSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const result = await viewer.unlock(token, sessionToken(request, token), request.body.password, visitorOf(request));
      return ok(request, await answer(request, reply, token, result));
    },
  );

  // POST /v1/viewer/:token/identify — give a name and e-mail address
  app.post(
    '/viewer/:token/identify',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Viewer: identify',
        description:
          'Public. 401 while the password gate is still closed; 403 `forbidden` when the address is not on the ' +
          "link's allow-lists. Emits `viewer.identified`.",
        params: viewerParams,
        body: identifyBody,
        response: { 200: dataEnvelope(viewerStateSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const result = await viewer.identify(token, sessionToken(request, token), request.body, visitorOf(request));
      return ok(request, await answer(request, reply, token, result));
    },
  );

  // POST /v1/viewer/:token/access — the one gate form: password, name and e-mail in one submit
  app.post(
    '/viewer/:token/access',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Viewer: pass the gates in one submit',
        description:
          'Public. Addition beside /unlock and /identify (which keep working). Send the `fields` the link state ' +
          'lists (the password alone when the demo has a gate form: the form comes next, as `form` of the answer). 400 `invalid_request` names each missing or malformed field in `details`; 401 `unauthorized` ' +
          '"Wrong password" (`details`: gate `password`, field `password`), counted against the same budgets as ' +
          '/unlock, so 429 with Retry-After once spent, the right password included; 403 `forbidden` when the ' +
          "address is not on the link's allow-lists (field `email`). Nothing is stored unless every gate passes; " +
          'then the session is unlocked and identified at once (`viewer.identified` is emitted).',
        params: viewerParams,
        body: accessBody,
        response: { 200: dataEnvelope(viewerStateSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const result = await viewer.access(token, sessionToken(request, token), request.body, visitorOf(request));
      return ok(request, await answer(request, reply, token, result));
    },
  );

  // GET /v1/viewer/:token/demo — the demo to play, once every gate is passed
  app.get(
    '/viewer/:token/demo',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Viewer: the demo',
        description:
          'Public, gated: 401 (`details[0].message` = `password`) or 403 (`identification`) until the gates ' +
          'are passed. Image and snapshot URLs point at GET /v1/viewer/:token/assets/:asset_id. A weak `ETag` ' +
          'names the demo\'s content: `If-None-Match` with it answers 304 without a body (after the gates). ' +
          '`?lang=` picks a reviewed translation (`language` says which; the original otherwise).',
        params: viewerParams,
        querystring: viewerLanguageQuery,
        response: { 200: dataEnvelope(viewerDemoSchema), 304: noContent, ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const languages = (request.query.lang ?? '').split(',').map((l) => l.trim()).filter(Boolean).slice(0, 10);
      const payload = await viewer.demo(token, sessionToken(request, token), visitorOf(request), languages);
      // Serialised once per demo change, not once per request: the cache holds the JSON text. no-cache
      // with a validator: the browser asks again every time (the gates run), and gets no body if unchanged.
      reply.header('cache-control', 'private, no-cache');
      reply.header('etag', payload.etag);
      if (matches(request, payload.etag)) return reply.code(304).send(null);
      return sendSerializedData(request, reply, payload.json);
    },
  );

  // GET /v1/viewer/:token/assets/:asset_id — a step image or HTML snapshot of the shared demo
  app.get(
    '/viewer/:token/assets/:asset_id',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Viewer: an image or snapshot',
        description:
          'Public, behind the same gates as the demo. Only assets of the shared demo. The `ETag` is the ' +
          'asset\'s SHA-256: `If-None-Match` with it answers 304 without a body. A snapshot asked for with ' +
          '`?patches=` (as the step\'s `html_url` has it) comes with the published version\'s page patches applied; ' +
          'its ETag then names the asset and the patches. `?lang=` (a translated step\'s `html_url`) serves it with its texts translated. ' +
          'With `ASSET_REDIRECT=presigned` (S3 store), an image of a public link (published, no password, no e-mail gate, ' +
          'no allow-list, no expiry) answers 302 to a presigned GET of the object in the bucket (`Location`, valid ' +
          '`ASSET_PRESIGN_TTL`), kept by the browser a quarter of that (`Cache-Control: private, max-age=…`); snapshots, ' +
          "gated links' assets and bytes kept in the database are always answered here, after the gates. " +
          'A store of assets\' bytes that cannot be reached answers 503 `unavailable` with `Retry-After`; a blob the store no longer holds (lost data, logged as an error) answers 503 `unavailable` without it.',
        params: viewerAssetParams,
        querystring: patchedAssetQuery.extend({ lang: assetLanguage }),
        response: {
          200: bytesResponse('The asset bytes', ASSET_TYPES),
          302: assetRedirect,
          304: noContent,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { token, asset_id } = request.params;
      const asset = await viewer.asset(token, sessionToken(request, token), asset_id, visitorOf(request), request.query.patches, request.query.lang);
      const etag = asset.etag;
      reply.header('etag', etag);
      if (asset.redirect) {
        // Kept less long than the address is valid: a browser that follows a kept redirect still finds it valid.
        reply.header('cache-control', `private, max-age=${asset.redirect.maxAgeSeconds}`);
        if (matches(request, etag)) return reply.code(304).send(null);
        return reply.redirect(asset.redirect.location, 302);
      }
      reply.header('cache-control', 'private, max-age=3600');
      // A snapshot is someone else's page: it may draw, never run script on our origin.
      reply.header(
        'content-security-policy',
        "sandbox; default-src 'none'; img-src * data:; style-src * 'unsafe-inline'; font-src * data:",
      );
      if (matches(request, etag)) return reply.code(304).send(null);
      return reply.type(asset.contentType).send(asset.bytes);
    },
  );

  // GET /v1/public-assets/sha256/:digest — a public link's image by its digest: the origin of a CDN (ASSET_PUBLIC_URL)
  app.get(
    '/public-assets/sha256/:digest',
    {
      config,
      schema: {
        tags,
        summary: 'Public image by digest (CDN origin)',
        description:
          'Public. The origin a CDN named by `ASSET_PUBLIC_URL` reads (`ASSET_PUBLIC_URL=https://cdn.example.com/v1/public-assets` ' +
          'with the CDN forwarding to Demoshare): the image whose bytes have this SHA-256, only while the payload of a ' +
          'public link (published, no password, no e-mail gate, no allow-list, no expiry, no A/B test) shows it, wherever ' +
          'its bytes are kept (an address named before `demoshare assets move --to database` keeps working); 404 ' +
          'otherwise, whichever gated or draft demo holds the same bytes. `Cache-Control: public, max-age=31536000, ' +
          'immutable` (content-addressed: the bytes of an address never change). On the viewer rate budget per address.',
        params: publicAssetParams,
        response: { 200: bytesResponse('The image bytes', IMAGE_TYPES), 304: noContent, 400: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      const blob = await viewer.publicImage(request.params.digest);
      if (!blob) throw new AppError('not_found', 'No public image has this digest');
      const etag = `"${blob.sha256}"`;
      reply
        .header('etag', etag)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'");
      if (matches(request, etag)) return reply.code(304).send(null);
      return reply.type(blob.contentType).send(blob.bytes);
    },
  );

  // POST /v1/viewer/:token/events — record the viewer's progress
  app.post(
    '/viewer/:token/events',
    {
      config,
      onRequest,
      bodyLimit: 64 * 1024,
      schema: {
        tags,
        summary: 'Viewer: record events',
        description:
          'Public, gated, bound to the viewer session. Up to 100 events (view_started, step_reached, ' +
          'completed, and the path events of interactive demos: chapter_selected, action_taken, cta_clicked, ' +
          'form_shown, form_started, form_submitted). 202 once they are stored; an event id seen before is ' +
          'ignored (`duplicates`). step_number and target_step must be steps of the demo; seconds_on_previous ' +
          'is capped at 3600. A field that does not belong to an event type is a 400.',
        params: viewerParams,
        body: eventsBody,
        response: { 202: dataEnvelope(eventsAcceptedSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const result = await ingestion.record(
        token,
        sessionToken(request, token),
        visitorOf(request),
        request.body,
      );
      reply.code(202);
      return ok(request, result);
    },
  );
}
