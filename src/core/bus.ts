// Cross-process messages (cache invalidation, wake-ups): in-process, PostgreSQL LISTEN/NOTIFY or Redis pub/sub,
// behind one interface that also says when messages may have been missed.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { watchConnection, whenReady } from './redis';

/**
 * Fire-and-forget messages between processes, used to invalidate caches. Invalidation is idempotent, so
 * a message that also comes back to its sender does no harm. Messages sent while a process is cut off from
 * the bus never reach it: `connected` says when that may be happening, and `onConnectionChange` when it
 * ends, so that caches can stop trusting their entries meanwhile and drop them all afterwards.
 */
export interface Bus {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): () => void;
  /** False while messages from other processes may be missed (the bus's connection is down). */
  readonly connected: boolean;
  /**
   * Called with false when the connection goes, and with true once it is back (also after a gap noticed
   * only once over: a reconnect the bus heard about afterwards). Messages of the gap are gone either way.
   */
  onConnectionChange(handler: (connected: boolean) => void): () => void;
  close(): Promise<void>;
}

/** The `connected` flag of a bus and the handlers told of its changes. */
function connectionState() {
  const handlers = new Set<(connected: boolean) => void>();
  const state = {
    connected: true,
    set(connected: boolean) {
      // A repeated true is still worth telling: it is a reconnect after a gap nobody saw start.
      if (!connected && !state.connected) return;
      state.connected = connected;
      for (const handler of handlers) handler(connected);
    },
    onChange(handler: (connected: boolean) => void) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
  };
  return state;
}

/**
 * One process only: the embedded database and tests.
 *
 * @example
 * ```ts
 * import { createLocalBus } from './bus';
 *
 * const bus = createLocalBus();
 * const stop = bus.subscribe('changes', (message) => console.log(message));
 * await bus.publish('changes', 'demo:demo_01jd3k7q9x8v2m4n6p0r5s7t9w');
 * stop();
 * ```
 */
export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    connected: true,
    onConnectionChange: () => () => {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const PG_CHANNEL = 'demoshare_bus';

interface Envelope {
  o: string;
  c: string;
  m: string;
}

/** Delivers a remote message locally unless this process sent it (it was delivered at publish time). */
function relay(local: Bus, origin: string, payload: string) {
  const { o, c, m } = JSON.parse(payload) as Envelope;
  if (o !== origin) void local.publish(c, m);
}

/** The database's side of the PostgreSQL bus: its one LISTEN connection, and a way to NOTIFY. */
export interface NotifyingDatabase {
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  executeSql(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * Across processes through PostgreSQL LISTEN/NOTIFY, on the database's one LISTEN connection.
 *
 * @example
 * ```ts
 * import type { Database } from '../db/client';
 * import { createPostgresBus } from './bus';
 *
 * declare const database: Database;
 * const bus = await createPostgresBus(database);
 * bus.onConnectionChange((connected) => connected || console.warn('cross-process messages may be missed'));
 * ```
 */
export async function createPostgresBus(database: NotifyingDatabase): Promise<Bus> {
  const local = createLocalBus();
  const origin = randomUUID();
  const connection = connectionState();
  // '' comes after the LISTEN connection was lost and made again: what was sent meanwhile is gone.
  const unlisten = await database.listen(PG_CHANNEL, (payload) => {
    if (payload) relay(local, origin, payload);
    else connection.set(true);
  });

  return {
    async publish(channel, message) {
      await local.publish(channel, message);
      await database.executeSql('select pg_notify($1, $2)', [
        PG_CHANNEL,
        JSON.stringify({ o: origin, c: channel, m: message } satisfies Envelope),
      ]);
    },
    subscribe: local.subscribe,
    get connected() {
      return connection.connected;
    },
    onConnectionChange: connection.onChange,
    async close() {
      await unlisten();
      await local.close();
    },
  };
}

/**
 * Across processes through Redis pub/sub, when REDIS_URL is set. The subscriber connection's state is the
 * bus's: closed means messages are being missed; it counts as back only once the channel is subscribed
 * again (ioredis says "ready" before it resubscribes).
 *
 * @example
 * ```ts
 * import { createRedisBus } from './bus';
 * import { connectRedis } from './redis';
 *
 * const bus = await createRedisBus(await connectRedis('redis://127.0.0.1:6379', console));
 * await bus.close();
 * ```
 */
export async function createRedisBus(redis: Redis): Promise<Bus> {
  const local = createLocalBus();
  const origin = randomUUID();
  const connection = connectionState();
  const subscriber = redis.duplicate();
  // Errors come with every failed reconnect; the client that made `redis` reports the outage once.
  subscriber.on('error', () => {});
  try {
    await whenReady(subscriber, 10_000);
    await subscriber.subscribe(PG_CHANNEL);
  } catch (error) {
    subscriber.disconnect();
    throw error;
  }
  subscriber.on('message', (_channel: string, payload: string) => relay(local, origin, payload));
  subscriber.on('close', () => connection.set(false));
  watchConnection(subscriber);
  subscriber.on('ready', () => {
    subscriber.subscribe(PG_CHANNEL).then(
      () => connection.set(true),
      () => {},
    );
  });
  return {
    async publish(channel, message) {
      await local.publish(channel, message);
      await redis.publish(PG_CHANNEL, JSON.stringify({ o: origin, c: channel, m: message } satisfies Envelope));
    },
    subscribe: local.subscribe,
    get connected() {
      return connection.connected;
    },
    onConnectionChange: connection.onChange,
    async close() {
      subscriber.disconnect();
      await local.close();
    },
  };
}
