// The Slack daily digest: the notifications' figures of yesterday, one message per destination that asked for it.
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import { wakeDeliveryWorkers } from '../events/outbox';
import type { NotificationsService } from '../notifications/notifications.service';
import { digestMessage } from './slack-blocks';
import * as repo from './slack.repo';

/** The pg-boss queue of the daily run, scheduled at 07:05 UTC (after the e-mail digests' 07:00). */
export const SLACK_DIGEST_QUEUE = 'slack.digest';
const DAY_MS = 86_400_000;

export interface SlackDigestDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  notifications: Pick<NotificationsService, 'digest'>;
  appUrl: string;
  maxAttempts: number;
}

/**
 * Queues the digest of `day` (a UTC date, yesterday's by default) for every live destination that asked
 * for it, with the same figures as the e-mail digest (a member's `mine` counts their demos and hubs only):
 * the demos' views and the hubs' visits; none on a day with neither. A message is keyed `digest:<day>`,
 * so a retried run queues none twice. Returns how many it queued.
 *
 * @example
 * ```ts
 * await queueSlackDigests(deps, '2026-11-28');
 * ```
 */
export async function queueSlackDigests(deps: SlackDigestDeps, day = new Date(deps.clock.now().getTime() - DAY_MS).toISOString().slice(0, 10)) {
  const { db } = deps.database;
  let queued = 0;
  for (const { destination, workspace } of await repo.digestDestinations(db)) {
    const mine = destination.memberId && destination.scope === 'mine' ? destination.memberId : undefined;
    const facts = await deps.notifications.digest(destination.workspaceId, day, mine);
    if (!facts) continue;
    const payload = digestMessage({
      workspace,
      day,
      views: facts.views,
      hubs: facts.hubs.map((hub) => ({ ...hub, url: `${deps.appUrl}/hubs/${hub.id}#visitors` })),
      analyticsUrl: `${deps.appUrl}/analytics`,
      hubsUrl: `${deps.appUrl}/hubs`,
    });
    const now = deps.clock.now();
    await db.transaction(async (tx) => {
      const made = await repo.insertMessages(tx, [
        {
          id: newId('slackMessage'),
          destinationId: destination.id,
          workspaceId: destination.workspaceId,
          subject: `digest:${day}`,
          alert: 'daily_digest',
          summary: payload.text,
          body: JSON.stringify(payload),
          maxAttempts: deps.maxAttempts,
          nextAttemptAt: now,
          createdAt: now,
        },
      ]);
      if (made > 0) await wakeDeliveryWorkers(tx, 'slack');
      queued += made;
    });
  }
  return queued;
}
