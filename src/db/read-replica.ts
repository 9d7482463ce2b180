// Reads that may run on a streaming replica (DATABASE_READ_URL): which executor a read gets, the replica's
// measured lag, and the rule that keeps a workspace's reads on the primary until its own writes have arrived.
import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Bus } from '../core/bus';
import type { Clock } from '../core/clock';
import type { Db } from './client';

/** Where a read that may be a little behind goes; `reader()` is the primary unless the replica is fit. */
export interface ReadRouting {
  /**
   * The executor for a read of `workspaceId`'s data (analytics, list pages, a viewer payload built anew):
   * the replica when it is connected, its lag is within the bound, and it has replayed everything the
   * workspace wrote through this service; the primary otherwise. Without a replica, always the primary.
   */
  reader(workspaceId: string | undefined): Db;
  /** Call after a write of `workspaceId` commits: its reads stay on the primary until the replica has it. */
  wrote(workspaceId: string): void;
  /** The replica's measured lag in ms (null: no replica, or not measured yet / unreachable). */
  lagMs(): number | null;
  /** How many reads each side served since start (for /metrics and the bench). */
  served(): { primary: number; replica: number };
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
    served: () => ({ primary, replica: 0 }),
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
  onError?(error: unknown): void;
}

const WROTE_CHANNEL = 'demoshare:reads:wrote';
/** Samples of the primary's WAL position kept to date what the replica has replayed. */
const SAMPLES = 120;

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
 * of the same object reads the primary. While the replica or the bus is unreachable, everything reads the
 * primary.
 */
export function replicaRouting(options: ReplicaOptions): ReadRouting {
  const pool = new pg.Pool({ connectionString: options.replicaUrl, max: options.poolSize, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 2_000 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const replica = drizzlePg({ client: pool }) as unknown as Db;
  const { clock, bus } = options;
  const samples: Array<{ at: number; lsn: bigint }> = [];
  const lastWrite = new Map<string, number>();
  let replicatedUntil: number | null = null;
  let served = { primary: 0, replica: 0 };
  let closed = false;

  const probe = async () => {
    try {
      const at = clock.now().getTime();
      const primary = await options.primaryPool.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
      samples.push({ at, lsn: lsn(primary.rows[0]!.lsn) });
      if (samples.length > SAMPLES) samples.shift();
      const replayed = await pool.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn');
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

  // Dated on arrival by this process's clock, not the sender's: the write committed before it was sent, so
  // the arrival time is later still, and no two machines' clocks are compared.
  const unsubscribe = bus.subscribe(WROTE_CHANNEL, (workspaceId) => {
    if (workspaceId) lastWrite.set(workspaceId, clock.now().getTime());
  });
  const lag = () => (replicatedUntil === null ? null : Math.max(0, clock.now().getTime() - replicatedUntil));

  return {
    reader(workspaceId) {
      const behind = lag();
      const fit =
        behind !== null &&
        behind <= options.maxLagMs &&
        bus.connected &&
        (workspaceId === undefined || (lastWrite.get(workspaceId) ?? 0) < replicatedUntil!);
      if (fit) served.replica++;
      else served.primary++;
      return fit ? replica : options.primary;
    },
    wrote(workspaceId) {
      const at = clock.now().getTime();
      lastWrite.set(workspaceId, at);
      // The map grows with the workspaces that write; entries older than the bound decide nothing.
      if (lastWrite.size > 10_000) {
        const old = at - options.maxLagMs;
        for (const [id, when] of lastWrite) if (when < old) lastWrite.delete(id);
      }
      void bus.publish(WROTE_CHANNEL, workspaceId).catch((error) => options.onError?.(error));
    },
    lagMs: lag,
    served: () => served,
    async close() {
      closed = true;
      clearTimeout(timer);
      unsubscribe();
      served = { ...served };
      await pool.end();
    },
  };
}
