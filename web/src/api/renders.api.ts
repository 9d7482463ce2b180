import type { z } from 'zod';
import type { renderSchema } from '../../../src/renders/renders.schemas';
import { api, apiList } from './client';

export type Render = z.output<typeof renderSchema>;
export type RenderFormat = Render['format'];
export type RenderPace = 'slow' | 'normal' | 'fast';

/** Videos and GIFs of a demo's published version (docs/video.md). */
export const rendersApi = {
  list: (demoId: string) => apiList<Render>(`/demos/${demoId}/renders`, { query: { per_page: 10 } }),
  create: (demoId: string, body: { format: RenderFormat; width: number; height: number; pace: RenderPace }) =>
    api<Render>('POST', `/demos/${demoId}/renders`, { body }),
  /** Cancels a render in progress; deletes a finished one. */
  remove: (demoId: string, renderId: string) => api<void>('DELETE', `/demos/${demoId}/renders/${renderId}`),
};
