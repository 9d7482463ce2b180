import { z } from 'zod';
import { text } from '../core/text';
import { timestamp } from '../core/time';
import { EVENT_TYPES, type IngestEvent } from './view-progress';

export const MAX_STEP_SECONDS = 3600;
export const MAX_EVENTS_PER_BATCH = 100;

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
  .strict();

export const eventsAcceptedSchema = z.object({
  accepted: z.number().int().meta({ description: 'Events stored by this request.' }),
  duplicates: z.number().int().meta({ description: 'Events already stored before (same id): ignored.' }),
});

/** The wire form of a batch → the ingestion's events. */
export function toIngestEvents(body: z.infer<typeof eventsBody>): IngestEvent[] {
  return body.events.map((e) => ({
    id: e.id,
    type: e.type,
    stepNumber: e.step_number,
    seconds: e.seconds_on_previous,
    referrer: e.referrer,
  }));
}
