import type { AuthContext } from '../auth/permissions';
import type { Executor } from '../db/client';
import { sendDigests, workspaceDigest } from './daily-digest';
import { type NotificationSettings, notificationSettings, updateNotificationSettings } from './notification-settings';
import type { NotificationsContext, NotificationsDeps } from './notifications-context';
import { type IdentifiedJob, queueViewerNotice, sendViewerNotices } from './viewer-notices';
import { type LeadJob, queueLeadNotice, sendLeadNotices } from './lead-notices';
import { type HubVisitorJob, queueHubNotice, sendHubNotices } from './hub-notices';

// viewer-privacy deletes a viewer's queued notices by this queue's name.

/**
 * E-mail to members about their viewers, opt-in per member: at once when an identified viewer opens a
 * link (at most one message per viewer, link and member a day), or one digest a day. Messages go through
 * the durable mail queue in the transaction that records them as sent, so a retry never sends twice and a
 * crash never loses one. The steps: notification-settings.ts, viewer-notices.ts, lead-notices.ts, hub-notices.ts,
 * daily-digest.ts.
 *
 * @example
 * ```ts
 * const notifications = createNotificationsService({ ...kernel, appUrl: 'https://app.example.com' });
 * await notifications.update(auth, { mode: 'instant' });
 * await notifications.viewerIdentified(tx, { workspaceId, demoId, shareId, email, name, at }); // in the gate's transaction
 * ```
 */
export function createNotificationsService({ database, ...deps }: NotificationsDeps) {
  const ctx: NotificationsContext = { ...deps, db: database.db };
  return {
    settings: (auth: AuthContext) => notificationSettings(ctx, auth),
    update: (auth: AuthContext, change: Partial<NotificationSettings>) => updateNotificationSettings(ctx, auth, change),
    viewerIdentified: (tx: Executor, job: IdentifiedJob) => queueViewerNotice(ctx, tx, job),
    sendViewerNotices: (job: IdentifiedJob) => sendViewerNotices(ctx, job),
    /** In a lead's transaction (src/leads): the instant subscribers hear of it (lead-notices.ts). */
    leadCaptured: (tx: Executor, job: LeadJob) => queueLeadNotice(ctx, tx, job),
    sendLeadNotices: (job: LeadJob) => sendLeadNotices(ctx, job),
    /** In a hub identification's transaction (src/hubs): the instant subscribers hear of the visitor (hub-notices.ts). */
    hubVisitorIdentified: (tx: Executor, job: HubVisitorJob) => queueHubNotice(ctx, tx, job),
    sendHubNotices: (job: HubVisitorJob) => sendHubNotices(ctx, job),
    sendDigests: (day?: string) => sendDigests(ctx, day),
    /** A workspace's day as the digest tells it (views and hub visits), for another channel (Slack); null when neither. */
    digest: (workspaceId: string, day: string, createdBy?: string) => workspaceDigest(ctx, workspaceId, day, createdBy),
  };
}

/** `services.notifications.notifications`. */
export type NotificationsService = ReturnType<typeof createNotificationsService>;
