// The hub pages: /h/:token (a page of its own) and /embed/h/:token (for iframes), and the hub bundle (/hub/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { AppError } from '../core/errors';
import { escapeHtml, publicPageHead } from '../core/html';
import { assertServedHere } from '../core/http/public-host';
import type { ZodApp } from '../core/http/types';
import type { Brand } from '../workspaces/branding';

const HUB_ROOT = fileURLToPath(new URL('../../dist/hub', import.meta.url));
const pageParams = z.object({ token: z.string().max(200) });
const embedQuery = z.object({ consent: z.enum(['pending', 'granted']).optional() }).passthrough();


function shell(config: object, built: boolean, head: string) {
  const body = built
    ? '<div id="hub"></div>'
    : `<main style="font-family:system-ui;max-width:36rem;margin:4rem auto;padding:0 1rem">
<h1 style="font-size:1.25rem">The hub page is not built yet</h1>
<p>This server has no hub bundle in <code>dist/hub</code>: run <code>npm run build:hub</code> and reload.</p></main>`;
  const assets = built ? '<link rel="stylesheet" href="/hub/hub.css">\n<script type="module" src="/hub/hub.js"></script>\n' : '';
  return `${publicPageHead({ head, configId: 'demoshare-hub-config', config, assets })}${body}</body></html>`;
}

/**
 * The hub pages. Their status follows the hub's link-level gates (404 unknown or deleted, 410 expired, 200
 * otherwise); the title and unfurl tags show the hub's title and intro, which its owner wrote for anyone
 * holding the address. The bundle (dist/hub) does the rest through /v1/hub-viewer and opens demos in the
 * player (/embed/:token of each entry's link) in an overlay.
 */
export async function hubsPages(app: ZodApp, ctx: ModuleContext<Services['hubs']>) {
  const built = existsSync(`${HUB_ROOT}/hub.js`);
  if (existsSync(HUB_ROOT)) {
    await app.register(fastifyStatic, {
      root: HUB_ROOT,
      prefix: '/hub/',
      decorateReply: false,
      index: false,
      cacheControl: false,
      setHeaders(res) {
        res.setHeader('cache-control', 'no-cache');
      },
    });
  }
  const api = new URL(ctx.config.API_URL ?? ctx.config.APP_URL).origin;
  const self = api === new URL(ctx.config.APP_URL).origin ? "'self'" : `'self' ${api}`;

  async function page(request: FastifyRequest, token: string, embed: boolean, consent: string | undefined, reply: FastifyReply) {
    let status = 200;
    let head = '<title>Demoshare</title>';
    let brand: Brand | undefined;
    try {
      const { hub } = await ctx.services.viewer.resolve(token, undefined, (workspaceId) => assertServedHere(request, workspaceId, 'Hub'));
      brand = await ctx.services.viewer.brand(hub);
      const urls = await ctx.origins.shareUrls(hub.workspaceId);
      const url = embed ? urls.hubEmbed(token) : urls.hub(token);
      const meta = (attr: string, key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
      head = [
        `<title>${escapeHtml(hub.title)} · ${escapeHtml(brand.name)}</title>`,
        hub.intro ? meta('name', 'description', hub.intro) : '',
        meta('property', 'og:type', 'website'),
        meta('property', 'og:site_name', brand.name),
        meta('property', 'og:title', hub.title),
        hub.intro ? meta('property', 'og:description', hub.intro) : '',
        meta('property', 'og:url', url),
        meta('name', 'twitter:card', 'summary'),
      ]
        .filter(Boolean)
        .join('\n');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      status = error.status;
    }
    const csp = [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      `img-src ${self} data:`,
      `connect-src ${self}`,
      // The demos play in the player's own page (/embed/:token), framed here.
      `frame-src ${self}`,
      "base-uri 'none'",
      "form-action 'self'",
      `frame-ancestors ${embed ? '*' : "'none'"}`,
    ].join('; ');
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', csp)
      .header('referrer-policy', 'no-referrer');
    if (!embed) reply.header('x-frame-options', 'DENY');
    const config = { token, embed, status, consent: embed && consent === 'pending' ? 'pending' : 'granted', ...(brand ? { brand } : {}) };
    return reply.send(shell(config, built, head));
  }

  const pageConfig = { public: true, viewer: true };

  // GET /h/:token — a demo hub's page
  app.get('/h/:token', { config: pageConfig, schema: { hide: true, params: pageParams } }, async (request, reply) =>
    page(request, request.params.token, false, undefined, reply),
  );

  // GET /embed/h/:token — the same hub, to be framed by any site (?consent=pending: nothing stored until granted)
  app.get(
    '/embed/h/:token',
    { config: pageConfig, schema: { hide: true, params: pageParams, querystring: embedQuery } },
    async (request, reply) => page(request, request.params.token, true, request.query.consent, reply),
  );
}
