// The Slack service: the settings routes' calls, and the daily digest the job runs.
import type { AuthContext } from '../auth/permissions';
import type { Actor } from '../audit/actor';
import type { SlackMessageStatus } from './slack.tables';
import { queueSlackDigests, type SlackDigestDeps } from './slack.digest';
import { createSlackSettings, type SlackInput, type SlackSettingsDeps } from './slack.settings';
import * as repo from './slack.repo';
import { wakeDeliveryWorkers } from '../events/outbox';

export type SlackDeps = SlackSettingsDeps & SlackDigestDeps;

/**
 * Slack alerts of a workspace (`member: false`, its admins) or of a member (`member: true`, their own):
 * the destination's settings, a test message, the message log, and the daily digest. Alerts themselves
 * are made by the outbox consumer (slack.consumer.ts) and sent by the worker (slack.worker.ts).
 *
 * @example
 * ```ts
 * const slack = createSlackService({ ...kernel, sealingKey, timeoutMs, attemptsPerRound, notifications, appUrl, maxAttempts });
 * await slack.save(auth, false, { url: 'https://hooks.slack.com/services/T/B/x', alerts: ['lead_captured'] }, actor);
 * ```
 */
export function createSlackService(deps: SlackDeps) {
  const settings = createSlackSettings(deps);
  const { db } = deps.database;

  /** The names a test message shows: the workspace's, and who set it up. */
  async function context(auth: AuthContext) {
    const [workspace] = await repo.workspaceNames(db, [auth.workspaceId]);
    const who = await repo.memberLabel(db, auth.memberId);
    return { workspace: workspace?.name ?? '', who: who ?? '' };
  }

  return {
    get: (auth: AuthContext, member: boolean) => settings.find({ auth, member }),
    save: async (auth: AuthContext, member: boolean, input: SlackInput, actor: Actor) =>
      settings.save({ auth, member }, input, await context(auth), actor),
    remove: (auth: AuthContext, member: boolean, actor: Actor) => settings.remove({ auth, member }, actor),
    test: async (auth: AuthContext, member: boolean) => settings.test({ auth, member }, await context(auth)),
    messages: (auth: AuthContext, member: boolean, status: SlackMessageStatus | undefined, range: { limit: number; offset: number }) =>
      settings.messages({ auth, member }, status, range),
    resend: async (auth: AuthContext, member: boolean, id: string) => {
      const row = await settings.resend({ auth, member }, id);
      await wakeDeliveryWorkers(db, 'slack');
      return row;
    },
    queueDigests: (day?: string) => queueSlackDigests(deps, day),
  };
}

/** `services.slack.slack`. */
export type SlackService = ReturnType<typeof createSlackService>;
