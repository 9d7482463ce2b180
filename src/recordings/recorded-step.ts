// One uploaded recorded step: its screenshot decoded, its snapshot cleaned, stored until completion.
import render from 'dom-serializer';
import { AppError, invalid } from '../core/errors';
import { formatBytes } from '../core/http/error-handler';
import { sha256Hex } from '../core/crypto';
import { type ImageInfo, sniffImage } from '../core/image-sniff';
import { removePrivateFields } from '../demos/private-fields';
import type { ImportedStep, StoredHtml, StoredImage } from '../demos/imported-step';
import { MAX_NESTING_DEPTH, NestingTooDeepError, parseHtml } from '../generation/html-parse';
import { sanitizeDocument } from '../generation/sanitize';
import type { RecordedStepBody } from './recordings.schemas';
import type { ChunkFields, RecordedStepFields } from './recordings.tables';

export interface StepLimits {
  /** STEP_IMAGE_MAX_BYTES: the decoded screenshot. */
  screenshotBytes: number;
  /** RECORDING_SNAPSHOT_MAX_BYTES: the snapshot in UTF-8. */
  snapshotBytes: number;
}

/** What a recorded step is stored as until completion: checked, cleaned, its typed value dropped. */
export interface CleanStep {
  fields: ChunkFields;
  screenshot: Buffer | null;
  snapshot: Buffer | null;
}

const tooLarge = (what: string, field: string, size: number, limit: number, setting: string) =>
  new AppError('payload_too_large', `The ${what} is ${formatBytes(size)}: the limit is ${formatBytes(limit)} (${setting})`, {
    details: [{ field, message: `may be at most ${formatBytes(limit)} (${setting})` }],
  });

const DATA_URL = /^data:image\/(?:png|jpeg|webp);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The screenshot's bytes from its data URL and what they are: 400 if malformed, 413 over the limit, 415 if not an image. */
export function decodeScreenshot(value: string, limit: number): { bytes: Buffer; info: ImageInfo } {
  const prefix = DATA_URL.exec(value);
  const data = prefix ? value.slice(prefix[0].length) : '';
  if (!prefix || !BASE64.test(data) || data.length % 4 === 1) {
    throw invalid('screenshot must be a data URL: data:image/png, image/jpeg or image/webp;base64,...', [
      { field: 'screenshot', message: 'must be data:image/png|jpeg|webp;base64,<base64>' },
    ]);
  }
  // Checked before decoding: a body within the request limit can still hold more than an image may be.
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (size > limit) throw tooLarge('screenshot', 'screenshot', size, limit, 'STEP_IMAGE_MAX_BYTES');
  const bytes = Buffer.from(data, 'base64');
  const info = sniffImage(bytes);
  if (!info) {
    throw new AppError('unsupported_media_type', 'The screenshot is not a PNG, JPEG or WebP image (checked from its bytes)', {
      details: [{ field: 'screenshot', message: 'is not a PNG, JPEG or WebP image' }],
    });
  }
  return { bytes, info };
}

/**
 * The snapshot as it may be stored: private fields out first (`removePrivateFields`), then sanitised for
 * the player as generated snapshots are. `mayReach` is the SSRF guard's syntax check: no address it
 * refuses on sight stays in the page. A snapshot nested deeper than MAX_NESTING_DEPTH is a 400.
 * CPU-heavy: the service runs it in the document workers (src/document-tasks.ts), never on the event loop.
 */
export function cleanSnapshot(html: string, pageUrl: string, mayReach: (url: string) => boolean): string {
  let doc: ReturnType<typeof parseHtml>;
  try {
    doc = parseHtml(html);
  } catch (error) {
    if (!(error instanceof NestingTooDeepError)) throw error;
    throw invalid(`The snapshot nests elements more than ${MAX_NESTING_DEPTH} levels deep: the limit is ${MAX_NESTING_DEPTH}`, [
      { field: 'snapshot', message: `may nest elements at most ${MAX_NESTING_DEPTH} levels deep` },
    ]);
  }
  removePrivateFields(doc);
  sanitizeDocument(doc, pageUrl, mayReach);
  return render(doc, { encodeEntities: 'utf8' });
}

/**
 * The port through which recordings clean a snapshot off the event loop: {@link cleanSnapshot} in a worker
 * thread (recordings.module.ts wires it to `kernel.documents`).
 *
 * @example
 * ```ts
 * const cleanSnapshot: SnapshotCleaner = (html, pageUrl) =>
 *   kernel.documents.run('cleanSnapshot', [html, pageUrl], { field: 'snapshot', what: 'The snapshot' });
 * const clean = await cleanStep(body, limits, cleanSnapshot);
 * ```
 */
export type SnapshotCleaner = (html: string, pageUrl: string) => Promise<string>;

/** Checks and cleans one uploaded step; throws the documented 400, 413, 415 or 503. */
export async function cleanStep(body: RecordedStepBody, limits: StepLimits, clean: SnapshotCleaner): Promise<CleanStep> {
  const screenshot = body.screenshot === null ? null : decodeScreenshot(body.screenshot, limits.screenshotBytes);
  let snapshot: Buffer | null = null;
  if (body.snapshot !== null) {
    const size = Buffer.byteLength(body.snapshot, 'utf8');
    if (size > limits.snapshotBytes) throw tooLarge('snapshot', 'snapshot', size, limits.snapshotBytes, 'RECORDING_SNAPSHOT_MAX_BYTES');
    snapshot = Buffer.from(await clean(body.snapshot, body.page_url), 'utf8');
  }
  return {
    fields: {
      action: body.action,
      title: body.title,
      description: body.description ?? '',
      pageUrl: body.page_url,
      viewport: body.viewport,
      target: body.target,
      // Hashed here, where the bytes are: completion then copies them into assets inside the database.
      blobs: {
        screenshot: screenshot && { ...screenshot.info, sha256: sha256Hex(screenshot.bytes), size: screenshot.bytes.length },
        snapshot: snapshot && { sha256: sha256Hex(snapshot), size: snapshot.length },
      },
    },
    screenshot: screenshot?.bytes ?? null,
    snapshot,
  };
}

/** The smallest side of a hotspot, as a fraction: a target of no size (or off screen) is still clickable. */
const MIN_SIDE = 0.01;

/** One axis of a box in CSS pixels as [start, size] fractions of `extent`, clamped inside 0..1. */
function span(start: number, size: number, extent: number): [number, number] {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const from = clamp(start / extent);
  // Unclipped, the size is its own fraction (0.2, not the 0.19999999999999998 of 0.3 - 0.1).
  const inside = start >= 0 && start + size <= extent;
  const side = Math.min(inside ? size / extent : clamp((start + size) / extent) - from, 1 - from);
  if (side >= MIN_SIDE) return [from, side];
  return [Math.min(from, 1 - MIN_SIDE), MIN_SIDE];
}

/** The target's box as fractions of the viewport (so of the screenshot that covers it), inside it. */
export function hotspotBox(target: NonNullable<RecordedStepFields['target']>, viewport: RecordedStepFields['viewport']) {
  const [x, width] = span(target.x, target.width, viewport.width);
  const [y, height] = span(target.y, target.height, viewport.height);
  return { x, y, width, height };
}

/**
 * A stored step as the demos module imports it: one hotspot on the target, its tooltip the step's text. Its
 * image and snapshot are the bytes given, or those still in the database that `blobs` describes.
 */
export function toImportedStep(
  fields: RecordedStepFields,
  screenshot: Buffer | StoredImage | null,
  snapshot: Buffer | StoredHtml | null,
): ImportedStep {
  const { target } = fields;
  return {
    title: fields.title,
    description: fields.description,
    pageUrl: fields.pageUrl,
    image: screenshot,
    html: snapshot === null ? null : Buffer.isBuffer(snapshot) ? snapshot.toString('utf8') : snapshot,
    hotspot: target
      ? {
          ...hotspotBox(target, fields.viewport),
          selector: target.selector,
          label: target.label ?? '',
          tooltip: fields.description || fields.title,
        }
      : null,
  };
}

/** "Recording of app.example.com": the default title of a new demo, from its first page. */
export function defaultTitle(firstPageUrl: string): string {
  return `Recording of ${new URL(firstPageUrl).host}`.slice(0, 200);
}
