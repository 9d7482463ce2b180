// One batch of viewer events in one transaction: claim the event ids, open views, apply the progress,
// then write views, steps, roll-ups, outbox events and link counters.
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { emitEvents, type NewEvent } from '../events/outbox';
import type { LinkViews } from '../shares/link-view-counter';
import * as repo from './ingest.repo';
import type { IngestionDeps, IngestItem, IngestResult } from './ingestion';
import { applyEvents, dayOf, type IngestEvent, RollupDeltas } from './view-progress';

/** A session's fresh events of the batch, in arrival order, and the requests that carried them. */
type Fresh = Map<string, { items: IngestItem[]; events: IngestEvent[] }>;

/**
 * Viewer events → views, step rows, daily rollups, link counters and outbox events, in one transaction and
 * two statements whatever the batch holds (ingest.repo.ts), plus the outbox and the link counters when
 * views start or complete. Each request's answer counts its accepted events and its duplicates.
 */
export async function runBatch(deps: IngestionDeps, items: IngestItem[]): Promise<IngestResult[]> {
  return deps.database.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const { claims, fresh, views } = await claimEvents(tx, items, now);
    const { results, bySession } = freshEvents(items, claims, fresh);
    if (bySession.size === 0) return results;
    const progress = applyProgress(views, bySession, now);
    await repo.writeProgress(tx, { stepRows: progress.stepRows, views: progress.updates, ...progress.deltas.sorted() });
    await repo.addDailyViewers(tx, progress.viewers);
    await emitEvents(tx, deps.clock, progress.outbox);
    await deps.countLinkViews(tx, [...progress.shareViews.values()]);
    return results;
  });
}

/**
 * Claims every event id of the batch (an id counts once per session: the first request of the batch to
 * carry it claims it), and opens a view for every session that has new events and no view yet.
 */
async function claimEvents(tx: Executor, items: IngestItem[], now: Date) {
  const claims = new Map<string, number>();
  items.forEach((item, index) => {
    for (const event of item.events) {
      const key = `${item.session.id}|${event.id.toLowerCase()}`;
      if (!claims.has(key)) claims.set(key, index);
    }
  });
  // A view for every session of the batch, should it turn out to have new events and no view yet.
  const candidates = new Map<string, repo.ViewCandidate>();
  for (const item of items) {
    const { session } = item;
    const candidate = candidates.get(session.id) ?? {
      id: newId('view', now.getTime()),
      workspaceId: session.workspaceId,
      demoId: session.demoId,
      shareId: item.shareId,
      version: item.version,
      sessionId: session.id,
      viewerEmail: session.viewerEmail,
      viewerName: session.viewerName,
      anonymousId: session.anonymousId,
      referrer: null,
      userAgent: session.userAgent,
      internal: session.internal,
    };
    candidate.referrer ??= item.events.find((e) => e.referrer)?.referrer ?? null;
    candidates.set(session.id, candidate);
  }
  for (const candidate of candidates.values()) {
    candidate.referrer ??= items.find((i) => i.session.id === candidate.sessionId)!.session.referrer;
  }
  const { fresh, views } = await repo.claimAndOpenViews(
    tx,
    [...claims.keys()].map((key) => {
      const [sessionId, eventId] = key.split('|') as [string, string];
      return { sessionId, eventId };
    }),
    [...candidates.values()],
    now,
  );
  return { claims, fresh, views };
}

/** Per session, its fresh events in arrival order (a viewer may have two requests in one batch); per request, its answer. */
function freshEvents(items: IngestItem[], claims: Map<string, number>, fresh: ReadonlySet<string>) {
  const results: IngestResult[] = items.map((item) => ({ accepted: 0, duplicates: item.events.length }));
  const bySession: Fresh = new Map();
  items.forEach((item, index) => {
    const seen = new Set<string>();
    for (const event of item.events) {
      const id = event.id.toLowerCase();
      const key = `${item.session.id}|${id}`;
      if (seen.has(id) || claims.get(key) !== index || !fresh.has(key)) continue;
      seen.add(id);
      results[index]!.accepted++;
      results[index]!.duplicates--;
      let group = bySession.get(item.session.id);
      if (!group) {
        group = { items: [], events: [] };
        bySession.set(item.session.id, group);
      }
      if (!group.items.includes(item)) group.items.push(item);
      group.events.push({ ...event, id });
    }
  });
  return { results, bySession };
}

/** Each view's progress, and what it adds: step rows, roll-up deltas, daily viewers, outbox events, link counters. */
function applyProgress(views: repo.OpenView[], bySession: Fresh, now: Date) {
  const deltas = new RollupDeltas();
  const shareViews = new Map<string, LinkViews>();
  const stepRows: repo.Progress['stepRows'] = [];
  const updates: repo.ViewUpdate[] = [];
  const outbox: NewEvent[] = [];
  const viewers: repo.DailyViewer[] = [];
  for (const row of views) {
    const group = bySession.get(row.sessionId)!;
    const { session, shareId, stepCount } = group.items[0]!;
    const progress = applyEvents(row, row.created, group.events, stepCount, now, deltas);
    const viewerEmail = row.viewerEmail ?? session.viewerEmail;
    const viewerName = row.viewerName ?? session.viewerName;
    // The viewer may have identified after the view began.
    updates.push({ ...progress.view, lastActivityAt: now, viewerEmail, viewerName });
    for (const [stepNumber, r] of progress.stepRows) stepRows.push({ viewId: row.id, stepNumber, ...r });
    if (row.created) {
      const viewerKey = viewerEmail ?? session.anonymousId;
      if (viewerKey) {
        viewers.push({
          workspaceId: session.workspaceId,
          demoId: row.demoId,
          day: dayOf(row.startedAt),
          version: row.version,
          internal: row.internal,
          shareId: row.shareId,
          viewerKey,
        });
      }
      const counter = shareViews.get(shareId) ?? { shareId, views: 0, lastViewedAt: now };
      counter.views++;
      shareViews.set(shareId, counter);
      outbox.push({
        workspaceId: row.workspaceId,
        kind: 'demo.viewed',
        data: {
          demo_id: row.demoId,
          view_id: row.id,
          share_id: shareId,
          viewer_email: row.viewerEmail,
          viewer_name: row.viewerName,
          started_at: row.startedAt.toISOString(),
        },
      });
    }
    if (progress.justCompleted) {
      outbox.push({
        workspaceId: row.workspaceId,
        kind: 'demo.completed',
        data: {
          demo_id: row.demoId,
          view_id: row.id,
          share_id: shareId,
          viewer_email: viewerEmail,
          completion_time: Math.round((now.getTime() - row.startedAt.getTime()) / 10) / 100,
        },
      });
    }
  }
  return { deltas, shareViews, stepRows, updates, outbox, viewers };
}
