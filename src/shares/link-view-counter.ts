// The links' view counters (view_count, last_viewed_at), as the viewing domain's ingestion adds to them.
import type { Executor } from '../db/client';
import * as repo from './shares.repo';

/** New views of one link in a batch, and when the last of them started. */
export interface LinkViews {
  shareId: string;
  views: number;
  lastViewedAt: Date;
}

/**
 * Port: adds new views to their links' counters, in the caller's transaction (the ingestion's batch).
 * The shares module hands it out as `linkViewCounter`; `countLinkViews` below is the code.
 *
 * @example
 * const deps: { countLinkViews: LinkViewCounter } = { countLinkViews: shares.linkViewCounter };
 */
export type LinkViewCounter = typeof countLinkViews;

/**
 * Adds new views to their links' counters, in the caller's transaction, one link at a time in id order
 * (the lock order of every batch).
 *
 * @example
 * await countLinkViews(tx, [{ shareId: 'shr_…', views: 2, lastViewedAt: now }]);
 */
export function countLinkViews(tx: Executor, rows: LinkViews[]): Promise<void> {
  return repo.addShareViews(tx, rows);
}
