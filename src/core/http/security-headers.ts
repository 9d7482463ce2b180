// The security headers of every answer: HSTS over HTTPS, and on documents a CSP and framing refused unless allowed.
import type { FastifyInstance, FastifyReply } from 'fastify';

/** One year, and the apex only: includeSubDomains would force HTTPS on every other site of the operator's domain. */
export const HSTS = 'max-age=31536000';

/** Content types a browser renders as a document, which can then be framed or run script. */
const DOCUMENT = /^\s*(?:text\/html|application\/xhtml\+xml|image\/svg\+xml)\s*(?:;|$)/i;
const FRAME_ANCESTORS = /(?:^|;)\s*frame-ancestors\s+([^;]*)/i;

/** The transport headers of every answer: HSTS when `appUrl` is HTTPS (browsers ignore it over plain HTTP). */
export function transportHeaders(appUrl: string): Record<string, string> {
  return new URL(appUrl).protocol === 'https:' ? { 'strict-transport-security': HSTS } : {};
}

export interface SecurityHeaderOptions {
  /** `APP_URL`: HTTPS there means Strict-Transport-Security on every answer. */
  appUrl: string;
  /** The policy of a document whose route set none (the web app's). */
  documentPolicy: string;
}

/**
 * The headers every document answer carries, whichever route or plugin (the static server included) made it:
 * a Content-Security-Policy (the route's own, or `documentPolicy`), framing refused unless the policy itself
 * names who may frame (the embed page's `frame-ancestors *`), X-Frame-Options: DENY beside `'none'` for
 * browsers without CSP level 2, and a Referrer-Policy. What a route set is kept; what it left out is filled.
 */
export function secureDocument(reply: FastifyReply, documentPolicy: string): void {
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !DOCUMENT.test(type)) return;
  let policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string' || policy.trim() === '') policy = documentPolicy;
  const ancestors = FRAME_ANCESTORS.exec(policy);
  if (!ancestors) policy = `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
  reply.header('content-security-policy', policy);
  if (!ancestors || ancestors[1]!.trim() === "'none'") {
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
  }
  if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'same-origin');
}

/**
 * Registers the security headers on every answer of `app`: `secureDocument` on each document (onSend, so that
 * no route can leave them out), and HSTS on every answer when `appUrl` is HTTPS (onRequest, so that answers
 * written outside onSend, such as /mcp's streams, carry it too).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const transport = transportHeaders(options.appUrl);
  if (Object.keys(transport).length > 0) {
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(transport);
      done();
    });
  }
  app.addHook('onSend', (_request, reply, payload, done) => {
    secureDocument(reply, options.documentPolicy);
    done(null, payload);
  });
}
