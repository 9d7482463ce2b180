import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { AppError } from '../core/errors';
import type { ZodApp } from '../core/http/types';
import { servedHere, viewerCookieName, visitorOf } from './viewer.routes';
import { escapeHtml, publicPageHead } from '../core/html';
import { type ShareUrls, shareUrls } from '../core/share-urls';
import { type LinkPreview, linkPreview } from './viewer-gates.view';
import { personalisePreview } from './viewer-variables';
import type { Brand } from '../workspaces/branding';
import { playerBundle } from './player-bundle';
import { type BootstrapPlan, isBrowserNavigation, type PageBootstrap, pageBootstrap } from './viewer-bootstrap';

const PLAYER_ROOT = fileURLToPath(new URL('../../dist/player', import.meta.url));
const pageParams = z.object({ token: z.string().max(200) });


/** Link-preview tags (Open Graph, Twitter card) of a link that resolves; for the others, the neutral title. */
function previewTags(preview: LinkPreview | undefined, pageUrl: string): string {
  if (!preview) return '<title>Demoshare</title>';
  const origin = new URL(pageUrl).origin;
  const image = preview.imageUrl ? new URL(preview.imageUrl, origin).href : null;
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
  return [
    `<title>${escapeHtml(preview.title)} · ${escapeHtml(preview.siteName)}</title>`,
    preview.description ? meta('name', 'description', preview.description) : '',
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', preview.siteName),
    meta('property', 'og:title', preview.title),
    preview.description ? meta('property', 'og:description', preview.description) : '',
    meta('property', 'og:url', pageUrl),
    image ? meta('property', 'og:image', image) : '',
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', preview.title),
    preview.description ? meta('name', 'twitter:description', preview.description) : '',
    image ? meta('name', 'twitter:image', image) : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The page up to its body: what the browser can start loading (first picture, stylesheet, script) before the
 * rest is written. `firstImage` only for a viewer the gates let play.
 */
function shellHead(token: string, embed: boolean, playerBuilt: boolean, status: number, head: string, brand?: Brand, firstImage?: string | null) {
  // The brand comes with the page, so that even the password and identification forms wear it at once.
  const config = { token, embed, status, ...(brand ? { brand } : {}) };
  // The first step's picture is asked for with the page's own resources, not after the player has run.
  const preload =
    playerBuilt && firstImage ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(firstImage)}">\n` : '';
  // A module script runs once the whole page is parsed: the bootstrap below is there by then.
  const assets = playerBuilt
    ? '<link rel="stylesheet" href="/player/player.css">\n<script type="module" src="/player/player.js"></script>\n'
    : '';
  return publicPageHead({ head, configId: 'demoshare-player-config', config, assets: `${preload}${assets}` });
}

/** The rest of the page: the player's first answers (viewer-bootstrap.ts) and its root. */
function shellBody(token: string, playerBuilt: boolean, bootstrap?: PageBootstrap) {
  if (!playerBuilt) {
    return `<main style="font-family:system-ui;max-width:36rem;margin:4rem auto;padding:0 1rem">
<h1 style="font-size:1.25rem">The demo player is not built yet</h1>
<p>This server has no player bundle in <code>dist/player</code>. Build it and reload this page.
The viewer API for this link is at <code>/v1/viewer/${escapeHtml(token)}</code>.</p></main></body></html>`;
  }
  const data = bootstrap ? `<script id="demoshare-bootstrap" type="application/json">${bootstrap.json}</script>\n` : '';
  return `${data}<div id="player"></div></body></html>`;
}

/**
 * The viewer pages: /s/:token (a page of its own) and /embed/:token (for iframes). Their status follows the
 * link's gates (404 unknown, revoked or not published; 410 expired; 200 otherwise). Their title and
 * link-preview tags say what viewer-gates.view.ts allows a stranger to see; the player bundle from
 * dist/player does the rest through /v1/viewer. /s/:token/preview-image serves the image the link's owner
 * chose for its unfurls.
 */
export async function viewerPages(app: ZodApp, ctx: ModuleContext<Services['viewing']>) {
  const playerBuilt = existsSync(`${PLAYER_ROOT}/player.js`);
  // GET /player/player.js and /player/player.css — from memory, compressed once (player-bundle.ts)
  // Nothing else under /player/ (not even the web app's shell, which answers every other path).
  app.get('/player/', { schema: { hide: true } }, async (_request, reply) => reply.callNotFound());
  app.get('/player/:file', { schema: { hide: true, params: z.object({ file: z.string().max(100) }) } }, playerBundle(PLAYER_ROOT));
  const appUrls = shareUrls(ctx.config.APP_URL);
  const checkHost = servedHere(ctx.services.viewer);
  const api = new URL(ctx.config.API_URL ?? ctx.config.APP_URL).origin;
  const self = api === new URL(ctx.config.APP_URL).origin ? "'self'" : `'self' ${api}`;

  const bootstrapOf = pageBootstrap(ctx);

  // Work a page left behind it (its access-log line, a page still being written): awaited before the app closes.
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  app.addHook('onClose', async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  });

  /**
   * The rest of a page whose head has gone: the session written and the player's first answers, then the end
   * of the page, then its access-log line. Should the bootstrap fail, the page ends without it and the player
   * asks the API as before.
   */
  async function finishPage(request: FastifyRequest, token: string, body: PassThrough, plan: BootstrapPlan) {
    const later: Array<() => Promise<void>> = [];
    const bootstrap = await bootstrapOf.finish(plan, (write) => later.push(write)).catch((error: unknown) => {
      request.log.warn({ err: error }, 'viewer page sent without its bootstrap; the player asks the API');
      return undefined;
    });
    if (!body.destroyed) body.end(shellBody(token, true, bootstrap));
    for (const write of later) track(write());
  }

  async function page(request: FastifyRequest, token: string, embed: boolean, reply: FastifyReply) {
    let status = 200;
    let preview: LinkPreview | undefined;
    let brand: Brand | undefined;
    let plan: BootstrapPlan | undefined;
    // Unfurls name the workspace's own address (its custom domain once verified), wherever the page was opened.
    let urls: ShareUrls = appUrls;
    try {
      // On a custom domain, another workspace's link is this page's 404.
      await checkHost(request);
      // What the player would ask first, answered in the page (viewer-bootstrap.ts): a browser's page load only.
      const bootstrapped = playerBuilt && isBrowserNavigation(request, embed);
      const cookie = bootstrapped ? request.cookies[viewerCookieName(token)] : undefined;
      const resolved = await ctx.services.viewer.resolve(token, cookie, visitorOf(request));
      const { link } = resolved;
      urls = await ctx.origins.shareUrls(link.share.workspaceId);
      brand = ctx.services.viewer.brand(link);
      // Variables filled (link values, else fallbacks) before previewTags escapes them: no raw {{…}} in unfurls.
      preview = personalisePreview(linkPreview(link.share, brand, await ctx.services.viewer.preview(link)), link.share.variables);
      // Before the headers: a viewer who may play and has no session gets its token drawn now, its cookie in them.
      if (bootstrapped) plan = await bootstrapOf.plan(request, reply, token, resolved);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      status = error.status;
    }
    const csp = [
      "default-src 'none'",
      // No inline script: the only inline elements are JSON data blocks (config, bootstrap), which never run.
      "script-src 'self'",
      // http:/https: for images, styles and fonts serve the HTML snapshots only: the player shows them in
      // sandboxed srcdoc frames, which inherit this policy, and their resources are the captured site's.
      // The player itself builds its DOM from data and never loads them.
      "style-src 'self' 'unsafe-inline' http: https:",
      `img-src ${self} data: http: https:`,
      `connect-src ${self}`,
      `frame-src ${self}`,
      "font-src 'self' data: http: https:",
      "base-uri 'none'",
      "form-action 'self'",
      `frame-ancestors ${embed ? '*' : "'none'"}`,
    ].join('; ');
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      // Never kept by a shared cache: the page may carry this viewer's session (its cookie, its token).
      .header('cache-control', 'private, no-store')
      .header('content-security-policy', csp)
      // The token is in the address: never send it on to the sites a demo links to.
      .header('referrer-policy', 'no-referrer');
    if (!embed) reply.header('x-frame-options', 'DENY');
    const tags = previewTags(preview, embed ? urls.embed(token) : urls.page(token));
    const head = shellHead(token, embed, playerBuilt, status, tags, brand, plan?.firstImage);
    if (!plan) return reply.send(head + shellBody(token, playerBuilt));
    // The head goes at once: the browser loads the picture, the stylesheet and the script while the session is written.
    const body = new PassThrough();
    // A viewer who leaves before the end: the stream is destroyed with the connection, and that is all.
    body.on('error', () => {});
    body.write(head);
    track(finishPage(request, token, body, plan));
    return reply.send(body);
  }

  // Each page load records a gate decision: on the viewer budget, like the API calls the player makes.
  const pageConfig = { public: true, viewer: true };

  // GET /s/:token — the viewer page of a share link
  app.get('/s/:token', { config: pageConfig, schema: { hide: true, params: pageParams } }, async (request, reply) =>
    page(request, request.params.token, false, reply),
  );

  // GET /s/:token/preview-image — the image the owner chose for the link's unfurls, before any gate
  app.get(
    '/s/:token/preview-image',
    { config: pageConfig, onRequest: checkHost, schema: { hide: true, params: pageParams } },
    async (request, reply) => {
      // The link-level gates only (revoked, expired, not published), and no access-log line: unfurling
      // bots fetch this, and the owner made the image public to anyone holding the link.
      const { link } = await ctx.services.viewer.resolve(request.params.token, undefined);
      const image = await ctx.services.viewer.previewImage(link);
      if (!image) throw new AppError('not_found', 'This link has no preview image');
      return reply
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('etag', `"${image.sha256}"`)
        .type(image.contentType)
        .send(image.bytes);
    },
  );

  // GET /embed/:token — the same player, to be framed by any site
  app.get('/embed/:token', { config: pageConfig, schema: { hide: true, params: pageParams } }, async (request, reply) =>
    page(request, request.params.token, true, reply),
  );
}
