// Request and response schemas of crm.routes.ts (the HubSpot connection, sync log, re-sync) and the row→JSON mapping.
import { z } from 'zod';
import { text } from '../core/text';
import { dateFilter, iso, timestamp } from '../core/time';
import type { ConnectionRow, SyncItemRow } from './crm.repo';
import { CRM_ITEM_STATUSES, type CrmItemStatus } from './crm.tables';

// HubSpot's tokens are printable ASCII; anything else cannot go in an Authorization header at all, which the
// request would only find out as a network error (a 503 instead of this 400).
const token = text()
  .trim()
  .min(1)
  .max(500)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces, as HubSpot’s tokens are')
  .meta({
    description:
      'A HubSpot private app’s access token (Settings → Integrations → Private apps in HubSpot), with the scopes ' +
      '`crm.objects.contacts.read` and `crm.objects.contacts.write`. Write-only: stored encrypted and never returned ' +
      '(only its last four characters are).',
    examples: ['pat-na1-00000000-0000-0000-0000-000000000000'],
  });

/** PUT /v1/crm/hubspot */
export const putHubSpotBody = z
  .object({ token })
  .strict()
  .meta({
    description: 'The token to sync with. HubSpot is asked once (one contact read) before it is saved.',
    examples: [{ token: 'pat-na1-00000000-0000-0000-0000-000000000000' }],
  });

/** POST /v1/crm/hubspot/resync: one contact, everything since a date, or (no body) everything. */
export const resyncBody = z
  .object({
    email: z
      .email()
      .max(254)
      .optional()
      .meta({ description: 'Only this contact’s items (the e-mail a viewer or lead gave).' }),
    since: dateFilter.optional().meta({ description: 'Only items of events that happened at or after this date or instant.' }),
  })
  .strict()
  .nullish()
  .meta({
    description: 'Which finished items to sync again; both narrow, neither (or no body) means every item in the log.',
    examples: [{ email: 'ada@example.com' }, { since: '2026-11-01' }, {}],
  });

export const syncLogQuery = z.object({
  status: z.enum(CRM_ITEM_STATUSES).optional().meta({ description: 'Only items in this state.' }),
  email: z.email().max(254).optional().meta({ description: 'Only this contact’s items.' }),
});

const counts = z
  .object({
    pending: z.number().int().meta({ description: 'Items waiting for their (next) attempt, or for a working token.' }),
    syncing: z.number().int().meta({ description: 'Items being sent now.' }),
    succeeded: z.number().int().meta({ description: 'Items whose contact (and note) HubSpot has.' }),
    failed: z.number().int().meta({ description: 'Items given up on: HubSpot refused the input, or every retry failed. Re-sync tries them again.' }),
  })
  .meta({ description: 'How many items of the sync log are in each state.' });

export const hubSpotStatusSchema = z
  .object({
    connected: z.boolean().meta({ description: 'Whether a token is saved.' }),
    status: z.enum(['not_connected', 'active', 'paused']).meta({
      description:
        '`active`: syncing. `paused`: HubSpot refused the saved token (401/403: revoked, expired or missing a scope); ' +
        'events are still queued and go out once an admin saves a token HubSpot accepts. `not_connected`: no token.',
    }),
    paused_reason: z.string().nullable().meta({ description: 'Why the sync is paused, with HubSpot’s own message; null when it is not.' }),
    token_last4: z.string().nullable().meta({ description: 'The saved token’s last four characters; the token itself is never returned.' }),
    connected_at: timestamp.nullable().meta({ description: 'Since when events are synced (the first connection); null when not connected.' }),
    last_sync_at: timestamp.nullable().meta({ description: 'When the sync last sent HubSpot a batch; null before the first.' }),
    rate_limited_until: timestamp.nullable().meta({ description: 'HubSpot asked to wait (429) until then; null when it did not, or that time has passed.' }),
    api_url: z.string().meta({ description: 'The HubSpot API address this instance calls (HUBSPOT_API_URL).' }),
    counts,
  })
  .meta({
    id: 'HubSpotConnection',
    examples: [
      {
        connected: true,
        status: 'active',
        paused_reason: null,
        token_last4: '9f3a',
        connected_at: '2026-11-28T10:00:00.000Z',
        last_sync_at: '2026-11-29T09:12:00.000Z',
        rate_limited_until: null,
        api_url: 'https://api.hubapi.com',
        counts: { pending: 0, syncing: 0, succeeded: 42, failed: 1 },
      },
    ],
  });

export const syncItemSchema = z
  .object({
    id: z.string().meta({ description: 'The item’s id (`crms_…`).' }),
    event_id: z.string().meta({ description: 'The outbox event it comes from, as webhooks carry it.' }),
    event: z.enum(['viewer.identified', 'demo.viewed', 'demo.completed', 'lead.captured', 'history']).meta({
      description: 'The event’s kind; `history`: a contact’s activity from before the connection, sent by a backfill (one item per address).',
    }),
    email: z.string().meta({ description: 'The contact’s e-mail, lower-cased: HubSpot finds or creates the contact by it.' }),
    occurred_at: timestamp.meta({ description: 'When the event happened (the note’s `hs_timestamp`).' }),
    status: z.enum(CRM_ITEM_STATUSES).meta({ description: '`pending`, `syncing`, `succeeded` or `failed`.' }),
    attempts: z.number().int().meta({ description: 'Failed attempts so far; a 429 or a paused token does not count one.' }),
    next_attempt_at: timestamp.nullable().meta({ description: 'When a pending item is tried next; null otherwise.' }),
    contact_id: z.string().nullable().meta({ description: 'The HubSpot contact’s id, once upserted.' }),
    contact_action: z.enum(['created', 'updated']).nullable().meta({
      description: 'Whether this item’s upsert created the contact in HubSpot or updated one that was there; null before the upsert.',
    }),
    note: z.boolean().meta({ description: 'Whether this event adds a note to the contact’s timeline (views, completions, leads, an identification on a demo hub; not a link’s identification).' }),
    note_id: z.string().nullable().meta({ description: 'The HubSpot note’s id, once created. Set once: retries and re-syncs never create a second note.' }),
    last_status_code: z.number().int().nullable().meta({ description: 'HubSpot’s HTTP status in the last failed attempt; null when it succeeded or there was no answer.' }),
    last_error: z.string().nullable().meta({ description: 'What went wrong last, with HubSpot’s message; null once succeeded.' }),
    completed_at: timestamp.nullable().meta({ description: 'When it succeeded or was given up on.' }),
    created_at: timestamp.meta({ description: 'When it was queued.' }),
  })
  .meta({
    id: 'CrmSyncItem',
    examples: [
      {
        id: 'crms_01jd3n4p6q8r0s2t4v6w8x0y2z',
        event_id: 'evt_01jd3n4p6q8r0s2t4v6w8x0y2a',
        event: 'demo.completed',
        email: 'ada@example.com',
        occurred_at: '2026-11-29T09:10:00.000Z',
        status: 'succeeded',
        attempts: 0,
        next_attempt_at: null,
        contact_id: '51',
        contact_action: 'updated',
        note: true,
        note_id: '9001',
        last_status_code: null,
        last_error: null,
        completed_at: '2026-11-29T09:10:01.000Z',
        created_at: '2026-11-29T09:10:00.000Z',
      },
    ],
  });

/** POST /v1/crm/hubspot/backfill: everything before the connection, or only since a date. */
export const backfillBody = z
  .object({
    since: dateFilter.optional().meta({ description: 'Only activity at or after this date or instant; without it, all of it.' }),
  })
  .strict()
  .nullish()
  .meta({ description: 'How far back to go; no body means all the history.', examples: [{ since: '2026-09-01' }, {}] });

export const backfillResultSchema = z
  .object({
    contacts: z.number().int().meta({ description: 'Addresses with activity before the connection (and since `since`).' }),
    queued: z.number().int().meta({ description: 'Of these, how many were queued now; the others were sent by an earlier backfill.' }),
  })
  .meta({ id: 'CrmBackfillResult', examples: [{ contacts: 42, queued: 42 }] });

export const resyncResultSchema = z
  .object({ queued: z.number().int().meta({ description: 'How many finished items were queued again.' }) })
  .meta({ id: 'CrmResyncResult', examples: [{ queued: 12 }] });

export type HubSpotStatus = z.infer<typeof hubSpotStatusSchema>;

export function toHubSpotStatus(
  row: ConnectionRow | undefined,
  itemCounts: Record<CrmItemStatus, number>,
  apiUrl: string,
  now: Date,
): HubSpotStatus {
  return {
    connected: Boolean(row),
    status: row ? row.status : 'not_connected',
    paused_reason: row?.status === 'paused' ? row.pausedReason : null,
    token_last4: row?.tokenLast4 ?? null,
    connected_at: iso(row?.connectedAt),
    last_sync_at: iso(row?.lastSyncAt),
    rate_limited_until: row?.notBefore && row.notBefore > now ? iso(row.notBefore) : null,
    api_url: apiUrl,
    counts: itemCounts,
  };
}

export function toSyncItem(row: SyncItemRow): z.infer<typeof syncItemSchema> {
  return {
    id: row.id,
    event_id: row.eventId,
    event: row.eventKind as z.infer<typeof syncItemSchema>['event'],
    email: row.email,
    occurred_at: iso(row.occurredAt),
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    contact_id: row.contactId,
    contact_action: row.contactCreated === null ? null : row.contactCreated ? 'created' : 'updated',
    note: row.noteBody !== null,
    note_id: row.noteId,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    completed_at: iso(row.completedAt),
    created_at: iso(row.createdAt),
  };
}
