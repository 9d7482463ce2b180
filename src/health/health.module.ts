import { defineModule } from '../module';
import { createProcessMetrics, type ProcessMetrics } from './health.metrics';
import { healthRoutes } from './health.routes';

declare module '../module' {
  interface Services {
    health: { metrics: ProcessMetrics };
  }
}

/** /healthz, /readyz and /metrics, on the API's port and on a worker's WORKER_PORT (health.worker-server.ts). */
export const healthModule = defineModule({
  name: 'health',
  // The process's one registry: every server that shows /metrics shows this one, so nothing registers twice.
  create: (kernel) => ({ metrics: createProcessMetrics(kernel) }),
  pages: healthRoutes,
});
