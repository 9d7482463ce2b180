// Which workspace a request's Host belongs to when it arrives on a custom domain, and the one check every
// public route (share pages, hubs, the viewer API) makes with it. Set by the domains module's hook.
import type { FastifyRequest } from 'fastify';
import { notFound } from '../errors';

/** A verified custom domain the request came in on: only this workspace's public pages are served there. */
export interface PublicHost {
  workspaceId: string;
  hostname: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the Host is a workspace's verified custom domain; absent on the instance's own origin. */
    publicHost?: PublicHost;
  }
}

/**
 * Refuses (404, as for an unknown link) a link, hub or embed of another workspace asked for on a custom
 * domain, so a domain never serves anything but its own workspace's. On the instance's origin it passes.
 *
 * @example
 * ```ts
 * const link = await viewer.link(token);
 * assertServedHere(request, link.workspaceId, 'Share link');
 * ```
 */
export function assertServedHere(request: Pick<FastifyRequest, 'publicHost'>, workspaceId: string, what: string): void {
  if (request.publicHost && request.publicHost.workspaceId !== workspaceId) throw notFound(what);
}
