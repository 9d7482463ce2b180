import { z } from 'zod';
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { NOTIFICATION_MODES, NOTIFICATION_SCOPES } from './notifications.tables';

const tags = ['Account (web app)'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };

const mode = z.enum(NOTIFICATION_MODES).meta({
  description:
    '`off` (the default); `instant`: an e-mail when an identified viewer opens one of the demos, at most one per ' +
    'viewer, link and day, and one per lead and per visitor who passes a hub’s identification or lead form (once per ' +
    'hub visit and address; never for a member’s own visit); `daily`: one digest each morning (07:00 UTC) about the day before (views, completions, ' +
    'new companies, who viewed; per hub with activity, its visits and identified visitors with a link to its Visitors card), none on a day ' +
    'without views or hub activity. Views and hub visits by members of the workspace are left out.',
});
const scope = z.enum(NOTIFICATION_SCOPES).meta({ description: '`all` demos and hubs of the workspace, or only those you created (`mine`).' });

export const notificationSettingsSchema = z
  .object({ mode, scope })
  .meta({ id: 'NotificationSettings', examples: [{ mode: 'daily', scope: 'mine' }] });
const patchBody = z
  .object({ mode: mode.optional(), scope: scope.optional() })
  .strict()
  .meta({ examples: [{ mode: 'instant' }, { mode: 'daily', scope: 'all' }] });

/** The signed-in member's notification settings, in the workspace the session acts in. */
export function notificationsRoutes(app: ZodApp, ctx: ModuleContext<Services['notifications']>) {
  const { notifications } = ctx.services;

  app.get(
    '/account/notifications',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Your viewer notifications',
        description: 'In the workspace the session acts in: each workspace has its own.',
        response: { 200: dataEnvelope(notificationSettingsSchema), ...errors },
      },
    },
    async (request) => ok(request, await notifications.settings(callerOf(request))),
  );

  app.patch(
    '/account/notifications',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Change your viewer notifications',
        description: 'Fields left out stay as they are.',
        body: patchBody,
        response: { 200: dataEnvelope(notificationSettingsSchema), ...errors },
      },
    },
    async (request) => ok(request, await notifications.update(callerOf(request), request.body)),
  );
}
