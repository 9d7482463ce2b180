// GET /healthz, /readyz and /metrics: what an orchestrator and Prometheus poll, with no credentials.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { sendError, toAppError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../core/http/error-handler';
import { OverloadedError } from '../core/http/overload';
import type { ZodApp } from '../core/http/types';

const tags = ['Operations'];

/** Liveness, readiness and Prometheus metrics; outside /v1 and without credentials, as orchestrators expect. */
export function healthRoutes(app: ZodApp, ctx: ModuleContext<Services['health']>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'demoshare_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'demoshare_http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });

  // The read replica (DATABASE_READ_URL, db/read-replica.ts): its measured lag, and where reads went.
  new Gauge({
    name: 'demoshare_read_replica_lag_seconds',
    help: 'Measured lag of the read replica (DATABASE_READ_URL), including up to one probe interval; -1 while unknown or unreachable',
    registers: [registry],
    collect() {
      const lag = ctx.reads.lagMs();
      this.set(lag === null ? -1 : lag / 1000);
    },
  });
  new Gauge({
    name: 'demoshare_replica_eligible_reads',
    help: 'Reads that may run on the replica since start, by where they ran (replica, or primary: no replica, too far behind, or the workspace wrote since)',
    labelNames: ['served_by'] as const,
    registers: [registry],
    collect() {
      const served = ctx.reads.served();
      this.set({ served_by: 'replica' }, served.replica);
      this.set({ served_by: 'primary' }, served.primary);
    },
  });
  new Gauge({
    name: 'demoshare_replica_read_fallbacks',
    help: 'Statements the read replica failed since start (down, unreachable, or cancelled by its replay) that the primary then answered',
    registers: [registry],
    collect() {
      this.set(ctx.reads.served().fallbacks);
    },
  });

  // PostgreSQL's pool (DATABASE_POOL_SIZE): connections in use that never come back, or requests queuing for
  // one (DATABASE_ACQUIRE_TIMEOUT), show here before they show as 503s.
  const { pool } = ctx.database;
  if (pool) {
    new Gauge({
      name: 'demoshare_database_connections',
      help: 'Connections of the process’s PostgreSQL pool (DATABASE_POOL_SIZE) by state: in_use, idle, and waiting (queries queued for a connection)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
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
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
