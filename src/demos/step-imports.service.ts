// The one door through which another module (recordings) writes steps into demos: the editor's own lock, revision and audit, inside the caller's transaction.
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { storedConfiguration } from './demo-configuration.schemas';
import * as repo from './demos.repo';
import { insertCreatedDemo } from './create-demo';
import { type ImportedStep, insertImportedHotspot, writeStepContent } from './imported-step';
import { editInTransaction } from './step-edit';
import { storeHtml, storeImage } from './step-assets';
import type { AssetStore } from './asset-bytes';

export interface StepImportsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  /** Where the steps' images and snapshots go: a blob store, or undefined for the database. */
  assetStore: AssetStore;
}

/**
 * Writes imported steps into demos through the editor's own path (`editInTransaction`: the demo locked,
 * its thumbnail, revision and updated_at refreshed, demo.updated recorded) and creates demos as POST
 * /v1/demos does (demo.created). Every write runs in the caller's transaction, so that the caller's own
 * rows commit with them or not at all; the caller announces `committed(demoId)` afterwards.
 *
 * @example
 * ```ts
 * const imports = createStepImports(kernel);
 * await imports.checkTarget(auth, demoId);
 * await db.transaction(async (tx) => {
 *   await imports.append(tx, auth, demoId, steps); // steps: an AsyncIterable<ImportedStep>
 *   await markMyOwnRowDone(tx);
 * });
 * await imports.committed(demoId);
 * ```
 */
export function createStepImports({ database, clock, changes, assetStore }: StepImportsDeps) {
  const { db } = database;
  return {
    /**
     * What the caller may import into, checked before it starts: 404 for a demo (or step) not in the
     * workspace, 409 while the demo is being generated. Completion checks again under the demo's lock.
     */
    async checkTarget(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, stepId?: string) {
      const found = await repo.findDemo(db, auth.workspaceId, demoId);
      if (!found) throw notFound('Demo');
      if (found.demo.status === 'generating') {
        throw conflict('This demo is being generated: add to it when generation finishes');
      }
      if (stepId && !(await repo.findStep(db, demoId, stepId))) throw notFound('Step');
    },

    /** A new draft demo (type interactive), in `tx`. */
    async createDraft(tx: Executor, auth: Pick<AuthContext, 'workspaceId' | 'memberId'>, input: { title: string; sourceUrl: string | null }) {
      const now = clock.now();
      return insertCreatedDemo(tx, clock, {
        id: newId('demo'),
        workspaceId: auth.workspaceId,
        title: input.title.slice(0, 200),
        sourceUrl: input.sourceUrl,
        type: 'interactive',
        status: 'draft',
        configuration: storedConfiguration(undefined, {}),
        generateWithAi: false,
        createdById: auth.memberId,
        createdAt: now,
        updatedAt: now,
      });
    },

    /** Adds the steps, in order, after the demo's last one, in `tx`. Read one at a time from `steps`. */
    async append(tx: Executor, auth: Pick<AuthContext, 'workspaceId'>, demoId: string, steps: AsyncIterable<ImportedStep>) {
      return editInTransaction(tx, clock, auth, demoId, async (tx, demo, now) => {
        let position = (await repo.listSteps(tx, demo.id)).length;
        for await (const step of steps) {
          const content = await writeStepContent(tx, assetStore, demo, step, now);
          const [row] = await repo.insertSteps(tx, [{ id: newId('step'), demoId: demo.id, position: ++position, ...content, createdAt: now }]);
          await insertImportedHotspot(tx, demo.id, row!.id, step, now);
        }
      });
    },

    /** The step's image, snapshot, text and hotspots become the imported step's, in `tx`. */
    async replace(tx: Executor, auth: Pick<AuthContext, 'workspaceId'>, demoId: string, stepId: string, step: ImportedStep) {
      return editInTransaction(tx, clock, auth, demoId, async (tx, demo, now) => {
        const current = await repo.findStep(tx, demo.id, stepId);
        if (!current) throw notFound('Step');
        await repo.updateStep(tx, current.id, await writeStepContent(tx, assetStore, demo, step, now));
        await repo.deleteHotspotsOfStep(tx, current.id);
        await insertImportedHotspot(tx, demo.id, current.id, step, now);
        const replaced = [current.imageAssetId, current.htmlAssetId].filter((a): a is string => !!a);
        await repo.deleteAssets(tx, demo.id, replaced);
      });
    },

    /**
     * The step shows a new capture of its page (the stale-demo check's replace), in `tx`: its image and
     * snapshot become these, and the hotspots named in `boxes` move there; its text, patches, hotspot
     * labels and actions stay as they are.
     */
    async recapture(tx: Executor, auth: Pick<AuthContext, 'workspaceId'>, demoId: string, stepId: string, capture: RecapturedStep) {
      return editInTransaction(tx, clock, auth, demoId, async (tx, demo, now) => {
        const current = await repo.findStep(tx, demo.id, stepId);
        if (!current) throw notFound('Step');
        const image = capture.image ? await storeImage(tx, assetStore, demo, capture.image, now) : undefined;
        const html = capture.html !== null ? await storeHtml(tx, assetStore, demo, capture.html, now) : undefined;
        await repo.updateStep(tx, current.id, {
          ...(image ? { imageAssetId: image.id, width: image.width, height: image.height } : {}),
          ...(html ? { htmlAssetId: html.id } : {}),
          updatedAt: now,
        });
        for (const [hotspotId, box] of Object.entries(capture.boxes)) {
          if (await repo.findHotspot(tx, current.id, hotspotId)) await repo.updateHotspot(tx, hotspotId, { ...box, updatedAt: now });
        }
        const replaced = [image ? current.imageAssetId : null, html ? current.htmlAssetId : null].filter((a): a is string => !!a);
        await repo.deleteAssets(tx, demo.id, replaced);
      });
    },

    /** Call once the transaction that imported into the demo has committed: cached renderings go stale. */
    committed: (demoId: string) => changes.announce(tags.demo(demoId)),
  };
}

/** A new capture of a step's page: its screenshot and/or snapshot, and new hotspot boxes (fractions of the image) by hotspot id. */
export interface RecapturedStep {
  image: Buffer | null;
  html: string | null;
  boxes: Record<string, { x: number; y: number; width: number; height: number }>;
}

/** The port recordings write their steps into demos through: see {@link createStepImports}. */
export type StepImportsService = ReturnType<typeof createStepImports>;
