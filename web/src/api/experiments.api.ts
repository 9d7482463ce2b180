import type { z } from 'zod';
import type { experimentResultsSchema, experimentSchema, startExperimentBody } from '../../../src/experiments/experiments.schemas';
import { api, apiList } from './client';

// Wire types from the server's schemas (type-only: nothing of the server is bundled).
export type Experiment = z.output<typeof experimentSchema>;
export type ExperimentResults = z.output<typeof experimentResultsSchema>;
export type NewExperiment = z.input<typeof startExperimentBody>;

const e = (shareId: string) => `/shares/${encodeURIComponent(shareId)}/experiment`;
const all = (shareId: string) => `/shares/${encodeURIComponent(shareId)}/experiments`;

export const experimentsApi = {
  get: (shareId: string) => api<Experiment>('GET', e(shareId)),
  start: (shareId: string, body: NewExperiment) => api<Experiment>('POST', e(shareId), { body }),
  stop: (shareId: string, winnerArmId: string | null) => api<Experiment>('POST', `${e(shareId)}/stop`, { body: { winner_arm_id: winnerArmId } }),
  remove: (shareId: string) => api<void>('DELETE', e(shareId)),
  results: (shareId: string) => api<ExperimentResults>('GET', `${e(shareId)}/results`),
  /** Every test of the link, newest first (the first is the one `get` answers). */
  list: (shareId: string, page: number, perPage: number) => apiList<Experiment>(all(shareId), { query: { page, per_page: perPage } }),
  /** Deletes one of the link's earlier tests with its figures (the newest: 409, `remove` is its way). */
  removeEarlier: (shareId: string, experimentId: string) => api<void>('DELETE', `${all(shareId)}/${encodeURIComponent(experimentId)}`),
  /** The results of one of the link's tests, an earlier one too. */
  resultsOf: (shareId: string, experimentId: string) =>
    api<ExperimentResults>('GET', `${all(shareId)}/${encodeURIComponent(experimentId)}/results`),
};

export const METRIC_LABELS: Record<Experiment['metric'], string> = {
  completion: 'Completion',
  form_conversion: 'Form conversion',
  cta_click: 'CTA clicks',
};
