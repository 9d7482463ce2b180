import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { emitEvents, type NewEvent } from '../events/outbox';
import { Batcher } from './batcher';
import * as repo from './ingest.repo';
import type { ViewerSessionRow } from './viewer.repo';
import { applyEvents, dayOf, type IngestEvent, RollupDeltas } from './view-progress';

export interface IngestItem {
  session: ViewerSessionRow;
  shareId: string;
  stepCount: number;
  /** The published version the viewer plays: a new view records it. */
  version: number | null;
  events: IngestEvent[];
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
}

/** Deadlocks and serialisation failures are worth one more try; anything else is not. */
const retryable = (error: unknown) => {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '40P01' || code === '40001';
};

/**
 * Viewer events → views, step rows, daily rollups, link counters and outbox events, in one transaction per
 * batch of requests and two statements whatever the batch holds (ingest.repo.ts), plus the outbox and the
 * link counters when views start or complete. A request is acknowledged only once that transaction has
 * committed.
 */
export interface IngestionDeps {
  database: Pick<Database, 'db' | 'kind'>;
  clock: Clock;
  log: { warn(o: object, m: string): void };
  /** Adds new views to their links' counters, in the batch's transaction (the shares domain's rows). */
  countLinkViews(tx: Executor, rows: Array<{ shareId: string; views: number; lastViewedAt: Date }>): Promise<void>;
}

export function createIngestion(deps: IngestionDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  async function runBatch(items: IngestItem[]): Promise<IngestResult[]> {
    return db.transaction(async (tx) => {
      const now = clock.now();

      // An event id counts once per session: the first request of the batch to carry it claims it.
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
      const { fresh, views: viewRows } = await repo.claimAndOpenViews(
        tx,
        [...claims.keys()].map((key) => {
          const [sessionId, eventId] = key.split('|') as [string, string];
          return { sessionId, eventId };
        }),
        [...candidates.values()],
        now,
      );

      // Per session, its fresh events in arrival order (a viewer may have two requests in one batch).
      const results: IngestResult[] = items.map((item) => ({ accepted: 0, duplicates: item.events.length }));
      const bySession = new Map<string, { items: IngestItem[]; events: IngestEvent[] }>();
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
      if (bySession.size === 0) return results;

      const deltas = new RollupDeltas();
      const shareViews = new Map<string, { shareId: string; views: number; lastViewedAt: Date }>();
      const stepRows: repo.Progress['stepRows'] = [];
      const updates: repo.ViewUpdate[] = [];
      const outbox: NewEvent[] = [];
      const viewers: repo.DailyViewer[] = [];
      for (const row of viewRows) {
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

      const rollups = deltas.sorted();
      await repo.writeProgress(tx, { stepRows, views: updates, ...rollups });
      await repo.addDailyViewers(tx, viewers);
      await emitEvents(tx, clock, outbox);
      await deps.countLinkViews(tx, [...shareViews.values()]);
      return results;
    });
  }

  async function flush(items: IngestItem[]): Promise<Array<IngestResult | Error>> {
    try {
      return await runBatch(items);
    } catch (error) {
      if (items.length > 1) {
        // One bad item must not fail its neighbours: each gets its own transaction and its own answer.
        const out: Array<IngestResult | Error> = [];
        for (const item of items) out.push(...(await flush([item])));
        return out;
      }
      if (retryable(error)) {
        try {
          return await runBatch(items);
        } catch (again) {
          return [again instanceof Error ? again : new Error(String(again))];
        }
      }
      deps.log.warn({ err: error }, 'viewer events could not be stored');
      return [error instanceof Error ? error : new Error(String(error))];
    }
  }

  // PGlite runs one transaction at a time; PostgreSQL gets a few in flight so commits overlap.
  const batcher = new Batcher(flush, { maxBatch: 200, concurrency: deps.database.kind === 'pglite' ? 1 : 2 });

  return {
    ingest: (item: IngestItem) => batcher.submit(item),
    get pending() {
      return batcher.pending;
    },
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;
