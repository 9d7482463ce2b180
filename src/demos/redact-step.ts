import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import { conflict, type ErrorDetail, invalid, notFound } from '../core/errors';
import { emitEvent } from '../events/outbox';
import type { StepRow } from './demos.repo';
import * as repo from './demos.repo';
import { redactedImage, redactedSnapshot } from './redacted-assets';
import type { RedactHtml } from './redact-snapshot';
import { blobKeysOf, deleteAssetsNow, isBlobNamed, replaceAssetReferences } from './redactions.repo';
import type { RedactionsInput } from './redactions.schemas';
import { insertPlacedAsset } from './step-assets';
import { type AssetStore, placeBytes } from './asset-bytes';
import type { WarningLog } from '../core/log';

/** What blurring a step needs. */
export interface RedactionsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  redactHtml: RedactHtml;
  /** Where the blurred bytes go, and the originals are removed from once nothing names them. */
  assetStore: AssetStore;
  log: WarningLog;
}

/**
 * POST /v1/demos/:id/steps/:step_id/redactions. The pixels and the HTML are worked on before the
 * transaction (it holds the demo's lock only for the writes); a step whose assets changed meanwhile is
 * a 409, never a blur of the wrong image.
 */
export async function redactStep(
  deps: RedactionsDeps,
  auth: AuthContext,
  demoId: string,
  stepId: string,
  input: RedactionsInput,
  actor: Actor,
): Promise<StepRow> {
  const { database, clock, changes } = deps;
  const { db } = database;
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
  const snapshot = await redactedSnapshot(database, deps.assetStore, deps.redactHtml, step, input);
  const image = await redactedImage(database, deps.assetStore, step, input);
  // The blurred blobs before the transaction: a store that is down is a 503 and nothing changed.
  const placedSnapshot = snapshot ? await placeBytes(deps.assetStore, snapshot) : undefined;
  const placedImage = image ? await placeBytes(deps.assetStore, image) : undefined;
  let originals: string[] = [];

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
    if (placedImage && step.imageAssetId) replaced.set(step.imageAssetId, await insertPlacedAsset(tx, demo, placedImage, now));
    if (placedSnapshot && step.htmlAssetId) replaced.set(step.htmlAssetId, await insertPlacedAsset(tx, demo, placedSnapshot, now));
    const versions = await replaceAssetReferences(tx, demo.id, replaced);
    originals = await blobKeysOf(tx, demo.id, [...replaced.keys()]);
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
  await removeUnnamedBlobs(deps, originals);
  return result;
}

/**
 * A blurred original is gone from the store too, not only from the database, once no asset names it (equal
 * bytes elsewhere share its content address and keep it). The blur is committed by then: a store that fails
 * here is logged and leaves the blob to garbage collection, and the request still succeeds.
 */
async function removeUnnamedBlobs(deps: Pick<RedactionsDeps, 'database' | 'assetStore' | 'log'>, keys: string[]) {
  const store = deps.assetStore;
  if (!store) return;
  for (const key of keys) {
    try {
      // The collector's delete, not a plain one: an upload of these same bytes after `checkedAt` renews the
      // blob, and the sweep then keeps it for the row that upload is about to write.
      const checkedAt = new Date();
      if (!(await isBlobNamed(deps.database.db, key))) await store.sweep(key, checkedAt);
    } catch (error) {
      deps.log.warn({ err: error, blob: key }, 'a blurred original could not be removed from the asset store');
    }
  }
}
