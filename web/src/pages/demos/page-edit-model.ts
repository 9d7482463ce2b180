// Page patches as the editor handles them: the API calls, and the rules for which element takes which edit.
import type { PagePatch } from '../../../../src/demos/story.schemas';
import { api, apiUpload } from '../../api/client';
import type { Step } from '../../api/types';

export type { PagePatch };

const stepPath = (demoId: string, stepId: string) => `/demos/${encodeURIComponent(demoId)}/steps/${encodeURIComponent(stepId)}`;

export const pageEditApi = {
  /** Replaces the step's whole list of patches (PATCH /v1/demos/:id/steps/:step_id). */
  savePatches: (demoId: string, stepId: string, patches: PagePatch[]) => api<Step>('PATCH', stepPath(demoId, stepId), { body: { patches } }),
  /** Stores an image for `image` patches (POST /v1/demos/:id/images); its id is the patch's value. */
  uploadImage: (demoId: string, file: Blob) =>
    apiUpload<{ id: string; url: string; width: number; height: number }>(`/demos/${encodeURIComponent(demoId)}/images`, file),
};

/** The step's patches (older answers have none). */
export const patchesOf = (step: Step): PagePatch[] => (step as Step & { patches?: PagePatch[] }).patches ?? [];

/**
 * The list with `patch` in it: a patch of the same element and kind is replaced (the newest text wins, not a
 * pile of them), anything else is added at the end, so it applies after what it may cover.
 */
export function withPatch(patches: PagePatch[], patch: PagePatch): PagePatch[] {
  return [...patches.filter((p) => !(p.selector === patch.selector && p.op === patch.op)), patch];
}

/** Elements inside text that the text edit may flatten: formatting, not structure. */
const INLINE = new Set(['b', 'strong', 'i', 'em', 'span', 'small', 'u', 'mark', 'code', 'sub', 'sup', 'br', 'abbr', 's', 'time', 'wbr']);

/**
 * Whether a `text` patch suits `el`: it shows words, and what is inside it is only text and formatting (a
 * text patch replaces everything in the element with plain text: a card's icons and buttons would go).
 */
export function isTextElement(el: Element): boolean {
  if ((el.textContent ?? '').trim() === '') return false;
  if (['style', 'script', 'noscript', 'textarea', 'select', 'svg'].includes(el.localName)) return false;
  return [...el.querySelectorAll('*')].every((child) => INLINE.has(child.localName));
}

/** The `<img>` an image patch would swap: the element itself, or the image of a `<picture>`. */
export function imageElement(el: Element): HTMLImageElement | null {
  if (el.localName === 'img') return el as HTMLImageElement;
  if (el.localName === 'picture') return el.querySelector(':scope > img');
  return null;
}

/** What a patch does, in the editor's words. */
export function describePatch(patch: PagePatch): string {
  if (patch.op === 'hide') return 'Hidden';
  if (patch.op === 'image') return 'Image replaced';
  const value = patch.value ?? '';
  return `Text: “${value.length > 40 ? `${value.slice(0, 40)}…` : value}”`;
}
