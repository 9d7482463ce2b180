import { sql } from 'drizzle-orm';
import type { ImageType } from '../core/image-sniff';
import { check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { at, bytea, createdAt, id } from '../db/columns';
import { demos, steps } from '../demos/demos.tables';

export const RECORDING_MODES = ['new', 'append', 'replace_step'] as const;
export type RecordingMode = (typeof RECORDING_MODES)[number];

export const RECORDING_STATUSES = ['uploading', 'completed'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];

/**
 * A recording being uploaded step by step (docs/recording-upload.md). It belongs to one member of one
 * workspace; the demo or step it adds to goes, and the upload with it, when that is deleted.
 */
export const recordingUploads = pgTable(
  'recording_uploads',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: RECORDING_MODES }).notNull(),
    status: text('status', { enum: RECORDING_STATUSES }).notNull().default('uploading'),
    stepCount: integer('step_count').notNull(),
    /** The new demo's title as the client gave it; null: made up from the first page at completion. */
    title: text('title'),
    /** The demo added to (append, replace_step), or made at completion (new). */
    demoId: text('demo_id').references(() => demos.id, { onDelete: 'cascade' }),
    /** The step replaced (replace_step). */
    stepId: text('step_id').references(() => steps.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    createdAt: createdAt(),
    completedAt: at('completed_at'),
  },
  (t) => [
    index('recording_uploads_expires_idx').on(t.expiresAt),
    check('recording_uploads_mode_ck', sql`${t.mode} in ('new', 'append', 'replace_step')`),
    check('recording_uploads_status_ck', sql`${t.status} in ('uploading', 'completed')`),
    check('recording_uploads_step_count_ck', sql`${t.stepCount} between 1 and 200`),
  ],
);

/** What a recorded step says besides its two blobs: validated, with no typed value kept. */
export interface RecordedStepFields {
  action: 'click' | 'type';
  title: string;
  description: string;
  pageUrl: string;
  viewport: { width: number; height: number };
  target: { x: number; y: number; width: number; height: number; selector: string | null; label: string | null } | null;
}

/** A stored blob of a step as read when it was stored: completion copies it into an asset without reading it. */
export interface StoredBlob {
  sha256: string;
  size: number;
}

/** The stored screenshot's type and dimensions too, read from its bytes. */
export type StoredScreenshot = StoredBlob & { contentType: ImageType; width: number; height: number };

/**
 * What a stored step row's `fields` hold: the step's fields and what is known of its two blobs (null: none).
 * `blobs` is absent in rows stored before it was kept; completion then reads the bytes.
 */
export type ChunkFields = RecordedStepFields & { blobs?: { screenshot: StoredScreenshot | null; snapshot: StoredBlob | null } };

/**
 * One uploaded step of a recording, already checked and cleaned: the screenshot's bytes (type read from
 * them) and the snapshot as it will be stored (private fields redacted, sanitised). `digest` is the
 * SHA-256 of the request body that sent it, so that the same body again changes nothing.
 */
export const recordingChunks = pgTable(
  'recording_chunks',
  {
    recordingId: text('recording_id')
      .notNull()
      .references(() => recordingUploads.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    digest: text('digest').notNull(),
    bodySize: integer('body_size').notNull(),
    fields: jsonb('fields').$type<ChunkFields>().notNull(),
    screenshot: bytea('screenshot'),
    snapshot: bytea('snapshot'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.number] })],
);
