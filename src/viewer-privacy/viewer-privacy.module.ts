import { defineModule } from '../module';
import { registerViewRetentionJob } from './view-retention';
import { viewerPrivacyRoutes } from './viewer-privacy.routes';
import { createViewerPrivacyService, type ViewerPrivacyService } from './viewer-privacy.service';

declare module '../module' {
  interface Services {
    viewerPrivacy: { viewerPrivacy: ViewerPrivacyService };
  }
}

/**
 * Erasing a viewer's data by e-mail, and the views past VIEW_RETENTION. Erasure reaches into the tables of
 * views, shares, webhooks and notifications in one transaction, so it sits above them all and none of them
 * knows it.
 */
export const viewerPrivacyModule = defineModule({
  name: 'viewerPrivacy',
  owns: { permissions: ['viewers.erase'] },
  create: (kernel) => ({ viewerPrivacy: createViewerPrivacyService(kernel) }),
  routes: viewerPrivacyRoutes,
  jobs: registerViewRetentionJob,
});
