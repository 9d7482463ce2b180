import { defineModule } from '../module';
import { registerNotificationJobs } from './notifications.jobs';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService, type NotificationsService } from './notifications.service';

declare module '../module' {
  interface Services {
    notifications: { notifications: NotificationsService };
  }
}

/** E-mail to members about who viewed their demos: per viewer as it happens, or a daily digest. Opt-in. */
export const notificationsModule = defineModule({
  name: 'notifications',
  owns: { tables: 'notifications.tables.ts' },
  create: (kernel) => ({
    notifications: createNotificationsService({ ...kernel, appUrl: kernel.config.APP_URL.replace(/\/+$/, '') }),
  }),
  routes: notificationsRoutes,
  jobs: registerNotificationJobs,
});
