// Viewer events into storage: a request's events pass the link's gates and the step-number rule, queue up,
// and each batch of requests is one transaction (claim the event ids, open views, apply the progress, then
// write views, steps, roll-ups, outbox events and link counters).
import type { Clock } from '../core/clock';
import { invalid } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { emitEvents, type NewEvent } from '../events/outbox';
import type { LinkViewCounter, LinkViews } from '../shares/link-view-counter';
import { Batcher } from '../core/batcher';
import * as repo from './ingest.repo';
import { applyEvents, dayOf, type IngestEvent, RollupDeltas } from './view-progress';
import type { ViewerSessionRow } from './viewer.repo';
import type { WarningLog } from '../core/log';
import { gateError, type ResolveDeps, requireReady, type Visitor } from './viewer-gates.resolve';

/** One request's events: its session, its link, and the demo version and step count it plays. */
export interface IngestItem {
  session: ViewerSessionRow;
  shareId: string;
  stepCount: number;
  /** The published version the viewer plays: a new view records it. */
  version: number | null;
  /** The demo the viewer plays (an A/B test arm's, or the link's); absent: the session's. */
  demoId?: string;
  /** The A/B test arm served, recorded on a new view. */
  armId?: string | null;
  events: IngestEvent[];
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
}

/** What the ingestion reads and writes: the link's gates (`requireReady`), the database, and the links' counters. */
export interface IngestionDeps extends ResolveDeps {
  database: Pick<Database, 'db' | 'kind'>;
  clock: Clock;
  log: WarningLog;
  /** Adds new views to their links' counters, in the batch's transaction (the shares domain's rows). */
  countLinkViews: LinkViewCounter;
}

/**
 * Port: stores one request's events, answering once their transaction has committed. The ingestion's
 * `ingest` below is the code.
 *
 * @example
 * const record: RecordEvents = ingestion.ingest;
 * const { accepted } = await record({ session, shareId, stepCount, version, events });
 */
export type RecordEvents = (item: IngestItem) => Promise<IngestResult>;

/** Deadlocks and serialisation failures are worth one more try; anything else is not. */
const retryable = (error: unknown) => {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '40P01' || code === '40001';
};

/**
 * Viewer events → views, step rows, daily rollups, link counters and outbox events. `record` is the intake
 * of POST /v1/viewer/:token/events: the link's gates, a viewer session, the step-number rule. Concurrent
 * requests are batched: one transaction per batch (`runBatch`), a request acknowledged only once it has
 * committed. A batch that fails is retried item by item, so one bad request never fails its neighbours.
 *
 * @example
 * const ingestion = createIngestion({ ...kernel, cache, countLinkViews });
 * const { accepted, duplicates } = await ingestion.record(token, sessionToken, visitor, events);
 * await ingestion.ingest({ session, shareId, stepCount, version, events }); // past the gates (seeding)
 */
export function createIngestion(deps: IngestionDeps) {
  async function flush(items: IngestItem[]): Promise<Array<IngestResult | Error>> {
    try {
      return await runBatch(deps, items);
    } catch (error) {
      if (items.length > 1) {
        // One bad item must not fail its neighbours: each gets its own transaction and its own answer.
        const out: Array<IngestResult | Error> = [];
        for (const item of items) out.push(...(await flush([item])));
        return out;
      }
      if (retryable(error)) {
        try {
          return await runBatch(deps, items);
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

  const ingest: RecordEvents = (item) => batcher.submit(item);

  /** POST /v1/viewer/:token/events: past the link's gates, in a viewer session, steps of the version played. */
  async function record(token: string, sessionToken: string | undefined, visitor: Visitor, events: IngestEvent[]) {
    const { link, session } = await requireReady(deps, token, sessionToken, visitor);
    if (!session) throw gateError('session', 'unauthorized', 'No viewer session: call GET /v1/viewer/:token first');
    const { stepCount } = link;
    const problems = events.flatMap((e, i) => [
      ...(e.stepNumber !== undefined && e.stepNumber > stepCount
        ? [{ field: `events.${i}.step_number`, message: `must be between 1 and ${stepCount}` }]
        : []),
      ...(e.targetStep !== undefined && e.targetStep > stepCount
        ? [{ field: `events.${i}.target_step`, message: `must be between 1 and ${stepCount}` }]
        : []),
    ]);
    if (problems.length > 0) throw invalid('Some events name a step this demo does not have', problems);
    // Under an A/B test `link` is the viewer's arm: its demo, version and step count (link-arms.ts).
    return ingest({ session, shareId: link.share.id, stepCount, version: link.version, events, demoId: link.share.demoId, armId: link.arm?.id ?? null });
  }

  return {
    ingest,
    record,
    /** Items queued or in flight: a graceful shutdown waits until every acknowledged write is done. */
    get pending() {
      return batcher.pending;
    },
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;

/** A session's fresh events of the batch, in arrival order, and the requests that carried them. */
type Fresh = Map<string, { items: IngestItem[]; events: IngestEvent[] }>;

/**
 * Viewer events → views, step rows, daily rollups, link counters and outbox events, in one transaction and
 * two statements whatever the batch holds (ingest.repo.ts), plus the outbox and the link counters when
 * views start or complete. Each request's answer counts its accepted events and its duplicates.
 */
async function runBatch(deps: IngestionDeps, items: IngestItem[]): Promise<IngestResult[]> {
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
      demoId: item.demoId ?? session.demoId,
      shareId: item.shareId,
      version: item.version,
      sessionId: session.id,
      viewerEmail: session.viewerEmail,
      viewerName: session.viewerName,
      anonymousId: session.anonymousId,
      referrer: null,
      userAgent: session.userAgent,
      internal: session.internal,
      armId: item.armId ?? null,
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
    for (const [stepNumber, r] of progress.stepRows) stepRows.push({ viewId: row.id, viewStartedAt: row.startedAt, stepNumber, ...r });
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
