import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { sha256Hex } from '../core/crypto';
import { conflict, type ErrorDetail, invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import * as repo from './demos.repo';
import type { DemoRow, StepRow } from './demos.repo';
import { sniffImage } from '../core/image-sniff';
import { redactImage, UndecodableImage } from './redact-image';
import type { SnapshotRedaction } from './redact-snapshot';
import { deleteAssetsNow, replaceAssetReferences } from './redactions.repo';
import type { RedactionsInput } from './redactions.schemas';

export interface RedactionsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  /** `redactSnapshot` in the document workers: parsing a snapshot never holds the event loop. */
  redactHtml: (html: string, selectors: string[]) => Promise<SnapshotRedaction>;
}

interface NewAsset {
  contentType: string;
  bytes: Buffer;
}

/**
 * Blurring parts of a step so that the stored screenshot and snapshot no longer hold them: new assets
 * replace the old ones everywhere they are named (the step, the thumbnail, published versions), and the
 * old ones are deleted in the same transaction.
 */
export function createRedactions({ database, clock, changes, redactHtml }: RedactionsDeps) {
  const { db } = database;

  /** The step's image with the regions obscured, or nothing when no region is given. */
  async function newImage(step: StepRow, input: RedactionsInput): Promise<NewAsset | undefined> {
    const regions = input.regions ?? [];
    if (regions.length === 0 || !step.imageAssetId) return undefined;
    const asset = await repo.findAsset(db, step.demoId, step.imageAssetId);
    const info = asset ? sniffImage(asset.bytes) : null;
    if (!asset || !info) throw conflict('The step’s image could not be read: upload it again, then blur it');
    try {
      const out = await redactImage(asset.bytes, info.contentType, regions, input.style);
      return { contentType: out.contentType, bytes: out.bytes };
    } catch (err) {
      if (err instanceof UndecodableImage) throw conflict('The step’s image could not be decoded: upload it again, then blur it');
      throw err;
    }
  }

  /** The step's snapshot with the selected elements obscured, or nothing when no selector is given. */
  async function newSnapshot(step: StepRow, input: RedactionsInput): Promise<NewAsset | undefined> {
    const selectors = input.selectors ?? [];
    if (selectors.length === 0 || !step.htmlAssetId) return undefined;
    const asset = await repo.findAsset(db, step.demoId, step.htmlAssetId);
    if (!asset) throw conflict('The step’s snapshot could not be read');
    const { html, matches } = await redactHtml(asset.bytes.toString('utf8'), selectors).catch((error: unknown) => {
      // Stored before the nesting limit existed: there is no element the selectors could be checked against.
      if (error instanceof Error && error.name === 'NestingTooDeepError') throw conflict(`The step’s snapshot cannot be blurred: ${error.message}`);
      throw error;
    });
    const unmatched: ErrorDetail[] = [];
    matches.forEach((n, i) => {
      if (n === 0) unmatched.push({ field: `selectors.${i}`, message: 'matches no element of the step’s snapshot' });
    });
    if (unmatched.length > 0) {
      const which = unmatched.length === 1 ? `Selector ${unmatched[0]!.field.split('.')[1]} matches` : `${unmatched.length} selectors match`;
      throw invalid(`${which} no element of the step’s snapshot: nothing was blurred`, unmatched);
    }
    return { contentType: asset.contentType, bytes: Buffer.from(html, 'utf8') };
  }

  async function insertAsset(tx: Executor, demo: DemoRow, asset: NewAsset, now: Date): Promise<string> {
    const id = newId('asset');
    await repo.insertAsset(tx, {
      id,
      workspaceId: demo.workspaceId,
      demoId: demo.id,
      contentType: asset.contentType,
      bytes: asset.bytes,
      size: asset.bytes.length,
      sha256: sha256Hex(asset.bytes),
      createdAt: now,
    });
    return id;
  }

  /**
   * POST /v1/demos/:id/steps/:step_id/redactions. The pixels and the HTML are worked on before the
   * transaction (it holds the demo's lock only for the writes); a step whose assets changed meanwhile is
   * a 409, never a blur of the wrong image.
   */
  async function redact(auth: AuthContext, demoId: string, stepId: string, input: RedactionsInput, actor: Actor): Promise<StepRow> {
    const found = await repo.findDemo(db, auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    if (found.demo.status === 'generating') throw conflict('This demo is being generated: blur its steps when generation finishes');
    const step = await repo.findStep(db, demoId, stepId);
    if (!step) throw notFound('Step');
    // Both checked before either is worked on: a request with two problems hears of both at once.
    const missing: ErrorDetail[] = [];
    if ((input.regions?.length ?? 0) > 0 && !step.imageAssetId) missing.push({ field: 'regions', message: 'the step has no image' });
    if ((input.selectors?.length ?? 0) > 0 && !step.htmlAssetId) missing.push({ field: 'selectors', message: 'the step has no snapshot' });
    if (missing.length > 0) {
      const message =
        missing.length > 1
          ? 'This step has neither an image nor an HTML snapshot to blur'
          : missing[0]!.field === 'regions'
            ? 'This step has no image to blur: regions need one'
            : 'This step has no HTML snapshot: selectors need one';
      throw invalid(message, missing);
    }
    // The snapshot first: it is quick, and a selector that matches nothing refuses the whole request.
    const snapshot = await newSnapshot(step, input);
    const image = await newImage(step, input);

    const result = await db.transaction(async (tx) => {
      const demo = await repo.lockDemo(tx, auth.workspaceId, demoId);
      if (!demo) throw notFound('Demo');
      if (demo.status === 'generating') throw conflict('This demo is being generated: blur its steps when generation finishes');
      const current = await repo.findStep(tx, demo.id, stepId);
      if (!current) throw notFound('Step');
      if (current.imageAssetId !== step.imageAssetId || current.htmlAssetId !== step.htmlAssetId) {
        throw conflict('The step’s image or snapshot changed while it was being blurred: try again');
      }
      const now = clock.now();
      const replaced = new Map<string, string>();
      if (image && step.imageAssetId) replaced.set(step.imageAssetId, await insertAsset(tx, demo, image, now));
      if (snapshot && step.htmlAssetId) replaced.set(step.htmlAssetId, await insertAsset(tx, demo, snapshot, now));
      const versions = await replaceAssetReferences(tx, demo.id, replaced);
      await deleteAssetsNow(tx, demo.id, [...replaced.keys()]);
      const updated = await repo.updateStep(tx, step.id, { editedAt: now, updatedAt: now });
      await repo.touchAfterStepChange(tx, demo.id, now);
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'demo.updated',
        data: { demo_id: demo.id, changes: ['steps'], status: demo.status, title: demo.title },
      });
      // Counts only: a selector may itself spell out what was hidden (a[href="mailto:…"]).
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'demo.redacted',
        target: { type: 'demo', id: demo.id, label: demo.title },
        changes: {
          step_id: step.id,
          step_number: updated.position,
          regions: input.regions?.length ?? 0,
          selectors: input.selectors?.length ?? 0,
          style: input.style,
          versions_rewritten: versions,
        },
      });
      return updated;
    });
    await changes.announce(tags.demo(demoId));
    return result;
  }

  return { redact };
}

export type RedactionsService = ReturnType<typeof createRedactions>;
