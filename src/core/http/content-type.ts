import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Media types the route accepts for its body besides application/json (OAuth token form, uploads). */
    accepts?: string[];
  }
}

/**
 * JSON in, JSON out: a body of any other type is a 415, unless the route names the type it takes. Checked
 * before parsing, so a form post to a JSON route never reaches its schema as a half-parsed object.
 */
export function registerContentTypePolicy(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  // A callback rather than an async hook: it runs on every request, and a promise would cost a microtask.
  app.addHook('onRequest', (request, _reply, done) => {
    const hasBody =
      Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return done();
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type === 'application/json') return done();
    const accepts = request.routeOptions.config?.accepts ?? [];
    if (accepts.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))))) return done();
    const allowed = ['application/json', ...accepts].join(', ');
    done(
      new AppError(
        'unsupported_media_type',
        type ? `Unsupported Content-Type ${type}: send ${allowed}` : `Missing Content-Type: send ${allowed}`,
      ),
    );
  });
}
