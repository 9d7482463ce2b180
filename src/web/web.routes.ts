// Serves the built web app (dist/web) under its Content-Security-Policy, with index.html for every client-side route.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { ZodApp } from '../core/http/types';

const WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Demoshare</title>
<p style="font-family:system-ui;margin:3rem">The web application has not been built yet: run <code>npm run build:web</code>
(it runs by itself on <code>npm ci</code>) and reload. The API is up at <a href="/docs">/docs</a>.</p>`;

/**
 * The web app's policy, and that of any HTML answer whose route sets none (core/http/security-headers.ts,
 * registered in app.ts: /index.html from the static server gets it too). Everything is its own origin (the app calls the API same-origin), except what
 * the editor's HTML snapshots need: they are shown through srcdoc in frames sandboxed without scripts,
 * which inherit this policy, and their stylesheets, images and fonts come from the captured site
 * (http:/https:). No script but the app's own, no plugins, no frames of other origins, no framing.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline' http: https:",
  "img-src 'self' data: http: https:",
  "font-src 'self' data: http: https:",
  "connect-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the built React app; every path that is not a file gets index.html so client routing works. */
export async function webRoutes(app: ZodApp) {
  const indexFile = `${WEB_ROOT}/index.html`;
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: WEB_ROOT,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(res, path) {
        // Vite fingerprints asset names, so they can be cached for good; index.html never is.
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const index = built ? readFileSync(indexFile, 'utf8') : NOT_BUILT;

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/v1/') || path === '/v1' || /\.[a-z0-9]+$/i.test(path)) return reply.callNotFound();
    // WEB_APP_CSP, X-Frame-Options and Referrer-Policy (same-origin: invitation links carry their token in
    // the path) come from the security-header hook (core/http/security-headers.ts), as for /index.html.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
  });
}
