// A member's own choice: no e-mail (the default), one per identified viewer, or a daily digest; all demos or their own.
import type { AuthContext } from '../auth/permissions';
import type { NotificationsContext } from './notifications-context';
import * as repo from './notifications.repo';
import type { NotificationMode, NotificationScope } from './notifications.tables';

/** What GET and PATCH /v1/account/notifications read and write. */
export interface NotificationSettings {
  mode: NotificationMode;
  scope: NotificationScope;
}

/**
 * The caller's settings; `{ mode: 'off', scope: 'all' }` until they choose.
 *
 * @example
 * ```ts
 * const { mode, scope } = await notificationSettings(ctx, auth);
 * ```
 */
export async function notificationSettings(ctx: Pick<NotificationsContext, 'db'>, auth: AuthContext): Promise<NotificationSettings> {
  const row = await repo.findSettings(ctx.db, auth.memberId);
  return row ? { mode: row.mode, scope: row.scope } : { mode: 'off', scope: 'all' };
}

/**
 * Changes some of the caller's settings and returns them all.
 *
 * @example
 * ```ts
 * await updateNotificationSettings(ctx, auth, { mode: 'daily' }); // { mode: 'daily', scope: 'all' }
 * ```
 */
export async function updateNotificationSettings(
  ctx: Pick<NotificationsContext, 'db' | 'clock'>,
  auth: AuthContext,
  change: Partial<NotificationSettings>,
): Promise<NotificationSettings> {
  const current = await notificationSettings(ctx, auth);
  const next = { ...current, ...change };
  await repo.saveSettings(ctx.db, { memberId: auth.memberId, workspaceId: auth.workspaceId, ...next, updatedAt: ctx.clock.now() });
  return next;
}
