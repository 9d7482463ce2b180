import type { FastifyRequest } from 'fastify';
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import type { ZodApp } from '../core/http/types';
import { consentBody, consentSchema, viewerParams } from './viewer.schemas';
import { SESSION_HEADER, viewerCookieName } from './viewer.routes';

/** The consent an embedding page gives or takes back (docs/consent.md): the cookie follows it. */
export function viewerConsentRoutes(app: ZodApp, ctx: ModuleContext<Services['viewing']>) {
  const { viewer } = ctx.services;
  const secure = ctx.config.APP_URL.startsWith('https:');
  const sessionToken = (request: FastifyRequest, token: string): string | undefined => {
    const header = request.headers[SESSION_HEADER];
    return request.cookies[viewerCookieName(token)] ?? (typeof header === 'string' ? header : undefined);
  };

  // POST /v1/viewer/:token/consent — the embedding page granted, denied or withdrew consent
  app.post(
    '/viewer/:token/consent',
    {
      config: { public: true, viewer: true },
      schema: {
        tags: ['Viewer'],
        summary: 'Viewer: consent granted or withdrawn',
        description:
          'Public. Sent by the player when the page that embeds it grants or withdraws consent (docs/consent.md), with the ' +
          'session it was given in `X-Viewer-Session`. `granted: true`: the viewer cookie is set (as the link state sets it ' +
          'without `X-Viewer-Consent: pending`), the session gets a visitor id, and so does its view if it began before ' +
          'consent (it then counts as a unique viewer). `granted: false`: the cookie is expired; views already counted stay ' +
          'counted. Without a session there is nothing to change (`session: false`). 404 for an unknown or revoked link, ' +
          '410 for an expired one; no other gate applies.',
        params: viewerParams,
        body: consentBody,
        response: {
          200: dataEnvelope(consentSchema),
          400: errorEnvelope,
          404: errorEnvelope,
          410: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { granted } = request.body;
      const presented = sessionToken(request, token);
      const result = await viewer.consent(token, presented, granted);
      reply.header('cache-control', 'no-store');
      const cookie = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
      if (granted && result.session && presented) {
        reply.setCookie(viewerCookieName(token), presented, { ...cookie, maxAge: Math.floor(ctx.config.VIEWER_SESSION_TTL / 1000) });
      } else if (!granted) {
        reply.clearCookie(viewerCookieName(token), cookie);
      }
      return ok(request, { granted, session: result.session });
    },
  );
}
