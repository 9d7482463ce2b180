import type { z } from 'zod';
import type { checkSchema, scheduleSchema } from '../../../src/staleness/staleness.schemas';
import { api, apiList } from './client';

export type DemoCheck = z.output<typeof checkSchema>;
export type DemoCheckStep = DemoCheck['steps'][number];
export type CheckSchedule = z.output<typeof scheduleSchema>;

/** The stale-demo check (docs/stale-check.md): run one, read the latest, replace a step, the schedule. */
export const stalenessApi = {
  start: (demoId: string) => api<DemoCheck>('POST', `/demos/${demoId}/checks`),
  get: (demoId: string, checkId: string) => api<DemoCheck>('GET', `/demos/${demoId}/checks/${checkId}`),
  /** The newest check with its step results, or null when the demo was never checked. */
  latest: async (demoId: string) => {
    const { rows } = await apiList<{ id: string }>(`/demos/${demoId}/checks`, { query: { per_page: 1 } });
    return rows[0] ? stalenessApi.get(demoId, rows[0].id) : null;
  },
  replace: (demoId: string, checkId: string, stepId: string) =>
    api<{ replaced_at: string }>('POST', `/demos/${demoId}/checks/${checkId}/steps/${stepId}/replace`),
  /** The new screenshot of a step, for an <img> (the session cookie goes with it). */
  captureUrl: (demoId: string, checkId: string, stepId: string) => `/v1/demos/${demoId}/checks/${checkId}/steps/${stepId}/capture`,
  schedule: (demoId: string) => api<CheckSchedule>('GET', `/demos/${demoId}/check-schedule`),
  setSchedule: (demoId: string, interval: CheckSchedule['interval']) => api<CheckSchedule>('PUT', `/demos/${demoId}/check-schedule`, { body: { interval } }),
};
