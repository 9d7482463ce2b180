import { z } from 'zod';
import { timestamp } from '../core/time';
import { HOTSPOT_ACTIONS } from '../demos/demos.tables';
import { configurationSchema } from '../demos/demos.schemas';
import { EVENT_TYPES } from '../views/view-progress';

export const MAX_STEP_SECONDS = 3600;
export const MAX_EVENTS_PER_BATCH = 100;

// Long enough for any token we issue (43 characters), short enough that nobody stores a novel in a cache key.
export const viewerParams = z.object({ token: z.string().min(16).max(100).regex(/^[A-Za-z0-9_-]+$/) });
export const viewerAssetParams = viewerParams.extend({ asset_id: z.string().max(40) });

const gate = z.enum(['password', 'identification', 'ready']).meta({
  description: 'The next thing the viewer must do: enter the password, identify, or nothing (play).',
});

export const viewerStateSchema = z
  .object({
    gate,
    share: z.object({ require_identification: z.boolean(), has_password: z.boolean() }),
    viewer: z.object({ name: z.string().nullable(), email: z.string().nullable() }).optional(),
    session_token: z.string().optional().meta({
      description:
        'Only when a new viewer session was started. Same value as the cookie; a player that cannot use ' +
        'cookies (a cross-site iframe) sends it back in `X-Viewer-Session`.',
    }),
  })
  .meta({ id: 'ViewerState' });

export const unlockBody = z.object({ password: z.string().min(1).max(200) }).strict();
export const identifyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    email: z.email().max(254),
  })
  .strict();

export const viewerDemoSchema = z
  .object({
    title: z.string(),
    configuration: configurationSchema,
    steps: z.array(
      z.object({
        number: z.number().int(),
        title: z.string(),
        description: z.string(),
        image_url: z.string().nullable(),
        html_url: z.string().nullable(),
        width: z.number().int().nullable(),
        height: z.number().int().nullable(),
        hotspots: z.array(
          z.object({
            id: z.string(),
            x: z.number(),
            y: z.number(),
            width: z.number(),
            height: z.number(),
            label: z.string(),
            tooltip: z.string(),
            action: z.object({ type: z.enum(HOTSPOT_ACTIONS), target: z.union([z.number(), z.string()]).nullable() }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'ViewerDemo' });

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
            referrer: z.string().max(2048).optional().meta({ description: 'With view_started: document.referrer.' }),
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
