// The renders API's shapes: what a render is asked with (format, size, pace) and a render as the API answers it.
import { z } from 'zod';
import { listEnvelope } from '../core/envelope';
import { idSchema } from '../core/ids';
import { paginationQuery } from '../core/pagination';
import { iso, timestamp } from '../core/time';
import type { RenderRow } from './renders.repo';

/** Milliseconds per step of the named paces. */
export const PACES = { slow: 5000, normal: 3000, fast: 1800 } as const;
/** The limits of a render (docs/video.md). */
export const LIMITS = {
  width: { min: 320, max: 1920 },
  height: { min: 240, max: 1080 },
  /** A GIF's bytes grow with its area: at most 1280×720. */
  gifMax: { width: 1280, height: 720 },
  paceMs: { min: 1000, max: 15_000 },
  /** The longest video: steps × pace. */
  maxDurationMs: 10 * 60 * 1000,
  /** Renders queued or running at once in one workspace. */
  activePerWorkspace: 3,
  /** Finished renders kept per demo: asking for one more deletes the oldest beyond it. */
  keepPerDemo: 10,
} as const;

const even = (n: number) => n % 2 === 0;

export const renderBody = z
  .object({
    format: z.enum(['mp4', 'gif']).default('mp4').meta({ description: '`mp4` (H.264, yuv420p, faststart) or `gif` (a palette made for the video).' }),
    width: z
      .number()
      .int()
      .min(LIMITS.width.min)
      .max(LIMITS.width.max)
      .refine(even, 'must be even (H.264 4:2:0)')
      .default(1280)
      .meta({ description: `Frame width in pixels, even, ${LIMITS.width.min}–${LIMITS.width.max} (a GIF at most ${LIMITS.gifMax.width}). The player is laid out at this size: 390 gives the phone layout.` }),
    height: z
      .number()
      .int()
      .min(LIMITS.height.min)
      .max(LIMITS.height.max)
      .refine(even, 'must be even (H.264 4:2:0)')
      .default(720)
      .meta({ description: `Frame height in pixels, even, ${LIMITS.height.min}–${LIMITS.height.max} (a GIF at most ${LIMITS.gifMax.height}).` }),
    pace: z
      .union([z.enum(['slow', 'normal', 'fast']), z.number().int().min(LIMITS.paceMs.min).max(LIMITS.paceMs.max)])
      .default('normal')
      .meta({
        description: `How long each step is on screen: milliseconds (${LIMITS.paceMs.min}–${LIMITS.paceMs.max}) or \`slow\` (${PACES.slow}), \`normal\` (${PACES.normal}), \`fast\` (${PACES.fast}). The video lasts steps × pace, at most ${LIMITS.maxDurationMs / 60000} minutes.`,
      }),
  })
  .strict()
  .meta({ examples: [{ format: 'mp4', width: 1280, height: 720, pace: 'normal' }, { format: 'gif', width: 800, height: 500, pace: 2000 }] });
export type RenderBody = z.output<typeof renderBody>;

export const renderParams = z.object({ id: idSchema('demo'), render_id: idSchema('render') });
export const listRendersQuery = paginationQuery.strict();

export const renderSchema = z
  .object({
    id: idSchema('render'),
    demo_id: idSchema('demo'),
    version: z.number().int().meta({ description: 'The published version rendered (fixed when the render was asked for).' }),
    format: z.enum(['mp4', 'gif']),
    width: z.number().int(),
    height: z.number().int(),
    pace_ms: z.number().int().meta({ description: 'Milliseconds each step is on screen.' }),
    fps: z.number().int().meta({ description: 'Frames per second: 20 for MP4, 10 for GIF.' }),
    step_count: z.number().int(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    progress: z.number().min(0).max(1).meta({ description: 'Frames made out of frames planned, 0..1 (1 once succeeded).' }),
    error: z.string().nullable().meta({ description: 'Why it failed, in a sentence; null otherwise.' }),
    duration_ms: z.number().int().meta({ description: 'The length of the video: steps × pace (planned until it succeeds, then measured).' }),
    size_bytes: z.number().int().nullable().meta({ description: 'The file’s size once succeeded; null before.' }),
    file_url: z.string().nullable().meta({ description: 'Where to download the file (GET, same credentials) once succeeded; null before.' }),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
  })
  .meta({
    id: 'Render',
    examples: [
      {
        id: 'rnd_01jd3k7q9x8v2m4n6p0r5s7t9w',
        demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        version: 3,
        format: 'mp4',
        width: 1280,
        height: 720,
        pace_ms: 3000,
        fps: 20,
        step_count: 12,
        status: 'succeeded',
        progress: 1,
        error: null,
        duration_ms: 36000,
        size_bytes: 1843200,
        file_url: '/v1/demos/demo_01jd3k7q9x8v2m4n6p0r5s7t9w/renders/rnd_01jd3k7q9x8v2m4n6p0r5s7t9w/file',
        created_at: '2026-11-21T10:00:00.000Z',
        started_at: '2026-11-21T10:00:01.000Z',
        finished_at: '2026-11-21T10:00:19.000Z',
      },
    ],
  });
export type Render = z.infer<typeof renderSchema>;
export const renderListEnvelope = listEnvelope(renderSchema);

export const MEDIA_TYPES = { mp4: 'video/mp4', gif: 'image/gif' } as const;

export function toRender(row: RenderRow): Render {
  const done = row.status === 'succeeded';
  return {
    id: row.id,
    demo_id: row.demoId,
    version: row.version,
    format: row.format,
    width: row.width,
    height: row.height,
    pace_ms: row.paceMs,
    fps: row.fps,
    step_count: row.stepCount,
    status: row.status,
    progress: Math.round(Math.min(1, Math.max(0, row.progress)) * 1000) / 1000,
    error: row.error,
    duration_ms: row.durationMs ?? row.stepCount * row.paceMs,
    size_bytes: done ? row.outputBytes : null,
    file_url: done ? `/v1/demos/${row.demoId}/renders/${row.id}/file` : null,
    created_at: iso(row.createdAt),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}
