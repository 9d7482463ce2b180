import { api, apiList } from './client';

// The one list of event kinds is the server's (a plain constant: nothing else of the server is bundled).
export { EVENT_KINDS as WEBHOOK_EVENT_KINDS } from '../../../src/events/event-kinds';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
  updated_at: string;
  secret_hint: string;
  last_delivery_at: string | null;
  consecutive_failures: number;
  disabled_at: string | null;
  disabled_reason: 'manual' | 'failing' | 'gone' | null;
  previous_secret_expires_at: string | null;
}

export interface WebhookWithSecret extends Webhook {
  secret: string;
  standard_webhooks_secret: string;
}

export interface WebhookAttempt {
  attempt: number;
  started_at: string;
  duration_ms: number | null;
  outcome: 'succeeded' | 'failed' | 'lost';
  status_code: number | null;
  error: string | null;
  url: string;
  request_headers: Record<string, string>;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  response_truncated: boolean;
}

export interface WebhookDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  completed_at: string | null;
  redelivery_of: string | null;
  created_at: string;
  request_body: string;
  attempt_log: WebhookAttempt[];
}

const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export const webhooksApi = {
  list: () => apiList<Webhook>('/webhooks', { query: { per_page: 100 } }),
  get: (id: string) => api<Webhook>('GET', path(id)),
  create: (body: { url: string; events: string[]; secret?: string }) => api<WebhookWithSecret>('POST', '/webhooks', { body }),
  update: (id: string, body: { url?: string; events?: string[]; active?: boolean }) => api<Webhook>('PATCH', path(id), { body }),
  remove: (id: string) => api<void>('DELETE', path(id)),
  rotate: (id: string) => api<WebhookWithSecret>('POST', `${path(id)}/rotate-secret`, { body: {} }),
  test: (id: string) => api<WebhookDelivery>('POST', `${path(id)}/test`),
  deliveries: (id: string, page: number, status?: string) =>
    apiList<WebhookDelivery>(`${path(id)}/deliveries`, { query: { page, per_page: 20, status } }),
  redeliver: (id: string, deliveryId: string) =>
    api<WebhookDelivery>('POST', `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
};
