import { defineModule } from '../module';
import { healthRoutes } from './health.routes';

declare module '../module' {
  interface Services {
    health: Record<string, never>;
  }
}

/** /healthz, /readyz and /metrics. */
export const healthModule = defineModule({ name: 'health', create: () => ({}), pages: healthRoutes });
