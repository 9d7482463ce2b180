import { normaliseEmail } from '../accounts/accounts.service';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import { VIEWER_QUEUE } from '../notifications/viewer-notices';
import { LEAD_QUEUE } from '../notifications/lead-notices';
import { HUB_QUEUE } from '../notifications/hub-notices';
import * as erasure from './erasure.repo';
import * as rollups from './rollups.repo';

export interface ViewerPrivacyDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  queue: Pick<JobQueue, 'deleteJobs'>;
}

/** What one erasure removed or blanked, as the API answers it and the audit entry records it. */
export interface ErasureCounts {
  views: number;
  step_times: number;
  viewer_sessions: number;
  dedup_ids: number;
  access_log_entries: number;
  webhook_events: number;
  webhook_deliveries: number;
  webhook_deliveries_cancelled: number;
  webhook_response_excerpts: number;
  notification_records: number;
  crm_sync_items: number;
  leads: number;
  demos_recomputed: number;
  days_recomputed: number;
  shares_recounted: number;
}

/**
 * A delivery body with the viewer blanked as the outbox event is (repo.redactEvents, repo.redactLeadEvents:
 * a lead's e-mail, name and every answer), and any other mention of the address replaced: the body is JSON
 * the server wrote, but a name field could hold it too.
 */
export function redactBody(body: string, email: string): string {
  let out = body;
  try {
    const parsed = JSON.parse(body) as { event?: string; data?: Record<string, unknown> };
    const data = parsed.data;
    if (data && typeof data.viewer_email === 'string' && normaliseEmail(data.viewer_email) === email) {
      data.viewer_email = null;
      if ('viewer_name' in data) data.viewer_name = null;
      // A hub's lead-form answers (docs/hubs.md).
      if (parsed.event === 'viewer.identified' && 'values' in data) data.values = {};
      out = JSON.stringify(parsed);
    } else if (parsed.event === 'lead.captured' && data && typeof data.email === 'string' && normaliseEmail(data.email) === email) {
      // The answers name the person as much as the address does (a name, a phone, a company).
      Object.assign(data, { email: null, name: null, values: {} });
      out = JSON.stringify(parsed);
    }
  } catch {
    // Not JSON (never written so by the server): the replacement below still applies.
  }
  return out.replace(new RegExp(addressPattern(email), 'gi'), 'erased');
}

/**
 * `email` as a regular expression (JavaScript's and PostgreSQL's alike) that matches it as a whole address:
 * erasing ana@example.com leaves hana@example.com be.
 */
export function addressPattern(email: string): string {
  const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `(?<![A-Za-z0-9._%+-])${escaped}(?![A-Za-z0-9-]|\\.[A-Za-z0-9])`;
}

/**
 * Runs `work` again after a deadlock: an ingestion batch of the erased viewer's own session can hold its view
 * while it waits for the roll-ups this transaction locked, and PostgreSQL then aborts one of the two.
 */
async function withDeadlockRetry<T>(work: () => Promise<T>, tries = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      const e = error as { code?: string; cause?: { code?: string } };
      const code = e.code ?? e.cause?.code;
      if (i >= tries || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}

/**
 * Erasing a viewer (docs/sharing.md, Viewer privacy): everything recorded about one e-mail address in one
 * workspace goes, or loses the address, in one transaction, and the analytics are rebuilt from the views that
 * remain so that every figure still adds up.
 */
export function createViewerPrivacyService(deps: ViewerPrivacyDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  async function erase(auth: AuthContext, rawEmail: string, actor: Actor): Promise<ErasureCounts> {
    const email = normaliseEmail(rawEmail);
    const now = clock.now();
    const { counts, sessionIds } = await withDeadlockRetry(() => db.transaction(async (tx) => {
      // First, so that no ingestion batch writes a roll-up of these demos between the delete and the rebuild.
      await rollups.lockRollups(tx);
      const sessions = await erasure.findSessions(tx, auth.workspaceId, email);
      const removed = await erasure.deleteViews(
        tx,
        auth.workspaceId,
        email,
        sessions.map((s) => s.id),
        sessions.flatMap((s) => (s.anonymousId ? [s.anonymousId] : [])),
      );
      // The sessions of the views too: one that never identified but whose view was tied to the address.
      const sessionIds = [...new Set([...sessions.map((s) => s.id), ...removed.views.flatMap((v) => (v.sessionId ? [v.sessionId] : []))])];
      const leadsErased = await erasure.deleteLeads(tx, auth.workspaceId, email, sessionIds);
      const gone = await erasure.deleteSessions(tx, sessionIds);
      const accessLog = await erasure.deleteAccessLog(tx, auth.workspaceId, email);

      const pairs = new Map<string, rollups.DemoDay>();
      for (const v of removed.views) pairs.set(`${v.demoId}|${v.day}`, { demoId: v.demoId, day: v.day });
      await rollups.rebuildDemoDays(tx, auth.workspaceId, [...pairs.values()], {
        email,
        anonymousIds: [...new Set([...sessions.flatMap((s) => (s.anonymousId ? [s.anonymousId] : [])), ...removed.views.flatMap((v) => (v.anonymousId ? [v.anonymousId] : []))])],
      });
      await rollups.subtractPathMarks(tx, removed.views);
      const shareIds = [...new Set(removed.views.flatMap((v) => (v.shareId ? [v.shareId] : [])))];
      const sharesRecounted = await rollups.recountShares(tx, shareIds);

      const events = (await erasure.redactEvents(tx, auth.workspaceId, email)) + (await erasure.redactLeadEvents(tx, auth.workspaceId, email));
      const deliveries = await erasure.findDeliveries(tx, auth.workspaceId, email);
      const redacted = await erasure.redactDeliveries(
        tx,
        deliveries.flatMap((d) => {
          // Found by a substring search: another address that contains this one stays as it is.
          const body = redactBody(d.body, email);
          return body === d.body ? [] : [{ id: d.id, body }];
        }),
        now,
      );
      const excerpts = await erasure.redactAttemptExcerpts(tx, auth.workspaceId, addressPattern(email));
      const notices =
        (await erasure.deleteNotificationRecords(tx, auth.workspaceId, email)) +
        (await erasure.deleteSlackMessages(tx, auth.workspaceId, email)) +
        (await deps.queue.deleteJobs(tx, VIEWER_QUEUE, { workspaceId: auth.workspaceId, email })) +
        (await deps.queue.deleteJobs(tx, LEAD_QUEUE, { workspaceId: auth.workspaceId, email })) +
        (await deps.queue.deleteJobs(tx, HUB_QUEUE, { workspaceId: auth.workspaceId, email }));

      const counts: ErasureCounts = {
        views: removed.views.length,
        step_times: removed.stepRows,
        viewer_sessions: gone.sessions + (await erasure.deleteHubSessions(tx, auth.workspaceId, email)),
        dedup_ids: gone.eventIds,
        access_log_entries: accessLog,
        webhook_events: events,
        webhook_deliveries: redacted.redacted,
        webhook_deliveries_cancelled: redacted.cancelled,
        webhook_response_excerpts: excerpts,
        notification_records: notices,
        crm_sync_items: await erasure.deleteCrmSyncItems(tx, auth.workspaceId, email),
        leads: leadsErased,
        demos_recomputed: new Set(removed.views.map((v) => v.demoId)).size,
        days_recomputed: pairs.size,
        shares_recounted: sharesRecounted,
      };
      // The counts and nothing that names the person: the log outlives the erasure.
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'data.erased',
        target: { type: 'viewer', id: null, label: null },
        changes: { ...counts },
      });
      return { counts, sessionIds };
    }));
    // A viewer page open on one of these sessions loses it at once, in every process.
    for (const id of sessionIds) await deps.changes.announce(tags.session(id));
    return counts;
  }

  return { erase };
}

export type ViewerPrivacyService = ReturnType<typeof createViewerPrivacyService>;
