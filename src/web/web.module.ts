import { defineModule } from '../module';
import { webRoutes } from './web.routes';

declare module '../module' {
  interface Services {
    web: Record<string, never>;
  }
}

/** The web app's static files and its client-side routes: last, since it answers what nothing else does. */
export const webModule = defineModule({ name: 'web', create: () => ({}), pages: (app) => webRoutes(app) });
