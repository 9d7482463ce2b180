import type { z } from 'zod';
import type { aiSettingsSchema, aiTestResultSchema, putAiSettingsBody, testAiBody } from '../../../src/ai/ai.schemas';
import type { rewriteStepBody, stepSuggestionSchema } from '../../../src/demos/rewrite-step.schemas';
import { api } from './client';

export type AiSettings = z.output<typeof aiSettingsSchema>;
export type AiSettingsInput = z.input<typeof putAiSettingsBody>;
export type AiTestInput = NonNullable<z.input<typeof testAiBody>>;
export type AiTestResult = z.output<typeof aiTestResultSchema>;
export type StepSuggestion = z.output<typeof stepSuggestionSchema>;
export type StepRewriteInput = NonNullable<z.input<typeof rewriteStepBody>>;

/** The workspace's AI model (Settings → AI, admins) and the editor's Rewrite (editors). */
export const aiApi = {
  get: () => api<AiSettings>('GET', '/workspace/ai'),
  save: (body: AiSettingsInput) => api<AiSettings>('PUT', '/workspace/ai', { body }),
  remove: () => api<void>('DELETE', '/workspace/ai'),
  test: (body: AiTestInput) => api<AiTestResult>('POST', '/workspace/ai/test', { body }),
  rewriteStep: (demoId: string, stepId: string, body: StepRewriteInput = {}) =>
    api<StepSuggestion>('POST', `/demos/${demoId}/steps/${stepId}/rewrite`, { body }),
};
