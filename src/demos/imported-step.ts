// A step made outside the editor (a recorded step) and how it becomes a step's rows and assets.
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import type { AssetStore } from './asset-bytes';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';
import { storeHtml, storeImage } from './step-assets';

/** One step made outside the editor (a recorded step), with everything it shows. */
export interface ImportedStep {
  title: string;
  description: string;
  pageUrl: string | null;
  /** PNG, JPEG or WebP bytes (checked from them); the step's width and height are the image's. */
  image: Buffer | null;
  /** A snapshot already sanitised for the player. */
  html: string | null;
  /** A box in fractions of the image, inside it; its action is `next`. */
  hotspot: { x: number; y: number; width: number; height: number; selector: string | null; label: string; tooltip: string } | null;
}

const TOOLTIP_MAX = 2000;
const LABEL_MAX = 200;

/** Stores the step's image and snapshot as assets; the step row's fields that show them and its text. */
export async function writeStepContent(tx: Executor, store: AssetStore, demo: DemoRow, step: ImportedStep, now: Date) {
  const image = step.image ? await storeImage(tx, store, demo, step.image, now) : undefined;
  const html = step.html !== null ? await storeHtml(tx, store, demo, step.html, now) : undefined;
  return {
    title: step.title,
    description: step.description,
    pageUrl: step.pageUrl,
    imageAssetId: image?.id ?? null,
    width: image?.width ?? null,
    height: image?.height ?? null,
    htmlAssetId: html?.id ?? null,
    editedAt: now,
    updatedAt: now,
  };
}

/** The imported step's hotspot (action `next`), its label and tooltip cut to the editor's limits. */
export async function insertImportedHotspot(tx: Executor, demoId: string, stepId: string, step: ImportedStep, now: Date) {
  const h = step.hotspot;
  if (!h) return;
  await repo.insertHotspots(tx, [
    {
      id: newId('hotspot'),
      stepId,
      demoId,
      x: h.x,
      y: h.y,
      width: h.width,
      height: h.height,
      selector: h.selector,
      label: h.label.slice(0, LABEL_MAX),
      tooltip: h.tooltip.slice(0, TOOLTIP_MAX),
      actionType: 'next',
      actionTarget: null,
      createdAt: now,
      updatedAt: now,
    },
  ]);
}
