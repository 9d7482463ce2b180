import type { z } from 'zod';
import type { notificationSettingsSchema } from '../../../src/notifications/notifications.routes';
import { api } from './client';

export type NotificationSettings = z.output<typeof notificationSettingsSchema>;

/** The signed-in member's e-mail about viewers, in the workspace the session acts in. */
export const notificationsApi = {
  get: () => api<NotificationSettings>('GET', '/account/notifications'),
  update: (body: Partial<NotificationSettings>) => api<NotificationSettings>('PATCH', '/account/notifications', { body }),
};
