import type { z } from 'zod';
import type { putSlackBody, slackMessageSchema, slackSettingsSchema, slackTestSchema } from '../../../src/slack/slack.schemas';
import { api, apiList } from './client';

// Wire types from the server's schemas (type-only: nothing of the server is bundled).
export type SlackSettings = z.output<typeof slackSettingsSchema>;
export type SlackInput = z.input<typeof putSlackBody>;
export type SlackTestResult = z.output<typeof slackTestSchema>;
export type SlackMessage = z.output<typeof slackMessageSchema>;
export type SlackAlert = SlackSettings['alerts'][number];

/** Whose alerts: the workspace's (Settings → Slack, admins) or the signed-in member's own (Account). */
export type SlackOwner = 'workspace' | 'account';

/** The Slack alerts API of the workspace or of the member: the same six calls under two paths. */
export function slackApi(owner: SlackOwner) {
  const base = `/${owner}/slack`;
  return {
    get: () => api<SlackSettings>('GET', base),
    save: (body: SlackInput) => api<SlackSettings>('PUT', base, { body }),
    remove: () => api<void>('DELETE', base),
    test: () => api<SlackTestResult>('POST', `${base}/test`),
    messages: (page: number, status?: string) => apiList<SlackMessage>(`${base}/messages`, { query: { page, per_page: 20, status } }),
    retry: (id: string) => api<SlackMessage>('POST', `${base}/messages/${encodeURIComponent(id)}/retry`),
  };
}
