// The renders domain's table: videos and GIFs of published demos, made by a background job, their file kept with them.
import { index, integer, pgTable, real, text } from 'drizzle-orm/pg-core';
import { at, bytea, createdAt, id } from '../db/columns';
import { demos } from '../demos/demos.tables';
import { workspaces } from '../workspaces/workspaces.tables';

export type RenderFormat = 'mp4' | 'gif';
export type RenderStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/**
 * One render of a demo's published version to MP4 or GIF. The file is stored in the row (`output`), as the
 * demos' assets are: the API process that serves it and the worker that made it may be different machines
 * sharing only the database, and a restart keeps it (docs/video.md; issue 32 moves blobs to object storage).
 * Lists never select `output`.
 */
export const demoRenders = pgTable(
  'demo_renders',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    /** The published version rendered (demo_versions.number), fixed when the render is asked for. */
    version: integer('version').notNull(),
    format: text('format').$type<RenderFormat>().notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Milliseconds each step is on screen. */
    paceMs: integer('pace_ms').notNull(),
    fps: integer('fps').notNull(),
    stepCount: integer('step_count').notNull(),
    status: text('status').$type<RenderStatus>().notNull().default('queued'),
    /** 0..1, frames written out of frames planned. */
    progress: real('progress').notNull().default(0),
    error: text('error'),
    output: bytea('output'),
    outputBytes: integer('output_bytes'),
    durationMs: integer('duration_ms'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
  },
  (t) => [index('demo_renders_demo_created_idx').on(t.demoId, t.createdAt), index('demo_renders_status_idx').on(t.status)],
);
