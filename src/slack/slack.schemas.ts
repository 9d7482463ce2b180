// Request and response schemas of slack.routes.ts (a destination, its test, its message log) and the row→JSON mapping.
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { text } from '../core/text';
import { iso, timestamp } from '../core/time';
import type { DestinationRow, MessageRow } from './slack.repo';
import { SLACK_ALERTS, SLACK_MESSAGE_STATUSES, SLACK_SCOPES } from './slack.tables';

const alerts = z
  .array(z.enum(SLACK_ALERTS))
  .max(SLACK_ALERTS.length)
  .meta({
    description:
      'Which alerts go to the channel: `viewer_opened` (an identified viewer opened a demo), `lead_captured` (a viewer ' +
      'sent a demo’s lead form, or passed a hub’s identification or lead form), `demo_finished` (a viewer reached the last step, identified or not), `daily_digest` (at 07:05 ' +
      'UTC, yesterday’s views, completions, new companies and who viewed, and the hubs’ visits and identified visitors; none on a day with neither). Views by members ' +
      'of the workspace are never alerts. An empty list keeps the URL but sends nothing.',
    examples: [['viewer_opened', 'lead_captured']],
  });
const scope = z.enum(SLACK_SCOPES).meta({
  description: 'A member’s own alerts only: `all` demos of the workspace (the default), or only those you created (`mine`: the demos, and the hubs, you created). The workspace’s destination is always `all`.',
});
const url = text()
  .trim()
  .min(1)
  .max(2000)
  .meta({
    description:
      'The Slack incoming-webhook URL (Slack → Apps → Incoming Webhooks → Add New Webhook to Workspace; ' +
      '`https://hooks.slack.com/services/...`). A secret: stored encrypted, never returned (`url_hint` shows its end). ' +
      'Checked now: the SSRF guard (400 for a private address unless the operator allows it) and a test message Slack ' +
      'must take (422 with Slack’s answer otherwise; nothing is saved). Left out, the saved URL stays.',
    examples: ['https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX'],
  });

/** PUT /v1/workspace/slack and /v1/account/slack */
export const putSlackBody = z
  .object({ url: url.optional(), alerts, scope: scope.optional() })
  .strict()
  .meta({
    description: 'Where the alerts go and which ones.',
    examples: [{ url: 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX', alerts: ['viewer_opened', 'lead_captured'] }, { alerts: ['daily_digest'] }],
  });

export const slackSettingsSchema = z
  .object({
    connected: z.boolean().meta({ description: 'Whether a URL is saved. False: every other field is null or empty.' }),
    url_hint: z.string().nullable().meta({ description: 'The saved URL’s host and last four characters.' }),
    alerts: z.array(z.enum(SLACK_ALERTS)).meta({ description: 'The alerts that go to the channel.' }),
    scope: z.enum(SLACK_SCOPES).meta({ description: '`all` demos, or (a member’s own alerts) only those they created.' }),
    status: z.enum(['active', 'disabled', 'not_connected']).meta({
      description: '`disabled`: Slack answered that the URL is dead (404/410 such as `no_service` or `channel_not_found`, or 403); nothing is sent until a URL is saved again or a test message goes through.',
    }),
    disabled_reason: z.string().nullable().meta({ description: 'Slack’s answer that disabled it.' }),
    disabled_at: timestamp.nullable(),
    last_delivery_at: timestamp.nullable().meta({ description: 'When Slack last took a message.' }),
    updated_at: timestamp.nullable(),
  })
  .meta({
    id: 'SlackSettings',
    examples: [
      {
        connected: true,
        url_hint: 'hooks.slack.com/…XXXX',
        alerts: ['viewer_opened', 'lead_captured'],
        scope: 'all',
        status: 'active',
        disabled_reason: null,
        disabled_at: null,
        last_delivery_at: '2026-11-28T10:00:00.000Z',
        updated_at: '2026-11-27T09:00:00.000Z',
      },
    ],
  });

export function toSlackSettings(row: DestinationRow | undefined): z.infer<typeof slackSettingsSchema> {
  if (!row) {
    return { connected: false, url_hint: null, alerts: [], scope: 'all', status: 'not_connected', disabled_reason: null, disabled_at: null, last_delivery_at: null, updated_at: null };
  }
  return {
    connected: true,
    url_hint: row.urlHint,
    alerts: row.alerts as z.infer<typeof alerts>,
    scope: row.scope,
    status: row.disabledAt ? 'disabled' : 'active',
    disabled_reason: row.disabledReason,
    disabled_at: iso(row.disabledAt),
    last_delivery_at: iso(row.lastDeliveryAt),
    updated_at: iso(row.updatedAt),
  };
}

export const slackTestSchema = z
  .object({
    ok: z.boolean().meta({ description: 'Whether Slack took the test message.' }),
    status_code: z.number().int().nullable().meta({ description: 'Slack’s HTTP status; null when nothing answered.' }),
    error: z.string().nullable().meta({ description: 'Why not, with Slack’s answer (`no_service`, `invalid_token`...) or the network error.' }),
  })
  .meta({ id: 'SlackTestResult', examples: [{ ok: false, status_code: 404, error: 'Slack answered 404 no_service' }] });

export const slackMessageSchema = z
  .object({
    id: idSchema('slackMessage'),
    alert: z.enum(SLACK_ALERTS),
    summary: z.string().meta({ description: 'The message’s text as Slack notifies it (mrkdwn-escaped).' }),
    status: z.enum(SLACK_MESSAGE_STATUSES).meta({
      description: '`pending` (waiting for its first attempt or a retry), `sending`, `sent`, `failed` (attempts used up, or a message Slack refused), `cancelled` (the URL went dead first).',
    }),
    attempts: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    last_attempt_at: timestamp.nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable().meta({ description: 'Why the last attempt failed: Slack’s answer, a timeout, a network error.' }),
    event_id: z.string().nullable().meta({ description: 'The outbox event it is about (the id webhooks carry); null for a digest.' }),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
  })
  .meta({
    id: 'SlackMessage',
    examples: [
      {
        id: 'slm_01jd3n4p6q8r0s2t4v6w8x0y2z',
        alert: 'viewer_opened',
        summary: 'Jane Doe from acme.com opened “Product tour”',
        status: 'failed',
        attempts: 6,
        max_attempts: 6,
        next_attempt_at: null,
        last_attempt_at: '2026-11-28T18:00:00.000Z',
        last_status_code: 500,
        last_error: 'Slack answered 500 rollup_error',
        event_id: 'evt_01jd3n4p6q8r0s2t4v6w8x0y2a',
        created_at: '2026-11-28T10:00:00.000Z',
        completed_at: '2026-11-28T18:00:00.000Z',
      },
    ],
  });

export function toSlackMessage(row: MessageRow): z.infer<typeof slackMessageSchema> {
  return {
    id: row.id,
    alert: row.alert,
    summary: row.summary,
    status: row.status,
    attempts: row.attempts,
    max_attempts: row.maxAttempts,
    next_attempt_at: iso(row.nextAttemptAt),
    last_attempt_at: iso(row.lastAttemptAt),
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    event_id: row.subject.startsWith('digest:') ? null : row.subject,
    created_at: iso(row.createdAt),
    completed_at: iso(row.completedAt),
  };
}

export const messagesQuery = z.object({
  status: z.enum(SLACK_MESSAGE_STATUSES).optional().meta({ description: 'Only messages in this state.' }),
});
export const messageParams = z.object({ message_id: idSchema('slackMessage') });
