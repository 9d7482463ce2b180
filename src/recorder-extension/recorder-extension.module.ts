import { defineModule } from '../module';
import { recorderExtensionRoutes } from './recorder-extension.routes';

declare module '../module' {
  interface Services {
    recorderExtension: Record<string, never>;
  }
}

/** The recorder browser extension as this instance serves it (/extension/…), packed with its own address. */
export const recorderExtensionModule = defineModule({
  name: 'recorderExtension',
  create: () => ({}),
  pages: (app, ctx) => recorderExtensionRoutes(app, ctx),
});
