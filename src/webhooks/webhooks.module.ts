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

/** Webhooks: subscriptions, signed deliveries from the outbox, retries, the delivery log. */
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
