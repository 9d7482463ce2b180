// The wire form of the player's event batches (POST /v1/viewer/:token/events), capped per batch and per step, and its mapping onto the ingestion's events.
import { z } from 'zod';
import { text } from '../core/text';
import { timestamp } from '../core/time';
import { EVENT_TYPES, type IngestEvent } from './view-progress';

export const MAX_STEP_SECONDS = 3600;
export const MAX_EVENTS_PER_BATCH = 100;

interface EventsWire {
  events: Array<{ id: string; type: IngestEvent['type']; step_number?: number; seconds_on_previous?: number; referrer?: string }>;
}

/**
 * The body of POST /v1/viewer/:token/events, parsed into the ingestion's events (`toIngestEvents`): the
 * route hands `request.body` on as it is.
 */
export const eventsBody = z
  .object({
    events: z
      .array(
        z
          .object({
            id: z.uuid().meta({ description: 'Made by the client; a retried event with the same id counts once.' }),
            type: z.enum(EVENT_TYPES),
            step_number: z.number().int().min(1).optional().meta({ description: 'Required for step_reached.' }),
            seconds_on_previous: z
              .number()
              .min(0)
              .optional()
              .transform((v) => (v === undefined ? v : Math.min(v, MAX_STEP_SECONDS)))
              .meta({ description: `Seconds spent on the step before this event; capped at ${MAX_STEP_SECONDS}.` }),
            at: timestamp.optional().meta({ description: 'When it happened on the client (informative only).' }),
            referrer: text().max(2048).optional().meta({ description: 'With view_started: document.referrer.' }),
          })
          .strict()
          .superRefine((e, ctx) => {
            if (e.type === 'step_reached' && e.step_number === undefined) {
              ctx.addIssue({ code: 'custom', path: ['step_number'], message: 'required for step_reached' });
            }
          }),
      )
      .min(1)
      .max(MAX_EVENTS_PER_BATCH),
  })
  .strict()
  .transform(toIngestEvents)
  .meta({
    examples: [
      {
        events: [
          { id: '3f1c2b9e-7a4d-4e8b-9c1a-5d6e7f8a9b0c', type: 'view_started', at: '2026-11-24T15:42:10.000Z', referrer: 'https://mail.google.com/' },
          { id: '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e', type: 'step_reached', step_number: 2, seconds_on_previous: 8.4, at: '2026-11-24T15:42:18.000Z' },
          { id: 'c5e7a9b1-3d5f-4b7d-9f1b-3d5f7a9c1e3a', type: 'completed', seconds_on_previous: 5.75, at: '2026-11-24T15:42:36.000Z' },
        ],
      },
    ],
  });

export const eventsAcceptedSchema = z
  .object({
    accepted: z.number().int().meta({ description: 'Events stored by this request.' }),
    duplicates: z.number().int().meta({ description: 'Events already stored before (same id): ignored.' }),
  })
  .meta({ examples: [{ accepted: 3, duplicates: 0 }] });

/** The wire form of a batch → the ingestion's events. */
function toIngestEvents(body: EventsWire): IngestEvent[] {
  return body.events.map((e) => ({
    id: e.id,
    type: e.type,
    stepNumber: e.step_number,
    seconds: e.seconds_on_previous,
    referrer: e.referrer,
  }));
}
