import type { z } from 'zod';
import type { configurationPatch } from '../../../src/demos/demo-configuration.schemas';
import type { redactionsBody } from '../../../src/demos/redactions.schemas';
import { api, apiList, apiUpload } from './client';
import type { CaptureModeChoice, Chapter, Demo, DemoDetail, DemoStatus, DemoVersion, Hotspot, HotspotInput, Step, StepStory, StoryAction } from './types';

const d = (id: string) => `/demos/${encodeURIComponent(id)}`;
const s = (id: string, stepId: string) => `${d(id)}/steps/${encodeURIComponent(stepId)}`;

/** A step's fields as the editor sends them (creation or edit). */
export type StepPatch = { title?: string; description?: string } & Partial<StepStory>;
/** A hotspot's fields with the story's: every action type, and the tooltip as rich text. */
export type HotspotPatch = Omit<HotspotInput, 'action'> & { action?: StoryAction; tooltip_html?: string | null };
const c = (id: string, chapterId: string) => `${d(id)}/chapters/${encodeURIComponent(chapterId)}`;

type ConfigurationPatch = z.input<typeof configurationPatch>;
/** Areas of the step image and elements of its snapshot to blur for good. */
export type RedactionsBody = z.input<typeof redactionsBody>;

export const demosApi = {
  list: (query: { page: number; per_page: number; status?: DemoStatus; search?: string }) => apiList<Demo>('/demos', { query }),
  get: (id: string) => api<DemoDetail>('GET', d(id)),
  create: (body: { title?: string; source_url?: string; type: 'interactive'; generate_with_ai: boolean; capture_mode?: CaptureModeChoice }) =>
    api<DemoDetail>('POST', '/demos', { body }),
  update: (id: string, body: { title?: string; status?: Exclude<DemoStatus, 'generating'>; configuration?: ConfigurationPatch }) =>
    api<DemoDetail>('PATCH', d(id), { body }),
  remove: (id: string) => api<void>('DELETE', d(id)),
  generate: (id: string, body: { keep_edited_steps?: boolean } = {}) => api<DemoDetail>('POST', `${d(id)}/generate`, { body }),
  publish: (id: string) => api<DemoDetail>('POST', `${d(id)}/publish`),
  versions: (id: string, query: { page: number; per_page: number }) => apiList<DemoVersion>(`${d(id)}/versions`, { query }),
  restoreVersion: (id: string, version: number) => api<DemoDetail>('POST', `${d(id)}/versions/${version}/restore`),
  replaceSteps: (id: string, steps: Array<string | { id?: string; title?: string }>) => api<DemoDetail>('PUT', `${d(id)}/steps`, { body: { steps } }),
  addStep: (id: string, body: StepPatch & { number?: number } = {}) => api<Step>('POST', `${d(id)}/steps`, { body }),
  addImageStep: (id: string, file: Blob) => apiUpload<Step>(`${d(id)}/steps`, file),
  updateStep: (id: string, stepId: string, body: StepPatch) => api<Step>('PATCH', s(id, stepId), { body }),
  removeStep: (id: string, stepId: string) => api<void>('DELETE', s(id, stepId)),
  uploadImage: (id: string, stepId: string, file: Blob) => apiUpload<Step>(`${s(id, stepId)}/image`, file),
  addHotspot: (id: string, stepId: string, body: HotspotPatch) => api<Hotspot>('POST', `${s(id, stepId)}/hotspots`, { body }),
  updateHotspot: (id: string, stepId: string, hotspotId: string, body: HotspotPatch) =>
    api<Hotspot>('PATCH', `${s(id, stepId)}/hotspots/${encodeURIComponent(hotspotId)}`, { body }),
  removeHotspot: (id: string, stepId: string, hotspotId: string) => api<void>('DELETE', `${s(id, stepId)}/hotspots/${encodeURIComponent(hotspotId)}`),
  addChapter: (id: string, body: { title: string; description?: string }) => api<Chapter>('POST', `${d(id)}/chapters`, { body }),
  updateChapter: (id: string, chapterId: string, body: { title?: string; description?: string }) => api<Chapter>('PATCH', c(id, chapterId), { body }),
  removeChapter: (id: string, chapterId: string) => api<void>('DELETE', c(id, chapterId)),
  redact: (id: string, stepId: string, body: RedactionsBody) => api<Step>('POST', `${s(id, stepId)}/redactions`, { body }),
};

/** Asset URLs are absolute on the API origin; the web app is served by the same server, so use the path. */
export function assetPath(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    // With its query: a snapshot's `?patches=` names the page patches it is served with.
    const { pathname, search } = new URL(url);
    return pathname + search;
  } catch {
    return url;
  }
}
