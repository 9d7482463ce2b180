// 404 for an unknown path and 405 (with Allow) for a known path's unknown method, in the one error body.
import type { FastifyInstance, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';
import { AppError } from '../errors';
import { sendError } from './error-handler';

/**
 * Fastify answers every unknown method+path with 404. To answer 405 (with `Allow`) when the path exists
 * under another method, routes are mirrored into a second router that is consulted only on a miss.
 */
export function registerNotFound(app: FastifyInstance) {
  const mirror = FindMyWay();
  const allowed = new Map<string, Set<string>>();

  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    // Catch-all routes (the web app's) would make every path look known.
    if (route.url.includes('*')) return;
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const path = route.url;
      if (!allowed.has(path)) {
        allowed.set(path, new Set());
        mirror.on('GET', path, () => {}, { path });
      }
      allowed.get(path)?.add(method);
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const match = mirror.find('GET', url);
    const path = (match?.store as { path?: string } | undefined)?.path;
    const methods = path ? allowed.get(path) : undefined;
    if (methods && !methods.has(request.method)) {
      const allow = [...methods].sort().join(', ');
      reply.header('allow', allow);
      return sendError(
        request,
        reply,
        new AppError('method_not_allowed', `${request.method} is not allowed here; allowed: ${allow}`),
      );
    }
    return sendError(request, reply, new AppError('not_found', `No route for ${request.method} ${url}`));
  });
}
