import { defineModule } from '../module';
import { registerWebhooksJobs } from './webhooks.jobs';
import { webhooksRoutes } from './webhooks.routes';
import { createWebhooksService, type WebhooksService } from './webhooks.service';
import { members } from '../accounts/accounts.tables';

declare module '../module' {
  interface Services {
    webhooks: { webhooks: WebhooksService };
  }
}

/**
 * Webhooks: subscriptions, signed deliveries from the outbox, retries, the delivery log. The routes call
 * the service (webhooks.service.ts); worker processes run the delivery loop (webhooks.jobs.ts).
 *
 * @example
 * ```ts
 * // app.ts lists it with the other modules; a domain never calls it: it records events with emitEvent
 * // (events/outbox.ts) and the dispatcher fans them out to the subscribed webhooks.
 * const { row, secret } = await services.webhooks.webhooks.create(auth, { url, events: ['demo.published'] }, actor);
 * ```
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  owns: { tables: 'webhooks.tables.ts', ids: ['webhook', 'delivery'], events: ['webhook.test'], permissions: ['webhooks.manage'] },
  reads: { tables: [members] },
  create: (kernel) => ({
    webhooks: createWebhooksService({
      ...kernel,
      sealingKey: kernel.secrets.sealing,
      rotationGraceMs: kernel.config.WEBHOOK_ROTATION_GRACE,
      maxAttempts: kernel.config.WEBHOOK_RETRY_DELAYS.length + 1,
    }),
  }),
  routes: webhooksRoutes,
  jobs: registerWebhooksJobs,
});
