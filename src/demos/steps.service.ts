import type { z } from 'zod';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { AppError, conflict, invalid, notFound } from '../core/errors';
import { sha256Hex } from '../core/crypto';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import * as repo from './demos.repo';
import type { DemoRow, HotspotRow, StepRow } from './demos.repo';
import { boxProblems, type HotspotActionInput, type patchHotspotBody } from './hotspots.schemas';
import type { ReplaceStepsEntry } from './steps.schemas';
import type { HotspotAction } from './demos.tables';
import { sniffImage } from '../core/image-sniff';

export interface StepsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
}

export interface StepText {
  title?: string;
  description?: string;
  pageUrl?: string | null;
}

/** A hotspot's fields as a request gives them: all of them on create, any of them on a patch. */
export type HotspotInput = z.output<typeof patchHotspotBody>;

/** Stores uploaded bytes as an asset of the demo, once they prove to be a PNG, JPEG or WebP image. */
export async function storeImage(tx: Executor, demo: Pick<DemoRow, 'id' | 'workspaceId'>, bytes: Buffer, now: Date) {
  const info = sniffImage(bytes);
  if (!info) {
    throw new AppError('unsupported_media_type', 'The body is not a PNG, JPEG or WebP image (checked from its bytes)');
  }
  const id = newId('asset');
  await repo.insertAsset(tx, {
    id,
    workspaceId: demo.workspaceId,
    demoId: demo.id,
    contentType: info.contentType,
    bytes,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    createdAt: now,
  });
  return { id, ...info };
}

/** Stores an HTML snapshot (already sanitised) as an asset of the demo. */
export async function storeHtml(tx: Executor, demo: Pick<DemoRow, 'id' | 'workspaceId'>, html: string, now: Date) {
  const bytes = Buffer.from(html, 'utf8');
  const id = newId('asset');
  await repo.insertAsset(tx, {
    id,
    workspaceId: demo.workspaceId,
    demoId: demo.id,
    contentType: 'text/html; charset=utf-8',
    bytes,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    createdAt: now,
  });
  return { id };
}

/**
 * Runs `change` on a locked demo that may be edited, then refreshes the demo's thumbnail and updated_at
 * and records demo.updated, in the caller's transaction. Announce `demo:<id>` once it commits.
 */
export async function editInTransaction<T>(
  tx: Executor,
  clock: Clock,
  auth: Pick<AuthContext, 'workspaceId'>,
  demoId: string,
  change: (tx: Executor, demo: DemoRow, now: Date) => Promise<T>,
) {
  const demo = await repo.lockDemo(tx, auth.workspaceId, demoId);
  if (!demo) throw notFound('Demo');
  if (demo.status === 'generating') {
    throw conflict('This demo is being generated: edit its steps when generation finishes');
  }
  const now = clock.now();
  const result = await change(tx, demo, now);
  await repo.touchAfterStepChange(tx, demo.id, now);
  await emitEvent(tx, clock, {
    workspaceId: auth.workspaceId,
    kind: 'demo.updated',
    data: { demo_id: demo.id, changes: ['steps'], status: demo.status, title: demo.title },
  });
  return result;
}

/** Checks a hotspot action against the demo's steps; `goto` targets are stored as step ids. */
export function resolveAction(action: HotspotActionInput | undefined, steps: StepRow[]) {
  const type: HotspotAction = action?.type ?? 'next';
  const target = action?.target ?? null;
  if (type === 'next') return { actionType: type, actionTarget: null };
  if (type === 'goto') {
    const step =
      typeof target === 'number'
        ? steps.find((s) => s.position === target)
        : typeof target === 'string'
          ? steps.find((s) => s.id === target)
          : undefined;
    if (!step) {
      throw invalid('A goto action needs the number or id of a step of this demo', [
        { field: 'action.target', message: 'is not a step of this demo' },
      ]);
    }
    return { actionType: type, actionTarget: step.id };
  }
  if (typeof target !== 'string' || !isHttpUrl(target)) {
    throw invalid('A url action needs an http(s) address', [
      { field: 'action.target', message: 'must be an http(s) URL' },
    ]);
  }
  return { actionType: type, actionTarget: target };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function createStepsService({ database, clock, changes }: StepsDeps) {
  const { db } = database;

  /** `editInTransaction` in a transaction of its own, announced once it commits. */
  async function edit<T>(auth: AuthContext, demoId: string, change: (tx: Executor, demo: DemoRow, now: Date) => Promise<T>) {
    const result = await db.transaction((tx) => editInTransaction(tx, clock, auth, demoId, change));
    await changes.announce(tags.demo(demoId));
    return result;
  }

  function keepsOneStep(demo: DemoRow, remaining: number) {
    if (demo.status === 'published' && remaining === 0) {
      throw conflict('A published demo keeps at least one step: unpublish it first');
    }
  }

  async function stepOf(tx: Executor, demoId: string, stepId: string) {
    const step = await repo.findStep(tx, demoId, stepId);
    if (!step) throw notFound('Step');
    return step;
  }

  async function createStep(auth: AuthContext, demoId: string, input: StepText & { number?: number; image?: Buffer }) {
    return edit(auth, demoId, async (tx, demo, now) => {
      const existing = await repo.listSteps(tx, demo.id);
      const image = input.image ? await storeImage(tx, demo, input.image, now) : undefined;
      const at = Math.min(input.number ?? existing.length + 1, existing.length + 1);
      const [step] = await repo.insertSteps(tx, [
        {
          id: newId('step'),
          demoId: demo.id,
          position: at,
          title: input.title ?? '',
          description: input.description ?? '',
          pageUrl: input.pageUrl ?? null,
          imageAssetId: image?.id ?? null,
          width: image?.width ?? null,
          height: image?.height ?? null,
          editedAt: now,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      const ordered = [...existing];
      ordered.splice(at - 1, 0, step!);
      await repo.renumber(tx, ordered, now);
      return step!;
    });
  }

  async function updateStep(auth: AuthContext, demoId: string, stepId: string, input: StepText) {
    return edit(auth, demoId, async (tx, demo, now) => {
      await stepOf(tx, demo.id, stepId);
      return repo.updateStep(tx, stepId, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.pageUrl !== undefined ? { pageUrl: input.pageUrl } : {}),
        editedAt: now,
        updatedAt: now,
      });
    });
  }

  async function setStepImage(auth: AuthContext, demoId: string, stepId: string, bytes: Buffer) {
    return edit(auth, demoId, async (tx, demo, now) => {
      const step = await stepOf(tx, demo.id, stepId);
      const image = await storeImage(tx, demo, bytes, now);
      const updated = await repo.updateStep(tx, step.id, {
        imageAssetId: image.id,
        width: image.width,
        height: image.height,
        editedAt: now,
        updatedAt: now,
      });
      if (step.imageAssetId) await repo.deleteAssets(tx, demo.id, [step.imageAssetId]);
      return updated;
    });
  }

  async function deleteStep(auth: AuthContext, demoId: string, stepId: string) {
    await edit(auth, demoId, async (tx, demo, now) => {
      const all = await repo.listSteps(tx, demo.id);
      const step = all.find((s) => s.id === stepId);
      if (!step) throw notFound('Step');
      keepsOneStep(demo, all.length - 1);
      await repo.deleteSteps(tx, demo.id, [step]);
      await repo.renumber(
        tx,
        all.filter((s) => s.id !== stepId),
        now,
      );
    });
  }

  /** PUT /v1/demos/:id/steps: the given list becomes the demo's steps, in that order. */
  async function replaceSteps(auth: AuthContext, demoId: string, entries: ReplaceStepsEntry[]) {
    await edit(auth, demoId, async (tx, demo, now) => {
      const current = await repo.listSteps(tx, demo.id);
      const byId = new Map(current.map((s) => [s.id, s]));
      const seen = new Set<string>();
      const details: { field: string; message: string }[] = [];
      entries.forEach((entry, index) => {
        const id = typeof entry === 'string' ? entry : entry.id;
        if (!id) return;
        if (!byId.has(id)) details.push({ field: `steps.${index}`, message: `${id} is not a step of this demo` });
        else if (seen.has(id)) details.push({ field: `steps.${index}`, message: `${id} is listed twice` });
        seen.add(id);
      });
      if (details.length > 0) throw invalid('The steps list does not match this demo', details);
      keepsOneStep(demo, entries.length);

      await repo.deleteSteps(
        tx,
        demo.id,
        current.filter((s) => !seen.has(s.id)),
      );
      const ordered: StepRow[] = [];
      for (const entry of entries) {
        const fields = typeof entry === 'string' ? {} : entry;
        const existing = fields.id ?? (typeof entry === 'string' ? entry : undefined);
        if (existing) {
          let step = byId.get(existing)!;
          if (fields.title !== undefined || fields.description !== undefined || fields.page_url !== undefined) {
            step = await repo.updateStep(tx, step.id, {
              ...(fields.title !== undefined ? { title: fields.title } : {}),
              ...(fields.description !== undefined ? { description: fields.description } : {}),
              ...(fields.page_url !== undefined ? { pageUrl: fields.page_url } : {}),
              editedAt: now,
              updatedAt: now,
            });
          }
          ordered.push(step);
        } else {
          const [created] = await repo.insertSteps(tx, [
            {
              id: newId('step'),
              demoId: demo.id,
              // Placed past the end for now; renumber gives it its place.
              position: current.length + ordered.length + 1,
              title: fields.title ?? '',
              description: fields.description ?? '',
              pageUrl: fields.page_url ?? null,
              editedAt: now,
              createdAt: now,
              updatedAt: now,
            },
          ]);
          ordered.push(created!);
        }
      }
      await repo.renumber(tx, ordered, now);
    });
  }

  async function createHotspot(auth: AuthContext, demoId: string, stepId: string, input: HotspotInput) {
    return edit(auth, demoId, async (tx, demo, now) => {
      const all = await repo.listSteps(tx, demo.id);
      const step = all.find((s) => s.id === stepId);
      if (!step) throw notFound('Step');
      const [row] = await repo.insertHotspots(tx, [
        {
          id: newId('hotspot'),
          stepId: step.id,
          demoId: demo.id,
          x: input.x!,
          y: input.y!,
          width: input.width!,
          height: input.height!,
          selector: input.selector ?? null,
          label: input.label ?? '',
          tooltip: input.tooltip ?? '',
          ...resolveAction(input.action, all),
          createdAt: now,
          updatedAt: now,
        },
      ]);
      await repo.updateStep(tx, step.id, { editedAt: now });
      return { hotspot: row!, steps: all };
    });
  }

  async function updateHotspot(auth: AuthContext, demoId: string, stepId: string, id: string, input: HotspotInput) {
    return edit(auth, demoId, async (tx, demo, now) => {
      const all = await repo.listSteps(tx, demo.id);
      if (!all.some((s) => s.id === stepId)) throw notFound('Step');
      const current = await repo.findHotspot(tx, stepId, id);
      if (!current) throw notFound('Hotspot');
      const box = {
        x: input.x ?? current.x,
        y: input.y ?? current.y,
        width: input.width ?? current.width,
        height: input.height ?? current.height,
      };
      const problems = boxProblems(box);
      if (problems.length > 0) throw invalid('The hotspot must lie inside the step image', problems);
      const patch: Partial<HotspotRow> = { ...box, updatedAt: now };
      // A box moved by hand is where the author wants it: the player must stop placing it by selector.
      const moved = (['x', 'y', 'width', 'height'] as const).some((k) => box[k] !== current[k]);
      if (input.selector !== undefined) patch.selector = input.selector;
      else if (moved) patch.selector = null;
      if (input.label !== undefined) patch.label = input.label;
      if (input.tooltip !== undefined) patch.tooltip = input.tooltip;
      if (input.action !== undefined) Object.assign(patch, resolveAction(input.action, all));
      await repo.updateStep(tx, stepId, { editedAt: now });
      return { hotspot: await repo.updateHotspot(tx, id, patch), steps: all };
    });
  }

  async function deleteHotspot(auth: AuthContext, demoId: string, stepId: string, id: string) {
    await edit(auth, demoId, async (tx, demo, now) => {
      await stepOf(tx, demo.id, stepId);
      const current = await repo.findHotspot(tx, stepId, id);
      if (!current) throw notFound('Hotspot');
      await repo.deleteHotspot(tx, id);
      await repo.updateStep(tx, stepId, { editedAt: now });
    });
  }

  /** An asset of a demo of the caller's workspace. */
  async function getAsset(auth: AuthContext, demoId: string, assetId: string) {
    const demo = await repo.findDemo(db, auth.workspaceId, demoId);
    if (!demo) throw notFound('Demo');
    const asset = await repo.findAsset(db, demoId, assetId);
    if (!asset) throw notFound('Asset');
    return asset;
  }

  return {
    createStep,
    updateStep,
    setStepImage,
    deleteStep,
    replaceSteps,
    createHotspot,
    updateHotspot,
    deleteHotspot,
    getAsset,
  };
}

export type StepsService = ReturnType<typeof createStepsService>;
