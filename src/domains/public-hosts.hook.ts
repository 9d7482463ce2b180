// The Host routing: a verified custom domain serves its workspace's public viewer pages and nothing else.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, SESSION_COOKIE } from '../auth/authenticate';
import { AppError } from '../core/errors';
import type { DomainHosts } from './domain-hosts';
import { hostKey, isInstanceAlias } from './domain-name';

/** Route patterns a custom domain serves: the viewer pages and the public viewer APIs, nothing of the app. */
const PUBLIC_PREFIXES = ['/s/', '/embed/', '/h/', '/player/', '/v1/viewer/', '/v1/hub-viewer/'];
const LOGO_ROUTE = '/v1/workspace-logos/';
/** Host values remembered at once (their normal form, and whether they are the instance's). */
const KNOWN_HOSTS_MAX = 1_000;

function isPublicSurface(request: FastifyRequest, workspaceId: string): boolean {
  const pattern = request.routeOptions.url;
  if (!pattern) return false;
  if (PUBLIC_PREFIXES.some((prefix) => pattern.startsWith(prefix))) return true;
  // The brand's logo, of this workspace only.
  if (pattern.startsWith(LOGO_ROUTE)) return (request.params as Record<string, string>).workspace_id === workspaceId;
  return request.url === '/favicon.svg';
}

/** A GET or HEAD of `/` (with or without a query string). */
const isRoot = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') && (request.url === '/' || request.url.startsWith('/?'));

const plainPage = (title: string, text: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#333">
<h1 style="font-size:1.25rem">${title}</h1><p>${text}</p></body></html>`;
const UNKNOWN = {
  message: 'No workspace serves this domain',
  page: plainPage('Nothing is published on this domain', 'This address is not (or no longer) a verified custom domain here.'),
};
const ELSEWHERE = {
  message: 'Not found on this domain',
  page: plainPage('Nothing here', 'This domain serves shared demos only: open the link you were sent.'),
};

/** A browser gets a plain page; anything else (the API, scripts) the one error body. */
function refuse(request: FastifyRequest, reply: FastifyReply, answer: typeof UNKNOWN): FastifyReply | undefined {
  const accept = request.headers.accept ?? '';
  if (request.method === 'GET' && !request.url.startsWith('/v1/') && accept.includes('text/html')) {
    return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(answer.page);
  }
  throw new AppError('not_found', answer.message);
}

/**
 * Sets `request.publicHost` (core/http/public-host.ts) for a verified custom domain's Host and answers 404
 * for everything there but the public viewer surface; an unknown, unverified or removed name gets the
 * unknown-domain 404. APP_URL's and API_URL's hosts, IP literals and localhost are the instance itself.
 * The Host is `request.host`: X-Forwarded-Host only with TRUST_PROXY, so a client cannot pick another
 * workspace's domain through a header a proxy does not set. On a custom domain the app's session and CSRF
 * cookies are dropped before anything reads them: a member's session is never honoured there.
 *
 * @example
 * registerPublicHosts(app, services.domains.hosts, ['app.demoshare.io']); // after @fastify/cookie, before auth
 */
export function registerPublicHosts(app: FastifyInstance, hosts: Pick<DomainHosts, 'ownerOf' | 'rootOf'>, instanceHosts: readonly string[]) {
  const own = new Set(instanceHosts);
  // Nearly every request names one of a handful of Host values: their normal form and whether they are the
  // instance's own are remembered, so the common request pays one Map lookup, not an IDNA conversion and a
  // promise. Bounded, since the header is the client's: past the bound it starts afresh.
  const known = new Map<string, { host: string; instance: boolean }>();
  const classify = (raw: string) => {
    let entry = known.get(raw);
    if (!entry) {
      const host = hostKey(raw);
      entry = { host, instance: own.has(host) || isInstanceAlias(host) };
      if (known.size >= KNOWN_HOSTS_MAX) known.clear();
      known.set(raw, entry);
    }
    return entry;
  };

  async function customDomain(request: FastifyRequest, reply: FastifyReply, host: string): Promise<boolean> {
    const workspaceId = await hosts.ownerOf(host);
    if (!workspaceId) return refuse(request, reply, UNKNOWN) !== undefined;
    request.publicHost = { workspaceId, hostname: host };
    if (request.cookies) {
      delete request.cookies[SESSION_COOKIE];
      delete request.cookies[CSRF_COOKIE];
    }
    if (isRoot(request)) {
      // The domain itself, typed in a browser: where the workspace sends it (its hub, its website), if anywhere.
      const root = await hosts.rootOf(host);
      if (root) {
        reply.code(302).header('location', root).header('cache-control', 'no-store').send();
        return true;
      }
    }
    if (!isPublicSurface(request, workspaceId)) return refuse(request, reply, ELSEWHERE) !== undefined;
    return false;
  }

  // A callback hook: the instance's own hosts go on without a promise; a custom domain waits for its owner.
  app.addHook('onRequest', (request, reply, done) => {
    const { host, instance } = classify(request.host ?? '');
    if (instance) return done();
    customDomain(request, reply, host).then((answered) => {
      if (!answered) done();
    }, done);
  });
}
