// The wire form of the player's event batches (POST /v1/viewer/:token/events), capped per batch and per step, and its mapping onto the ingestion's events.
import { z } from 'zod';
import { text } from '../core/text';
import { timestamp } from '../core/time';
import { ACTION_TYPES } from '../demos/story.schemas';
import { EVENT_TYPES, type IngestEvent, PATH_EVENT_FIELDS } from './view-progress';

export const MAX_STEP_SECONDS = 3600;
export const MAX_EVENTS_PER_BATCH = 100;

interface EventsWire {
  events: Array<{
    id: string;
    type: IngestEvent['type'];
    step_number?: number;
    seconds_on_previous?: number;
    referrer?: string;
    chapter_id?: string;
    element_id?: string;
    action_type?: IngestEvent['actionType'];
    target_step?: number;
  }>;
}

/** Chapter, hotspot and button ids as the story gives them (`chp_…`, `hs_…`, a button's own id): short and plain. */
const storyId = (what: string) =>
  text()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, - or _')
    .meta({ description: what });

/** The wire names of the fields each path event carries (PATH_EVENT_FIELDS), required ones first. */
const WIRE_NAMES = { chapterId: 'chapter_id', elementId: 'element_id', actionType: 'action_type', targetStep: 'target_step' } as const;

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
            step_number: z
              .number()
              .int()
              .min(1)
              .optional()
              .meta({ description: 'Required for step_reached and every path event (the step it happened on).' }),
            seconds_on_previous: z
              .number()
              .min(0)
              .optional()
              .transform((v) => (v === undefined ? v : Math.min(v, MAX_STEP_SECONDS)))
              .meta({ description: `Seconds spent on the step before this event; capped at ${MAX_STEP_SECONDS}.` }),
            at: timestamp.optional().meta({ description: 'When it happened on the client (informative only).' }),
            referrer: text().max(2048).optional().meta({ description: 'With view_started: document.referrer.' }),
            chapter_id: storyId('chapter_selected only (required): the chapter chosen.').optional(),
            element_id: storyId('action_taken and cta_clicked only (required): the hotspot or button id.').optional(),
            action_type: z.enum(ACTION_TYPES).optional().meta({ description: 'action_taken only (required): what the element did.' }),
            target_step: z
              .number()
              .int()
              .min(1)
              .optional()
              .meta({ description: 'action_taken only (optional): the step number the action led to.' }),
          })
          .strict()
          .superRefine((e, ctx) => {
            if (e.step_number === undefined && (e.type === 'step_reached' || e.type in PATH_EVENT_FIELDS)) {
              ctx.addIssue({ code: 'custom', path: ['step_number'], message: `required for ${e.type}` });
            }
            // Each path field belongs to its event types: required there, refused elsewhere.
            const fields = PATH_EVENT_FIELDS[e.type as keyof typeof PATH_EVENT_FIELDS] ?? { required: [], optional: [] };
            for (const [key, wire] of Object.entries(WIRE_NAMES) as Array<[keyof typeof WIRE_NAMES, (typeof WIRE_NAMES)[keyof typeof WIRE_NAMES]]>) {
              const given = e[wire] !== undefined;
              if ((fields.required as readonly string[]).includes(key)) {
                if (!given) ctx.addIssue({ code: 'custom', path: [wire], message: `required for ${e.type}` });
              } else if (given && !(fields.optional as readonly string[]).includes(key)) {
                ctx.addIssue({ code: 'custom', path: [wire], message: `not a field of ${e.type}` });
              }
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
      {
        events: [
          { id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', type: 'chapter_selected', step_number: 2, chapter_id: 'chp_01jd8x3k5m7n9p2q4r6s8t0v1w' },
          {
            id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            type: 'action_taken',
            step_number: 3,
            element_id: 'hs_01jd8x3k5m7n9p2q4r6s8t0v1w',
            action_type: 'goto',
            target_step: 5,
            seconds_on_previous: 4.2,
          },
          { id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a', type: 'form_shown', step_number: 5 },
          { id: '3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b', type: 'form_started', step_number: 5 },
          { id: '4f5a6b7c-8d9e-4f0a-9b2c-3d4e5f6a7b8c', type: 'form_submitted', step_number: 5 },
          { id: '5a6b7c8d-9e0f-4a1b-8c3d-4e5f6a7b8c9d', type: 'cta_clicked', step_number: 6, element_id: 'book-call' },
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
    chapterId: e.chapter_id,
    elementId: e.element_id,
    actionType: e.action_type,
    targetStep: e.target_step,
  }));
}
