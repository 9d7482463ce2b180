// A step made outside the editor (a recorded step) and how it becomes a step's rows and assets.
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import type { ImageType } from '../core/image-sniff';
import type { AssetStore, StoredBytes } from './asset-bytes';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';
import { HTML_ASSET_TYPE, storeHtml, storeImage, storeStoredBytes } from './step-assets';

/** One step made outside the editor (a recorded step), with everything it shows. */
export interface ImportedStep {
  title: string;
  description: string;
  pageUrl: string | null;
  /**
   * PNG, JPEG or WebP bytes (checked from them); the step's width and height are the image's. Or bytes
   * already in the database, checked when they were stored, with their type and size as read then.
   */
  image: Buffer | StoredImage | null;
  /** A snapshot already sanitised for the player (or such a snapshot already in the database, in UTF-8). */
  html: string | StoredHtml | null;
  /** A box in fractions of the image, inside it; its action is `next`. */
  hotspot: { x: number; y: number; width: number; height: number; selector: string | null; label: string; tooltip: string } | null;
}

/** An image already in the database: its type and dimensions read from its bytes when they were stored. */
export type StoredImage = StoredBytes & { contentType: ImageType; width: number; height: number };

/** A sanitised snapshot already in the database, in UTF-8. */
export type StoredHtml = Omit<StoredBytes, 'contentType'>;

const TOOLTIP_MAX = 2000;
const LABEL_MAX = 200;

/** Stores the step's image and snapshot as assets; the step row's fields that show them and its text. */
export async function writeStepContent(tx: Executor, store: AssetStore, demo: DemoRow, step: ImportedStep, now: Date) {
  const image = step.image ? await storeStepImage(tx, store, demo, step.image, now) : undefined;
  const html =
    step.html === null
      ? undefined
      : typeof step.html === 'string'
        ? await storeHtml(tx, store, demo, step.html, now)
        : { id: await storeStoredBytes(tx, store, demo, { ...step.html, contentType: HTML_ASSET_TYPE }, now) };
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

async function storeStepImage(tx: Executor, store: AssetStore, demo: DemoRow, image: Buffer | StoredImage, now: Date) {
  if (Buffer.isBuffer(image)) return storeImage(tx, store, demo, image, now);
  return { id: await storeStoredBytes(tx, store, demo, image, now), width: image.width, height: image.height };
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
