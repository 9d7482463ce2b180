// GET /healthz, /readyz and /metrics: what an orchestrator and Prometheus poll, with no credentials.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { sendError, toAppError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../core/http/error-handler';
import { OverloadedError } from '../core/http/overload';
import type { ZodApp } from '../core/http/types';

const tags = ['Operations'];

/** Liveness, readiness and Prometheus metrics; outside /v1 and without credentials, as orchestrators expect. */
export function healthRoutes(app: ZodApp, ctx: ModuleContext<Services['health']>) {
  const { metrics } = ctx.services;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // GET /healthz — the process is up
  app.get(
    '/healthz',
    { config: { servedUnderLoad: true }, schema: { tags, summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok') }).meta({ examples: [{ status: 'ok' }] }) } } },
    async () => ({ status: 'ok' as const }),
  );

  // GET /readyz — the database answers
  app.get(
    '/readyz',
    {
      // Overloaded (core/http/overload.ts), the process is not ready either: a load balancer sends elsewhere.
      errorHandler: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
        if (!(error instanceof OverloadedError)) return sendError(request, reply, toAppError(error));
        return reply
          .code(503)
          .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
          .send({ status: 'unavailable' as const, database: ctx.database.kind });
      },
      schema: {
        tags,
        summary: 'Readiness (database reachable, process not overloaded)',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.string() }).meta({ examples: [{ status: 'ok', database: 'postgres' }] }),
          503: z.object({ status: z.literal('unavailable'), database: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.database.ping();
        return { status: 'ok' as const, database: ctx.database.kind };
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const, database: ctx.database.kind });
      }
    },
  );

  // GET /metrics — Prometheus text format
  app.get('/metrics', { config: { servedUnderLoad: true }, schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
