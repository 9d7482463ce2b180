import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** Fastify's form: `/v1/demos/:id`. */
  url: string;
}

/**
 * Every route the app registered, read from Fastify's own route tree (`printRoutes`), so that a test
 * covers routes added later without a list to keep up to date. HEAD routes (Fastify adds one per GET)
 * are left out.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (parents[depth - 1] ?? '') + match[2]!;
    parents[depth] = url;
    parents.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

/** `/v1/demos/:id` → `/v1/demos/{id}`, the OpenAPI form. */
export const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
