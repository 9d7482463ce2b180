import { z } from 'zod';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';
import { EVENT_KINDS } from '../events/event-kinds';
import type { AttemptRow, DeliveryRow } from './webhook-deliveries.repo';
import type { WebhookRow } from './webhooks.repo';
import { DELIVERY_STATUSES } from './webhooks.tables';
import { text } from '../core/text';

const eventKind = z.enum(EVENT_KINDS, {
  error: (issue) => `unknown event kind ${JSON.stringify(issue.input)}; valid kinds: ${EVENT_KINDS.join(', ')}`,
});

const eventsField = z
  .array(eventKind)
  .min(1, `give at least one event kind (${EVENT_KINDS.join(', ')})`)
  .transform((kinds) => [...new Set(kinds)])
  .meta({ description: `Event kinds to deliver: ${EVENT_KINDS.join(', ')}.` });

const urlField = text().trim().min(1).max(2048).meta({
  description: 'http(s) address of the receiver. Private, loopback and link-local addresses are refused.',
  example: 'https://example.com/hooks/demoshare',
});

const secretField = text().min(8, 'must be at least 8 characters').max(512).meta({
  description:
    'Signing secret. Omit it to have one generated (`whsec_...`), returned once in the creation response. ' +
    'The HMAC key is the UTF-8 bytes of this string.',
});

export const createWebhookBody = z
  .object({ url: urlField, events: eventsField, secret: secretField.optional() })
  .strict()
  .meta({ examples: [{ url: 'https://crm.example.com/hooks/demoshare', events: ['demo.viewed', 'demo.completed'] }] });

export const updateWebhookBody = z
  .object({
    url: urlField.optional(),
    events: eventsField.optional(),
    active: z.boolean().optional().meta({
      description: 'false disables the webhook; true re-enables it and resets its failure count.',
    }),
  })
  .strict()
  .meta({ examples: [{ active: true }, { events: ['demo.completed'] }] });

export const rotateSecretBody = z
  .object({ secret: secretField.optional() })
  .strict()
  // A POST without a body reaches the schema as null.
  .nullish()
  .meta({ examples: [{}, { secret: 'whsec_my-own-signing-secret-2026' }] });

export const webhookParams = z.object({ id: idSchema('webhook') });
export const deliveryParams = z.object({ id: idSchema('webhook'), delivery_id: idSchema('delivery') });

export const deliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this state.' }),
});

/** A webhook as the API answers it (the examples of the document). */
const WEBHOOK_EXAMPLE = {
  id: 'whk_01jd3n4p6q8r0s2t4v6w8x0y2z',
  url: 'https://crm.example.com/hooks/demoshare',
  events: ['demo.viewed', 'demo.completed'],
  active: true,
  created_at: '2026-11-21T10:20:00.000Z',
  updated_at: '2026-11-21T10:20:00.000Z',
  secret_hint: '...0f1a',
  last_delivery_at: '2026-11-24T15:42:11.000Z',
  consecutive_failures: 0,
  disabled_at: null,
  disabled_reason: null,
  previous_secret_expires_at: null,
};

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
    secret_hint: z.string().meta({ description: 'The end of the secret, to recognise it. The secret itself is never returned again.' }),
    last_delivery_at: timestamp.nullable().meta({ description: 'Time of the latest attempt, successful or not.' }),
    consecutive_failures: z.number().int().meta({ description: 'Failed attempts since the last success.' }),
    disabled_at: timestamp.nullable(),
    disabled_reason: z
      .enum(['manual', 'failing', 'gone'])
      .nullable()
      .meta({ description: '`manual` (PATCH active:false), `failing` (failed for WEBHOOK_DISABLE_AFTER) or `gone` (410).' }),
    previous_secret_expires_at: timestamp
      .nullable()
      .meta({ description: 'During a rotation: until when deliveries are also signed with the previous secret.' }),
  })
  .meta({ id: 'Webhook', examples: [WEBHOOK_EXAMPLE] });

export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z.string().meta({ description: 'The signing secret. Shown only in this response: store it now.' }),
    standard_webhooks_secret: z.string().meta({
      description: 'The same key in the form Standard Webhooks libraries take: `whsec_` + base64 of the secret’s UTF-8 bytes.',
    }),
  })
  .meta({
    id: 'WebhookWithSecret',
    examples: [
      {
        ...WEBHOOK_EXAMPLE,
        secret: 'whsec_5f1c0e7a9b3d4c6e8f0a2b4c6d8e0f1a',
        standard_webhooks_secret: 'whsec_d2hzZWNfNWYxYzBlN2E5YjNkNGM2ZThmMGEyYjRjNmQ4ZTBmMWE=',
      },
    ],
  });

export const attemptSchema = z
  .object({
    attempt: z.number().int(),
    started_at: timestamp,
    duration_ms: z.number().int().nullable(),
    outcome: z.enum(['succeeded', 'failed', 'lost']),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    url: z.string(),
    request_headers: z.record(z.string(), z.string()),
    response_headers: z.record(z.string(), z.string()).nullable(),
    response_body: z.string().nullable().meta({ description: `The first ${2048} bytes of the response.` }),
    response_truncated: z.boolean(),
  })
  .meta({ id: 'WebhookAttempt' });

export const deliverySchema = z
  .object({
    id: z.string(),
    webhook_id: z.string(),
    event_id: z.string().meta({ description: 'Also the `webhook-id` header: receivers de-duplicate on it.' }),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    last_attempt_at: timestamp.nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    completed_at: timestamp.nullable(),
    redelivery_of: z.string().nullable(),
    created_at: timestamp,
    request_body: z.string().meta({ description: 'The exact body sent on every attempt.' }),
    attempt_log: z.array(attemptSchema),
  })
  .meta({
    id: 'WebhookDelivery',
    examples: [
      {
        id: 'dlv_01jd3n7s9t1v3w5x7y9z1a3b5c',
        webhook_id: 'whk_01jd3n4p6q8r0s2t4v6w8x0y2z',
        event_id: 'evt_01jd3n6r8s0t2v4w6x8y0z2a4b',
        event: 'demo.viewed',
        status: 'succeeded',
        attempts: 1,
        max_attempts: 8,
        next_attempt_at: null,
        last_attempt_at: '2026-11-24T15:42:11.000Z',
        last_status_code: 200,
        last_error: null,
        completed_at: '2026-11-24T15:42:11.000Z',
        redelivery_of: null,
        created_at: '2026-11-24T15:42:10.000Z',
        request_body: '{"id":"evt_01jd3n6r8s0t2v4w6x8y0z2a4b","event":"demo.viewed","timestamp":"2026-11-24T15:42:10.000Z","data":{"demo_id":"demo_01jd3k7q9x8v2m4n6p0r5s7t9w","view_id":"view_01jd3n6q7r9s1t3v5w7x9y1z3a"}}',
        attempt_log: [
          {
            attempt: 1,
            started_at: '2026-11-24T15:42:11.000Z',
            duration_ms: 184,
            outcome: 'succeeded',
            status_code: 200,
            error: null,
            url: 'https://crm.example.com/hooks/demoshare',
            request_headers: {
              'content-type': 'application/json',
              'webhook-id': 'evt_01jd3n6r8s0t2v4w6x8y0z2a4b',
              'webhook-timestamp': '1764000131',
              'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            },
            response_headers: { 'content-type': 'text/plain' },
            response_body: 'ok',
            response_truncated: false,
          },
        ],
      },
    ],
  });

export function toWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    secret_hint: row.secretHint,
    last_delivery_at: iso(row.lastDeliveryAt),
    consecutive_failures: row.consecutiveFailures,
    disabled_at: iso(row.disabledAt),
    disabled_reason: row.disabledReason ?? null,
    previous_secret_expires_at: row.previousSecretSealed ? iso(row.previousSecretExpiresAt) : null,
  };
}

export function toAttempt(row: AttemptRow) {
  return {
    attempt: row.attempt,
    started_at: iso(row.startedAt),
    duration_ms: row.durationMs,
    outcome: row.outcome,
    status_code: row.statusCode,
    error: row.error,
    url: row.url,
    request_headers: row.requestHeaders,
    response_headers: row.responseHeaders,
    response_body: row.responseExcerpt,
    response_truncated: row.responseTruncated,
  };
}

export function toDelivery(row: DeliveryRow, attempts: AttemptRow[] = []) {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event: row.eventKind,
    status: row.status,
    attempts: row.attempts,
    max_attempts: row.maxAttempts,
    next_attempt_at: iso(row.nextAttemptAt),
    last_attempt_at: iso(row.lastAttemptAt),
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    completed_at: iso(row.completedAt),
    redelivery_of: row.redeliveryOf,
    created_at: iso(row.createdAt),
    request_body: row.body,
    attempt_log: attempts.map(toAttempt),
  };
}
