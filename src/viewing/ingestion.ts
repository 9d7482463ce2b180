// Viewer events into storage: requests queue up, and each batch of them is one transaction (ingestion.batch.ts).
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { LinkViewCounter } from '../shares/link-view-counter';
import { Batcher } from '../core/batcher';
import { runBatch } from './ingestion.batch';
import type { IngestEvent } from './view-progress';
import type { ViewerSessionRow } from './viewer.repo';
import type { WarningLog } from '../core/log';

/** One request's events: its session, its link, and the demo version and step count it plays. */
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

export interface IngestionDeps {
  database: Pick<Database, 'db' | 'kind'>;
  clock: Clock;
  log: WarningLog;
  /** Adds new views to their links' counters, in the batch's transaction (the shares domain's rows). */
  countLinkViews: LinkViewCounter;
}

/**
 * Port: stores one request's events, answering once their transaction has committed. The ingestion's
 * `ingest` below is the code; the viewer's event intake (viewer-content.service.ts) takes it.
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
 * Viewer events → views, step rows, daily rollups, link counters and outbox events. Concurrent requests
 * are batched: one transaction per batch (ingestion.batch.ts), a request acknowledged only once it has
 * committed. A batch that fails is retried item by item, so one bad request never fails its neighbours.
 *
 * @example
 * const ingestion = createIngestion({ ...kernel, countLinkViews });
 * const { accepted, duplicates } = await ingestion.ingest({ session, shareId, stepCount, version, events });
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
  return {
    ingest,
    /** Items queued or in flight: a graceful shutdown waits until every acknowledged write is done. */
    get pending() {
      return batcher.pending;
    },
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;
