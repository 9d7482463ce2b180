// The /docs reference page (Swagger UI) over the OpenAPI document made from the routes' zod schemas.
import fastifySwaggerUi, { type FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** The web app's mark (web/public/favicon.svg) beside the product's name, white on the top bar. */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="236" height="40" viewBox="0 0 236 40"><title>Demoshare API</title><rect x="2" y="4" width="32" height="32" rx="8" fill="#6366f1"/><path d="M14 13.5v13l11-6.5z" fill="#fff"/><text x="44" y="27" font-family="system-ui,-apple-system,'Segoe UI',Roboto,sans-serif" font-size="20" font-weight="600" fill="#fff">Demoshare API</text></svg>`;
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Demoshare</title><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M12 9.5v13l11-6.5z" fill="#fff"/></svg>';
/** The top bar in the brand's colours; the Swagger UI body stays as it is (readers know it). */
const THEME_CSS = '.swagger-ui .topbar { background: #1e1b4b; } .swagger-ui .topbar a { max-width: none; }';
/** The logo links home (the web app), not to the Swagger project. */
const THEME_JS =
  "new MutationObserver((_, o) => { const a = document.querySelector('.topbar a'); if (a) { a.href = '/'; a.removeAttribute('target'); a.title = 'Demoshare'; o.disconnect(); } }).observe(document.documentElement, { childList: true, subtree: true });";

/** Swagger UI in Demoshare's name: its title, logo and favicon instead of the Swagger project's. */
export const DOCS_BRANDING: Pick<FastifySwaggerUiOptions, 'logo' | 'theme'> = {
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/', target: '_self' },
  theme: {
    title: 'Demoshare API reference',
    css: [{ filename: 'demoshare.css', content: THEME_CSS }],
    js: [{ filename: 'demoshare.js', content: THEME_JS }],
    favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON) }],
  },
};

/**
 * The reference page at /docs. Swagger UI loads only its own files from this origin (no inline script)
 * and calls the API from "Try it out", so the policy allows exactly that; it sets styles at run time,
 * hence 'unsafe-inline' for styles alone. Nobody may frame it: it acts with the visitor's cookies.
 */
export async function registerDocs(app: FastifyInstance, apiOrigin: string) {
  const connect = ["'self'", new URL(apiOrigin).origin];
  const policy = [
    "default-src 'none'",
    "base-uri 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  await app.register(async (docs) => {
    docs.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('content-security-policy', policy);
      reply.header('x-frame-options', 'DENY');
      done(null, payload);
    });
    await docs.register(fastifySwaggerUi, { routePrefix: '/docs', ...DOCS_BRANDING });
  });
}
