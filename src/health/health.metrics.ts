// The process's Prometheus metrics: one registry per app, shown by /metrics on the API's port and on a worker's WORKER_PORT.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Kernel } from '../context';

/** One process's metrics: what /metrics shows, and where the HTTP hook records each answer. */
export interface ProcessMetrics {
  registry: Registry;
  /** Counts one answer and its duration, by the route that matched ('unmatched' for a 404). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

/**
 * Every metric of the process, registered once in a registry of its own (not prom-client's global one, so
 * that apps built side by side in one test process do not collide). Built by the health module's services,
 * so the API's routes and a worker's probe server (health.worker-server.ts) show the same registry.
 *
 * @example
 * ```ts
 * import type { Kernel } from '../context';
 * import { createProcessMetrics } from './health.metrics';
 *
 * declare const kernel: Kernel;
 * const metrics = createProcessMetrics(kernel);
 * const text = await metrics.registry.metrics(); // Prometheus text format
 * ```
 */
export function createProcessMetrics(kernel: Pick<Kernel, 'database' | 'reads' | 'queue'>): ProcessMetrics {
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
  replicaMetrics(registry, kernel.reads);
  poolMetrics(registry, kernel.database);
  jobMetrics(registry, kernel.queue);
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
  };
}

/** The read replica (DATABASE_READ_URL, db/read-replica.ts): its measured lag, and where reads went. */
function replicaMetrics(registry: Registry, reads: Kernel['reads']) {
  new Gauge({
    name: 'demoshare_read_replica_lag_seconds',
    help: 'Measured lag of the read replica (DATABASE_READ_URL), including up to one probe interval; -1 while unknown or unreachable',
    registers: [registry],
    collect() {
      const lag = reads.lagMs();
      this.set(lag === null ? -1 : lag / 1000);
    },
  });
  new Gauge({
    name: 'demoshare_replica_eligible_reads',
    help: 'Reads that may run on the replica since start, by where they ran (replica, or primary: no replica, too far behind, or the workspace wrote since)',
    labelNames: ['served_by'] as const,
    registers: [registry],
    collect() {
      const served = reads.served();
      this.set({ served_by: 'replica' }, served.replica);
      this.set({ served_by: 'primary' }, served.primary);
    },
  });
  new Gauge({
    name: 'demoshare_replica_read_fallbacks',
    help: 'Statements the read replica failed since start (down, unreachable, or cancelled by its replay) that the primary then answered',
    registers: [registry],
    collect() {
      this.set(reads.served().fallbacks);
    },
  });
}

/**
 * PostgreSQL's pool (DATABASE_POOL_SIZE): connections in use that never come back, or requests queuing for
 * one (DATABASE_ACQUIRE_TIMEOUT), show here before they show as 503s. The embedded database has no pool.
 */
function poolMetrics(registry: Registry, database: Kernel['database']) {
  const { pool } = database;
  if (!pool) return;
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

/**
 * The background jobs (pg-boss) this process runs: none in an API-only process, whose series stay absent.
 * Per process, not per cluster: sum them over the workers. The backlog waiting in PostgreSQL is not here
 * (counting it would scan pg-boss's table at every scrape of every process).
 */
function jobMetrics(registry: Registry, queue: Kernel['queue']) {
  new Gauge({
    name: 'demoshare_jobs_running',
    help: 'Background jobs (pg-boss) this process is running now, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
    collect() {
      for (const [name, figures] of queue.jobFigures()) this.set({ queue: name }, figures.running);
    },
  });
  new Counter({
    name: 'demoshare_job_attempts_total',
    help: 'Background job attempts this process finished since start, by queue and outcome (completed, or failed: the handler threw and pg-boss retries per the queue)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
    collect() {
      // The figures are the queue's own counts; the counter shows them as they are at this scrape.
      this.reset();
      for (const [name, figures] of queue.jobFigures()) {
        this.inc({ queue: name, outcome: 'completed' }, figures.completed);
        this.inc({ queue: name, outcome: 'failed' }, figures.failed);
      }
    },
  });
}
