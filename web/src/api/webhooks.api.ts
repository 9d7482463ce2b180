import type { z } from 'zod';
import type {
  attemptSchema,
  createWebhookBody,
  deliverySchema,
  updateWebhookBody,
  webhookSchema,
  webhookWithSecretSchema,
} from '../../../src/webhooks/webhooks.schemas';
import { api, apiList } from './client';

// The one list of event kinds is the server's (a plain constant: nothing else of the server is bundled).
export { EVENT_KINDS as WEBHOOK_EVENT_KINDS } from '../../../src/events/event-kinds';

// Wire types from the server's schemas (type-only: nothing of the server is bundled).
export type Webhook = z.output<typeof webhookSchema>;
export type WebhookWithSecret = z.output<typeof webhookWithSecretSchema>;
export type WebhookAttempt = z.output<typeof attemptSchema>;
export type WebhookDelivery = z.output<typeof deliverySchema>;
export type NewWebhook = z.input<typeof createWebhookBody>;
export type WebhookChange = z.input<typeof updateWebhookBody>;

const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export const webhooksApi = {
  list: () => apiList<Webhook>('/webhooks', { query: { per_page: 100 } }),
  get: (id: string) => api<Webhook>('GET', path(id)),
  create: (body: NewWebhook) => api<WebhookWithSecret>('POST', '/webhooks', { body }),
  update: (id: string, body: WebhookChange) => api<Webhook>('PATCH', path(id), { body }),
  remove: (id: string) => api<void>('DELETE', path(id)),
  rotate: (id: string) => api<WebhookWithSecret>('POST', `${path(id)}/rotate-secret`, { body: {} }),
  test: (id: string) => api<WebhookDelivery>('POST', `${path(id)}/test`),
  deliveries: (id: string, page: number, status?: string) =>
    apiList<WebhookDelivery>(`${path(id)}/deliveries`, { query: { page, per_page: 20, status } }),
  redeliver: (id: string, deliveryId: string) =>
    api<WebhookDelivery>('POST', `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
};
