import { defineModule } from '../module';
import { registerNotificationJobs } from './notifications.jobs';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService, type NotificationsService } from './notifications.service';
import { members, users } from '../accounts/accounts.tables';
import { demos } from '../demos/demos.tables';
import { hubSessions, hubs } from '../hubs/hubs.tables';
import { shares } from '../shares/shares.tables';
import { views } from '../viewing/viewing.tables';
import { workspaces } from '../workspaces/workspaces.tables';

declare module '../module' {
  interface Services {
    notifications: { notifications: NotificationsService };
  }
}

/**
 * E-mail to members about who viewed their demos and hubs: per viewer as it happens, or a daily digest. Opt-in.
 * The viewing module tells it of an identified viewer, the hubs module of a hub's visitor, the leads module
 * of a lead, each in its own transaction.
 *
 * @example
 * ```ts
 * // the viewing module: needs: ['notifications'], then
 * onIdentified: (tx, viewer) => deps.notifications.notifications.viewerIdentified(tx, viewer),
 * ```
 */
export const notificationsModule = defineModule({
  name: 'notifications',
  owns: { tables: 'notifications.tables.ts' },
  reads: { tables: [members, users, demos, hubs, hubSessions, shares, views, workspaces] },
  create: (kernel) => ({
    notifications: createNotificationsService({ ...kernel, appUrl: kernel.config.APP_URL.replace(/\/+$/, '') }),
  }),
  routes: notificationsRoutes,
  jobs: registerNotificationJobs,
});
