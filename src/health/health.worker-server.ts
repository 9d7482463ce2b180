// A worker's own HTTP server (WORKER_PORT): /healthz, /readyz and /metrics, the API's routes on the worker's registry, and nothing else.
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { registerErrorHandler } from '../core/http/error-handler';
import { registerNotFound } from '../core/http/not-found';
import { frameworkErrorAnswer, registerTransportHeaders } from '../core/http/transport-headers';
import type { ZodApp } from '../core/http/types';
import { newId } from '../core/ids';
import { healthRoutes } from './health.routes';

/**
 * The server `demoshare worker` listens with when WORKER_PORT is set: what an orchestrator probes and
 * Prometheus scrapes, for a process that otherwise has no port. The same routes as the API's (health.routes.ts)
 * over the same registry (the health module's services), so a worker's /metrics shows its own pool, jobs and
 * event loop; any other path is a 404 in the error body. No load shedding: a worker's loop is busy with jobs
 * by design, and its probes must answer through it. Not listening: runtime.ts listens and closes it.
 *
 * @example
 * ```ts
 * import type { AppContext } from '../context';
 * import { buildWorkerServer } from './health.worker-server';
 *
 * declare const ctx: AppContext;
 * const server = await buildWorkerServer(ctx);
 * await server.listen({ port: ctx.config.WORKER_PORT!, host: ctx.config.HOST });
 * ```
 */
export async function buildWorkerServer(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    genReqId: () => newId('request'),
    // A probe every few seconds and a scrape every few more would be most of a worker's log: errors only.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorAnswer(),
  }).withTypeProvider() as unknown as ZodApp;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerNotFound(app);
  registerTransportHeaders(app);
  healthRoutes(app, { ...ctx, services: ctx.services.health });
  await app.ready();
  return app as unknown as FastifyInstance;
}
