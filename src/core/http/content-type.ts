// Which request bodies a route accepts by Content-Type (JSON unless it declares otherwise): 415 for the rest.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import type { ZodApp } from './types';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Media types the route accepts for its body besides application/json (OAuth token form, uploads). */
    accepts?: string[];
  }
}

const hasBody = (headers: IncomingHttpHeaders) => Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;

/**
 * JSON in, JSON out: a body of any other type is a 415, unless the route names the type it takes. Checked
 * before parsing, so a form post to a JSON route never reaches its schema as a half-parsed object.
 */
export function registerContentTypePolicy(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  // Fastify runs a parser for any request of a body-carrying method that names a type, body or not: a DELETE
  // sent with "Content-Type: text/plain" and nothing else was a 415. Here a request without a body is never
  // refused for its header; one with a body of a type no route takes was refused by the hook below already.
  app.addContentTypeParser('*', (request, _payload, done) => {
    if (hasBody(request.headers)) done(new AppError('unsupported_media_type', 'Unsupported Content-Type: send application/json'));
    else done(null, undefined);
  });
  // A callback rather than an async hook: it runs on every request, and a promise would cost a microtask.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!hasBody(request.headers)) {
      // No route takes a DELETE body: a client's habitual "Content-Type: application/json" on one must not send
      // the empty body to the JSON parser, whose "empty body" 400 no DELETE documents.
      if (request.method === 'DELETE') delete request.raw.headers['content-type'];
      return done();
    }
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

/**
 * Lets the routes that take an image as the raw body (step images, the workspace logo) receive it as a
 * Buffer. Whichever of them registers first adds the parser; the image's real type is checked from its
 * bytes, never from this header.
 */
export function acceptImageBodies(app: ZodApp, types: readonly string[]) {
  const missing = types.filter((type) => !app.hasContentTypeParser(type));
  if (missing.length === 0) return;
  app.addContentTypeParser(missing, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}
