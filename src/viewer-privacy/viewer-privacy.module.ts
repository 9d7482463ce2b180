import { crmSyncItems } from '../crm/crm.tables';
import { defineModule } from '../module';
import { registerViewRetentionJob } from './view-retention';
import { viewerPrivacyRoutes } from './viewer-privacy.routes';
import { createViewerPrivacyService, type ViewerPrivacyService } from './viewer-privacy.service';
import { members } from '../accounts/accounts.tables';
import { demos } from '../demos/demos.tables';
import { events } from '../events/events.tables';
import { leads } from '../leads/leads.tables';
import { notificationsSent } from '../notifications/notifications.tables';
import { shares } from '../shares/shares.tables';
import { demoDailySegments, demoDailySketches, demoDailyStats, demoDailyViewers, demoStepDailyStats, demoChapterDailyStats, demoChapterStepDailyStats, demoElementDailyStats, demoFormDailyStats, demoPathDailyStats, ingestedEvents, shareAccessLog, viewSteps, viewerSessions, views, workspaceDailySketches } from '../viewing/viewing.tables';
import { webhookAttempts, webhookDeliveries } from '../webhooks/webhooks.tables';
import { slackMessages } from '../slack/slack.tables';
import { hubSessions } from '../hubs/hubs.tables';

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
  reads: { tables: [members, demos, events, leads, notificationsSent, shares, demoDailySegments, demoDailySketches, demoDailyStats, demoDailyViewers, demoStepDailyStats, demoChapterDailyStats, demoChapterStepDailyStats, demoElementDailyStats, demoFormDailyStats, demoPathDailyStats, ingestedEvents, shareAccessLog, viewerSessions, views, viewSteps, workspaceDailySketches, webhookAttempts, webhookDeliveries, crmSyncItems, slackMessages, hubSessions] },
  create: (kernel) => ({ viewerPrivacy: createViewerPrivacyService(kernel) }),
  routes: viewerPrivacyRoutes,
  jobs: registerViewRetentionJob,
});
