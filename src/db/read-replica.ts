// Reads that may run on a streaming replica (DATABASE_READ_URL): which executor a read gets, the replica's
// measured lag, and the rule that keeps a workspace's reads on the primary until its own writes have arrived.
import type pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Bus } from '../core/bus';
import type { Changes, Tag } from '../core/changes';
import type { Clock } from '../core/clock';
import { isConnectionLoss } from '../core/connection-loss';
import type { Db } from './client';
import { createPgPool } from './pg-pool';

/** Where a read that may be a little behind goes; `reader()` is the primary unless the replica is fit. */
export interface ReadRouting {
  /**
   * The executor for a read of `workspaceId`'s data (analytics, list pages, a viewer payload built anew):
   * the replica when it is connected, its lag is within the bound, and it has replayed everything the
   * workspace wrote through this service and every change announced to `about` (the cache tags of what is
   * read: a viewer payload's link, demo and workspace); the primary otherwise. Without a replica, always the
   * primary. Take it once per request, so that one answer is read from one side.
   */
  reader(workspaceId: string | undefined, about?: readonly Tag[]): Db;
  /** Call after a write of `workspaceId` commits: its reads stay on the primary until the replica has it. */
  wrote(workspaceId: string): void;
  /** The replica's measured lag in ms (null: no replica, or not measured yet / unreachable). */
  lagMs(): number | null;
  /**
   * How many reads each side was given since start (for /metrics and the bench), and how many statements
   * the replica failed (down, or cancelled by a conflict with its replay) that the primary then answered.
   */
  served(): { primary: number; replica: number; fallbacks: number };
  close(): Promise<void>;
}

/** Primary-only: what a deployment without DATABASE_READ_URL, and the embedded database, use. */
export function primaryOnly(db: Db): ReadRouting {
  let primary = 0;
  return {
    reader: () => {
      primary++;
      return db;
    },
    wrote: () => {},
    lagMs: () => null,
    served: () => ({ primary, replica: 0, fallbacks: 0 }),
    close: async () => {},
  };
}

export interface ReplicaOptions {
  /** The primary's pool, for the WAL position it is at. */
  primary: Db;
  primaryPool: pg.Pool;
  replicaUrl: string;
  poolSize: number;
  /** A replica further behind than this serves nothing (DATABASE_READ_MAX_LAG). */
  maxLagMs: number;
  /** How often the lag is measured (DATABASE_READ_PROBE_INTERVAL). */
  probeIntervalMs: number;
  clock: Clock;
  /** Tells the other processes of a workspace's write, so their reads of it wait for the replica too. */
  bus: Bus;
  /** Announced changes (after their commit): a read `about` a changed tag waits for the replica too. */
  changes: Pick<Changes, 'subscribe'>;
  onError?(error: unknown): void;
}

const WROTE_CHANNEL = 'demoshare:reads:wrote';
/** Samples of the primary's WAL position kept to date what the replica has replayed. */
const SAMPLES = 120;
/** Marks kept before the old ones are swept. */
const MARKS = 10_000;
/** Who is who in the replica's pg_stat_activity: the service's reads, and its lag probe. */
export const READS_APPLICATION = 'demoshare-reads';
export const PROBE_APPLICATION = 'demoshare-replica-probe';

/**
 * Errors of the replica rather than of the statement: it is down or unreachable (connection-loss.ts), or it
 * cancelled the statement for a conflict with its replay (40001, 40P01). The primary can answer instead.
 */
function replicaFault(error: unknown): boolean {
  if (isConnectionLoss(error)) return true;
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code } = e as { code?: unknown };
    if (code === '40001' || code === '40P01') return true;
  }
  return false;
}

/** `0/16B3748` → a comparable bigint. */
function lsn(text: string): bigint {
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * Reads on a streaming replica, safely. How "safely" is decided, every `probeIntervalMs`:
 *
 * 1. The time is taken, then the primary's WAL insert position: every transaction that committed before
 *    that time ends at or before that position. The pair is kept as a sample.
 * 2. The replica's replay position is read. The newest sample at or below it dates the replica: everything
 *    committed on the primary before that sample's time is readable there (`replicatedUntil`).
 *
 * The lag is now − replicatedUntil, so it is an upper bound that includes up to one probe interval. A read
 * of workspace W goes to the replica only when the lag is within `maxLagMs` and W's last write through this
 * service (heard from any process over the bus) happened before replicatedUntil: a write followed by a read
 * of the same object reads the primary. A read `about` some cache tags also waits for the last change
 * announced to each (heard after its commit, so dated after it): that covers writes no member request made
 * (a job's), and a viewer payload rebuilt between a publish's commit and the end of its request. While the
 * replica or the bus is unreachable, everything reads the primary; a statement the replica fails for being
 * down or in conflict with its replay is answered by the primary, and the replica serves nothing more until
 * the next probe finds it well.
 */
export function replicaRouting(options: ReplicaOptions): ReadRouting {
  const connection = { connectionString: options.replicaUrl, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 2_000 };
  const pool = createPgPool({ ...connection, max: options.poolSize, application_name: READS_APPLICATION });
  // A connection of its own: the probe never waits behind reads, and reads are told apart from it.
  const probes = createPgPool({ ...connection, max: 1, application_name: PROBE_APPLICATION });
  const { clock, bus } = options;
  const samples: Array<{ at: number; lsn: bigint }> = [];
  // When each workspace last wrote (key: its id) and each tag last changed (key: the tag), by this clock.
  const marks = new Map<string, number>();
  let replicatedUntil: number | null = null;
  let served = { primary: 0, replica: 0, fallbacks: 0 };
  let closed = false;

  // Drizzle runs every statement through `query`: one the replica fails for its own reasons goes to the
  // primary, which is never behind, and the replica is set aside until a probe dates it again.
  const replicaQuery = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<unknown>;
  const primaryQuery = options.primaryPool.query.bind(options.primaryPool) as (config: unknown, values?: unknown) => Promise<unknown>;
  (pool as unknown as { query: typeof replicaQuery }).query = async (config, values) => {
    try {
      return await replicaQuery(config, values);
    } catch (error) {
      if (closed || !replicaFault(error)) throw error;
      replicatedUntil = null;
      served.fallbacks++;
      options.onError?.(error);
      return primaryQuery(config, values);
    }
  };
  const replica = drizzlePg({ client: pool }) as unknown as Db;

  const probe = async () => {
    try {
      const at = clock.now().getTime();
      const primary = await options.primaryPool.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
      samples.push({ at, lsn: lsn(primary.rows[0]!.lsn) });
      if (samples.length > SAMPLES) samples.shift();
      const replayed = await probes.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn');
      const position = replayed.rows[0]?.lsn;
      // Not a standby (or not replaying): nothing can be said of it, so nothing is read there.
      if (!position) {
        replicatedUntil = null;
        return;
      }
      const at_ = lsn(position);
      const dated = samples.filter((s) => s.lsn <= at_).at(-1);
      if (dated) replicatedUntil = Math.max(replicatedUntil ?? 0, dated.at);
    } catch (error) {
      replicatedUntil = null;
      options.onError?.(error);
    }
  };
  // Probes one after another, never two at once, until closed.
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    await probe();
    if (!closed) {
      timer = setTimeout(() => void loop(), options.probeIntervalMs);
      timer.unref();
    }
  };
  // The first probe runs in the background: until it has dated the replica, reads go to the primary.
  void loop();

  const mark = (key: string) => {
    const at = clock.now().getTime();
    // Kept in the order marked, oldest first: the sweep stops at the first recent one.
    marks.delete(key);
    marks.set(key, at);
    // An entry older than the bound decides nothing: within it, the replica is dated after it or unfit.
    if (marks.size > MARKS) {
      const old = at - options.maxLagMs;
      for (const [key_, when] of marks) {
        if (when >= old) break;
        marks.delete(key_);
      }
    }
  };
  // Dated on arrival by this process's clock, not the sender's: the write committed before it was sent, so
  // the arrival time is later still, and no two machines' clocks are compared. So are announced changes.
  const unsubscribe = bus.subscribe(WROTE_CHANNEL, (workspaceId) => {
    if (workspaceId) mark(workspaceId);
  });
  const unheard = options.changes.subscribe(mark);
  const lag = () => (replicatedUntil === null ? null : Math.max(0, clock.now().getTime() - replicatedUntil));
  const before = (key: string, until: number) => (marks.get(key) ?? 0) < until;

  return {
    reader(workspaceId, about = []) {
      const behind = lag();
      const until = replicatedUntil;
      const fit =
        behind !== null &&
        until !== null &&
        behind <= options.maxLagMs &&
        bus.connected &&
        (workspaceId === undefined || before(workspaceId, until)) &&
        about.every((tag) => before(tag, until));
      if (fit) served.replica++;
      else served.primary++;
      return fit ? replica : options.primary;
    },
    wrote(workspaceId) {
      mark(workspaceId);
      void bus.publish(WROTE_CHANNEL, workspaceId).catch((error) => options.onError?.(error));
    },
    lagMs: lag,
    served: () => served,
    async close() {
      closed = true;
      clearTimeout(timer);
      unsubscribe();
      unheard();
      served = { ...served };
      await Promise.all([pool.end(), probes.end()]);
    },
  };
}
