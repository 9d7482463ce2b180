// `demoshare assets move`: existing assets' bytes from their rows to a blob store or back, one row at a time, resumable, counts compared.
import { blobKeyOfDigest, type BlobStore, digestOfBlobKey } from '../core/blob-store/blob-store';
import { sha256Hex } from '../core/crypto';
import type { Executor } from '../db/client';
import * as repo from './asset-moves.repo';

export type { AssetCounts, PlaceCount } from './asset-moves.repo';

/** A refusal of the move, worded for the operator; nothing was moved. */
export class AssetMoveError extends Error {}

export interface MoveAssetsOptions {
  db: Executor;
  /** Where the bytes go: into their rows, or into this store. */
  to: 'database' | BlobStore;
  /**
   * The store the blobs that rows name now are in. Needed to move them to the database; when moving to a
   * store, a different one here refuses the move if any row names a blob (one store per instance).
   */
  from?: BlobStore;
  /** Rows read from the database per query. */
  batchSize: number;
  /** Stop after this many rows moved (a later run carries on). */
  limit?: number;
  /** Count only. */
  dryRun?: boolean;
  /** Rows moved at once (reads and writes to the store overlap). */
  concurrency?: number;
  log?: (line: string) => void;
}

/** A row left where it was because its bytes could not be trusted. */
export interface MoveFailure {
  id: string;
  blobKey: string;
  problem: 'missing' | 'damaged';
}

export interface MoveReport {
  /** The rows counted and moved are those created up to this moment (the database's clock). */
  until: Date;
  before: repo.AssetCounts;
  after: repo.AssetCounts;
  /**
   * What `after` must be: `before` with every row the run listed taken from the source, and those not deleted
   * meanwhile added to the target. A row left in place (its bytes missing or damaged) makes `after` differ.
   */
  expected: repo.AssetCounts;
  moved: repo.PlaceCount;
  /** Rows deleted (or moved by another run) between being listed and being switched. */
  vanished: repo.PlaceCount;
  failures: MoveFailure[];
  /** Assets created after `until` whose bytes are still in the source (a process still writing there). */
  newer: repo.PlaceCount;
  /** True when `limit` stopped the run with rows left to move. */
  stoppedEarly: boolean;
  /** `after` is what `expected` says (so nothing was left in place). */
  ok: boolean;
}

const add = (a: repo.PlaceCount, b: repo.PlaceCount): repo.PlaceCount => ({ assets: a.assets + b.assets, bytes: a.bytes + b.bytes });
const minus = (a: repo.PlaceCount, b: repo.PlaceCount): repo.PlaceCount => ({ assets: a.assets - b.assets, bytes: a.bytes - b.bytes });
const same = (a: repo.PlaceCount, b: repo.PlaceCount) => a.assets === b.assets && a.bytes === b.bytes;

/**
 * Moves asset rows' bytes from where they are to `to`, a batch of rows at a time, in id order. For each row:
 * its bytes are read (from the row, or from the source store) and checked against the row's SHA-256, then
 * written to the target (a store's put resolves once they are durable), and only then is the row switched,
 * in one conditional UPDATE: the row names exactly one of the two at every moment, and a row deleted or
 * moved meanwhile is left alone. A row whose bytes are missing or do not match stays where it is and is
 * reported. Killed half-way, a new run finds the rows still in the source and carries on; a run with nothing
 * left moves nothing. Blobs left in a source store are not deleted here (the collector's job).
 *
 * @example
 * ```ts
 * import { moveAssets } from './move-assets';
 * import type { BlobStore } from '../core/blob-store/blob-store';
 * import type { Executor } from '../db/client';
 *
 * declare const db: Executor, store: BlobStore;
 * const report = await moveAssets({ db, to: store, batchSize: 100 });
 * report.ok; // true: every row created before the run is in the store, counts compared
 * ```
 */
export async function moveAssets(options: MoveAssetsOptions): Promise<MoveReport> {
  const { db, to, from } = options;
  const target = to === 'database' ? 'database' : 'blobs';
  const source = to === 'database' ? 'blobs' : 'database';
  const log = options.log ?? (() => {});
  const until = await repo.databaseNow(db);
  const before = await repo.countAssets(db, { until });

  if (to === 'database' && !from && before.blobs.assets > 0) {
    throw new AssetMoveError(
      `${before.blobs.assets} assets are in a blob store, and no store to read them from was given: name it (--from filesystem|s3).`,
    );
  }
  if (to !== 'database' && from && from.kind !== to.kind && before.blobs.assets > 0) {
    throw new AssetMoveError(
      `${before.blobs.assets} assets are in the ${from.kind} store: an instance keeps its blobs in one store. Move them to the ` +
        `database first (--to database --from ${from.kind}), then run --to ${to.kind}. Nothing was moved.`,
    );
  }

  const zero = { assets: 0, bytes: 0 };
  let moved = { ...zero };
  let vanished = { ...zero };
  let failed = { ...zero };
  const failures: MoveFailure[] = [];
  let stoppedEarly = false;

  if (!options.dryRun) {
    let afterId: string | null = null;
    const total = before[source].assets;
    for (;;) {
      const room = options.limit === undefined ? options.batchSize : Math.min(options.batchSize, options.limit - moved.assets);
      if (room <= 0) {
        stoppedEarly = (await repo.candidates(db, source, { afterId, until, limit: 1 })).length > 0;
        break;
      }
      const batch = await repo.candidates(db, source, { afterId, until, limit: room });
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1]!.id;
      const outcomes = await inParallel(batch, options.concurrency ?? 4, (row) => moveOne(db, to, from, row));
      batch.forEach((row, i) => {
        const outcome = outcomes[i]!;
        const counted = { assets: 1, bytes: row.size };
        if (outcome === 'moved') moved = add(moved, counted);
        else if (outcome === 'vanished') vanished = add(vanished, counted);
        else {
          failed = add(failed, counted);
          failures.push({ id: row.id, blobKey: row.blobKey ?? blobKeyOfDigest(row.sha256), problem: outcome });
        }
      });
      log(`  moved ${moved.assets} of ${total} assets (${byteSize(moved.bytes)})${failures.length > 0 ? `, ${failures.length} left in place` : ''}`);
    }
  }

  const after = await repo.countAssets(db, { until });
  // What a run that moved every row it listed leaves: a row left in place (missing or damaged) shows as a mismatch.
  const expected = {
    [source]: minus(minus(minus(before[source], moved), vanished), failed),
    [target]: add(add(before[target], moved), failed),
  } as unknown as repo.AssetCounts;
  const newer = (await repo.countAssets(db, { since: until }))[source];
  const ok = failures.length === 0 && same(after.database, expected.database) && same(after.blobs, expected.blobs);
  return { until, before, after, expected, moved, vanished, failures, newer, stoppedEarly, ok };
}

type Outcome = 'moved' | 'vanished' | MoveFailure['problem'];

async function moveOne(db: Executor, to: 'database' | BlobStore, from: BlobStore | undefined, row: repo.MoveCandidate): Promise<Outcome> {
  if (to === 'database') {
    const key = row.blobKey!;
    const bytes = await from!.get(key);
    if (!bytes) return (await stillNames(db, row)) ? 'missing' : 'vanished';
    // The row's digest, not only the key's: a key that names other bytes than the row recorded is damage too.
    if (sha256Hex(bytes) !== row.sha256 || digestOfBlobKey(key) !== row.sha256) return 'damaged';
    return (await repo.switchToBytes(db, row.id, key, bytes)) ? 'moved' : 'vanished';
  }
  const bytes = await repo.rowBytes(db, row.id);
  if (!bytes) return 'vanished';
  if (sha256Hex(bytes) !== row.sha256) return 'damaged';
  const key = blobKeyOfDigest(row.sha256);
  // Durable before the row names it; a put of bytes already there renews them (the collector spares them).
  await to.put(key, bytes, row.contentType);
  return (await repo.switchToBlob(db, row.id, row.sha256, key)) ? 'moved' : 'vanished';
}

/** A blob not found: lost, unless its row was deleted (with its demo) or moved meanwhile. */
async function stillNames(db: Executor, row: repo.MoveCandidate): Promise<boolean> {
  return (await repo.blobKeyOf(db, row.id)) === row.blobKey;
}

async function inParallel<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let stop = false;
  const worker = async () => {
    while (next < items.length && !stop) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
      } catch (error) {
        stop = true;
        throw error;
      }
    }
  };
  // Every worker is waited for, even after one failed: no row is being switched once this returns.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(width, items.length) }, worker));
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure) throw failure.reason;
  return out;
}

/** Sizes as the command prints them. */
export function byteSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
