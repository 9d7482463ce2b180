import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import { shares } from '../shares/shares.tables';
import type { ViewerSessionRow } from '../shares/viewer-cache';
import { Batcher } from './batcher';
import { demoDailyStats, demoStepDailyStats, ingestedEvents, viewSteps, views } from './views.tables';

export const EVENT_TYPES = ['view_started', 'step_reached', 'completed'] as const;

export interface IngestEvent {
  id: string;
  type: (typeof EVENT_TYPES)[number];
  stepNumber?: number;
  /** Already capped by the route. */
  seconds?: number;
  referrer?: string;
}

export interface IngestItem {
  session: ViewerSessionRow;
  shareId: string;
  stepCount: number;
  events: IngestEvent[];
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
}

interface Deltas {
  daily: Map<string, { demoId: string; day: string; views: number; completions: number; durationSeconds: number }>;
  steps: Map<
    string,
    { demoId: string; day: string; stepNumber: number; views: number; seconds: number; endedHere: number }
  >;
  shares: Map<string, { views: number; lastViewedAt: Date }>;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Deadlocks and serialisation failures are worth one more try; anything else is not. */
const retryable = (error: unknown) => {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '40P01' || code === '40001';
};

/**
 * Viewer events → views, step rows, daily aggregates and outbox events, all in one transaction per batch of
 * requests. A request is acknowledged only once that transaction has committed.
 */
export function createIngestion(deps: { database: Database; clock: Clock; log: { warn(o: object, m: string): void } }) {
  const { db } = deps.database;
  const { clock } = deps;

  function dailyDelta(d: Deltas, demoId: string, day: string) {
    const key = `${demoId}|${day}`;
    let entry = d.daily.get(key);
    if (!entry) {
      entry = { demoId, day, views: 0, completions: 0, durationSeconds: 0 };
      d.daily.set(key, entry);
    }
    return entry;
  }

  function stepDelta(d: Deltas, demoId: string, day: string, stepNumber: number) {
    const key = `${demoId}|${day}|${String(stepNumber).padStart(6, '0')}`;
    let entry = d.steps.get(key);
    if (!entry) {
      entry = { demoId, day, stepNumber, views: 0, seconds: 0, endedHere: 0 };
      d.steps.set(key, entry);
    }
    return entry;
  }

  async function processItem(tx: Executor, item: IngestItem, d: Deltas): Promise<IngestResult> {
    const { session } = item;
    const now = clock.now();
    const unique = new Map<string, IngestEvent>();
    for (const event of item.events) {
      const id = event.id.toLowerCase();
      if (!unique.has(id)) unique.set(id, { ...event, id });
    }
    const inserted = await tx
      .insert(ingestedEvents)
      .values([...unique.keys()].map((eventId) => ({ sessionId: session.id, eventId, at: now })))
      .onConflictDoNothing()
      .returning({ eventId: ingestedEvents.eventId });
    const fresh = new Set(inserted.map((r) => r.eventId));
    const events = [...unique.values()].filter((e) => fresh.has(e.id));
    const duplicates = item.events.length - events.length;
    if (events.length === 0) return { accepted: 0, duplicates };

    const [created] = await tx
      .insert(views)
      .values({
        id: newId('view', now.getTime()),
        workspaceId: session.workspaceId,
        demoId: session.demoId,
        shareId: item.shareId,
        sessionId: session.id,
        viewerEmail: session.viewerEmail,
        viewerName: session.viewerName,
        anonymousId: session.anonymousId,
        stepsViewed: [1],
        currentStep: 1,
        startedAt: now,
        lastActivityAt: now,
        referrer: events.find((e) => e.referrer)?.referrer ?? session.referrer,
        userAgent: session.userAgent,
      })
      .onConflictDoNothing({ target: views.sessionId })
      .returning();
    const [view] = created
      ? [created]
      : await tx.select().from(views).where(eq(views.sessionId, session.id)).for('update');
    if (!view) throw new Error('view vanished during ingestion');
    const day = dayOf(view.startedAt);
    const demoId = view.demoId;

    const reached = new Set(view.stepsViewed);
    let furthest = Math.max(0, ...view.stepsViewed);
    let current = view.currentStep;
    let completed = view.completed;
    let completedAt = view.completedAt;
    let duration = view.durationSeconds;
    const stepRows = new Map<number, { seconds: number; firstReachedAt: Date }>();
    const touch = (step: number) => {
      let row = stepRows.get(step);
      if (!row) {
        row = { seconds: 0, firstReachedAt: now };
        stepRows.set(step, row);
      }
      return row;
    };
    const daily = () => dailyDelta(d, demoId, day);

    if (created) {
      touch(1);
      daily().views++;
      stepDelta(d, demoId, day, 1).views++;
      stepDelta(d, demoId, day, 1).endedHere++;
      const share = d.shares.get(item.shareId) ?? { views: 0, lastViewedAt: now };
      share.views++;
      d.shares.set(item.shareId, share);
      await emitEvent(tx, clock, {
        workspaceId: view.workspaceId,
        kind: 'demo.viewed',
        data: {
          demo_id: demoId,
          view_id: view.id,
          share_id: item.shareId,
          viewer_email: view.viewerEmail,
          viewer_name: view.viewerName,
          started_at: view.startedAt.toISOString(),
        },
      });
    }
    const share = d.shares.get(item.shareId) ?? { views: 0, lastViewedAt: now };
    share.lastViewedAt = now;
    d.shares.set(item.shareId, share);

    const credit = (seconds: number | undefined) => {
      if (!seconds || seconds <= 0) return;
      touch(current).seconds += seconds;
      duration += seconds;
      daily().durationSeconds += seconds;
      stepDelta(d, demoId, day, current).seconds += seconds;
    };
    const reach = (step: number) => {
      if (reached.has(step)) return;
      reached.add(step);
      touch(step);
      stepDelta(d, demoId, day, step).views++;
      // A view that has not completed "ends" at its furthest step: that is where it drops off.
      if (!completed && step > furthest) {
        if (furthest > 0) stepDelta(d, demoId, day, furthest).endedHere--;
        stepDelta(d, demoId, day, step).endedHere++;
      }
      furthest = Math.max(furthest, step);
    };

    let justCompleted = false;
    for (const event of events) {
      if (event.type === 'view_started') continue;
      credit(event.seconds);
      if (event.type === 'step_reached' && event.stepNumber !== undefined) {
        reach(event.stepNumber);
        current = event.stepNumber;
      } else if (event.type === 'completed' && !completed) {
        reach(item.stepCount);
        current = item.stepCount;
        stepDelta(d, demoId, day, furthest).endedHere--;
        completed = true;
        completedAt = now;
        justCompleted = true;
        daily().completions++;
      }
    }

    if (stepRows.size > 0) {
      await tx
        .insert(viewSteps)
        .values([...stepRows].map(([stepNumber, r]) => ({ viewId: view.id, stepNumber, ...r })))
        .onConflictDoUpdate({
          target: [viewSteps.viewId, viewSteps.stepNumber],
          set: { seconds: sql`${viewSteps.seconds} + excluded.seconds` },
        });
    }
    await tx
      .update(views)
      .set({
        stepsViewed: [...reached].sort((a, b) => a - b),
        currentStep: current,
        completed,
        completedAt,
        durationSeconds: duration,
        lastActivityAt: now,
        // The viewer may have identified after the view began.
        viewerEmail: view.viewerEmail ?? session.viewerEmail,
        viewerName: view.viewerName ?? session.viewerName,
      })
      .where(eq(views.id, view.id));
    if (justCompleted) {
      await emitEvent(tx, clock, {
        workspaceId: view.workspaceId,
        kind: 'demo.completed',
        data: {
          demo_id: demoId,
          view_id: view.id,
          share_id: item.shareId,
          viewer_email: view.viewerEmail ?? session.viewerEmail,
          completion_time: Math.round((now.getTime() - view.startedAt.getTime()) / 10) / 100,
        },
      });
    }
    return { accepted: events.length, duplicates };
  }

  /** Aggregates last and in key order, so that concurrent batches lock rows in the same order. */
  async function applyDeltas(tx: Executor, d: Deltas) {
    const daily = [...d.daily.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
    if (daily.length > 0) {
      await tx
        .insert(demoDailyStats)
        .values(daily)
        .onConflictDoUpdate({
          target: [demoDailyStats.demoId, demoDailyStats.day],
          set: {
            views: sql`${demoDailyStats.views} + excluded.views`,
            completions: sql`${demoDailyStats.completions} + excluded.completions`,
            durationSeconds: sql`${demoDailyStats.durationSeconds} + excluded.duration_seconds`,
          },
        });
    }
    const steps = [...d.steps.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
    if (steps.length > 0) {
      await tx
        .insert(demoStepDailyStats)
        .values(steps)
        .onConflictDoUpdate({
          target: [demoStepDailyStats.demoId, demoStepDailyStats.day, demoStepDailyStats.stepNumber],
          set: {
            views: sql`${demoStepDailyStats.views} + excluded.views`,
            seconds: sql`${demoStepDailyStats.seconds} + excluded.seconds`,
            endedHere: sql`${demoStepDailyStats.endedHere} + excluded.ended_here`,
          },
        });
    }
    for (const [shareId, delta] of [...d.shares.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await tx
        .update(shares)
        .set({
          viewCount: sql`${shares.viewCount} + ${delta.views}`,
          lastViewedAt: sql`greatest(${shares.lastViewedAt}, ${delta.lastViewedAt.toISOString()}::timestamptz)`,
        })
        .where(eq(shares.id, shareId));
    }
  }

  async function runBatch(items: IngestItem[]): Promise<IngestResult[]> {
    return db.transaction(async (tx) => {
      const deltas: Deltas = { daily: new Map(), steps: new Map(), shares: new Map() };
      const results: IngestResult[] = [];
      // Sessions in a fixed order: two batches never wait on each other's rows in opposite orders.
      const order = items.map((item, index) => ({ item, index })).sort((a, b) => (a.item.session.id < b.item.session.id ? -1 : 1));
      for (const { item, index } of order) results[index] = await processItem(tx, item, deltas);
      await applyDeltas(tx, deltas);
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
  const batcher = new Batcher(flush, { maxBatch: 200, concurrency: deps.database.kind === 'pglite' ? 1 : 4 });

  return {
    ingest: (item: IngestItem) => batcher.submit(item),
    get pending() {
      return batcher.pending;
    },
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;
