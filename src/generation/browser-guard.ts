// The SSRF guard inside Chromium: the browser opens no connection of its own, every request is answered through SafeFetch within a budget.
import type { BrowserContext, Request, Route } from 'playwright-core';
import { BlockedUrlError, type SafeFetch } from '../core/net/safe-fetch';

export interface GuardLimits {
  /** Requests one capture may make (every page of it, every resource). */
  maxRequests: number;
  /** Bytes one capture may download in all. */
  maxBytes: number;
  /** Epoch milliseconds after which nothing more is fetched. */
  deadline: number;
  /** Whether the top frame may load this address; a capture stays on its page (no meta refresh, no script redirects). */
  mayNavigate: (url: string) => boolean;
}

export interface GuardStats {
  requests: number;
  bytes: number;
  /** Addresses refused or cut off, with the reason. */
  blocked: Array<{ url: string; reason: string }>;
  /** Where a main-frame navigation ended after redirects, keyed by the address asked for. */
  redirects: Map<string, string>;
  /** Stylesheets the page loaded, so the snapshot inlines them without fetching them again. */
  stylesheets: Map<string, { url: string; body: Buffer }>;
}

const MAX_RESOURCE_BYTES = 8 * 1024 * 1024;
const REQUEST_HEADERS = ['accept', 'accept-language', 'content-type', 'cookie', 'referer', 'user-agent', 'origin', 'x-requested-with'];
// Hop-by-hop and encoding headers describe the transfer SafeFetch did, not the body handed to the browser.
const DROPPED_RESPONSE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Makes a browser context unable to open a connection of its own: every request it makes is answered
 * by SafeFetch (public addresses only, checked at connect time, redirects followed by hand and each hop
 * re-checked) through `route.fulfill`, within a request, byte and time budget. WebSockets are closed
 * before they connect. Redirects are followed here, never handed to the browser, so no redirect target
 * can escape interception.
 */
export async function guardContext(context: BrowserContext, net: SafeFetch, limits: GuardLimits): Promise<GuardStats> {
  const stats: GuardStats = { requests: 0, bytes: 0, blocked: [], redirects: new Map(), stylesheets: new Map() };

  await context.route('**/*', async (route: Route) => {
    const request = route.request();
    const url = request.url();
    const refuse = async (reason: string, code: 'blockedbyclient' | 'failed' = 'blockedbyclient') => {
      stats.blocked.push({ url, reason });
      await route.abort(code).catch(() => {});
    };
    if (!/^https?:/i.test(url)) return refuse('not http(s)');
    if (isMainNavigation(request) && !limits.mayNavigate(url)) {
      // 204 tells the browser to stay on the page; an aborted navigation would replace it with an error page.
      stats.blocked.push({ url, reason: 'the page tried to navigate away' });
      return route.fulfill({ status: 204, body: '' }).catch(() => {});
    }
    const remaining = limits.deadline - Date.now();
    if (remaining <= 0) return refuse('time limit reached');
    if (stats.requests >= limits.maxRequests) return refuse(`more than ${limits.maxRequests} requests`);
    if (stats.bytes >= limits.maxBytes) return refuse(`more than ${limits.maxBytes} bytes`);
    stats.requests++;
    try {
      const res = await net.fetch(url, {
        method: request.method(),
        headers: forwardedHeaders(await request.allHeaders()),
        body: request.postDataBuffer() ?? undefined,
        maxRedirects: 5,
        maxBytes: Math.min(MAX_RESOURCE_BYTES, limits.maxBytes - stats.bytes),
        timeoutMs: Math.min(remaining, 15_000),
      });
      stats.bytes += res.body.length;
      if (res.truncated) return refuse('response too large', 'failed');
      if (res.url !== url && isMainNavigation(request)) stats.redirects.set(url, res.url);
      if (res.status === 200 && /text\/css/i.test(res.headers['content-type'] ?? '')) stats.stylesheets.set(url, { url: res.url, body: res.body });
      await route.fulfill({ status: res.status, headers: responseHeaders(res.headers), body: res.body });
    } catch (error) {
      await refuse(error instanceof BlockedUrlError ? error.message : (error as Error).message, error instanceof BlockedUrlError ? 'blockedbyclient' : 'failed');
    }
  });

  await context.routeWebSocket(/.*/, async (ws) => {
    stats.blocked.push({ url: ws.url(), reason: 'WebSockets are not captured' });
    await ws.close({ code: 1008, reason: 'blocked' });
  });

  return stats;
}

function isMainNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    return false;
  }
}

function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of REQUEST_HEADERS) if (headers[name]) out[name] = headers[name];
  return out;
}

function responseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!DROPPED_RESPONSE_HEADERS.has(name)) out[name] = value;
  return out;
}
