// The /docs reference page (Swagger UI) over the OpenAPI document made from the routes' zod schemas.
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

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
    await docs.register(fastifySwaggerUi, { routePrefix: '/docs' });
  });
}
