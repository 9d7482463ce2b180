import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Fire-and-forget messages between processes, used to invalidate caches. Invalidation is idempotent, so
 * a message that also comes back to its sender does no harm; a missed one is covered by cache TTLs.
 */
export interface Bus {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): () => void;
  close(): Promise<void>;
}

/** One process only: the embedded database and tests. */
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

/** Across processes through PostgreSQL LISTEN/NOTIFY, on the database's one LISTEN connection. */
export async function createPostgresBus(database: NotifyingDatabase): Promise<Bus> {
  const local = createLocalBus();
  const origin = randomUUID();
  // '' comes after a reconnect; the messages it stands for are lost, and caches' TTLs cover them.
  const unlisten = await database.listen(PG_CHANNEL, (payload) => {
    if (payload) relay(local, origin, payload);
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
    async close() {
      await unlisten();
      await local.close();
    },
  };
}

/** Across processes through Redis pub/sub, when REDIS_URL is set. */
export async function createRedisBus(redis: Redis): Promise<Bus> {
  const local = createLocalBus();
  const origin = randomUUID();
  const subscriber = redis.duplicate();
  await subscriber.subscribe(PG_CHANNEL);
  subscriber.on('message', (_channel: string, payload: string) => relay(local, origin, payload));
  return {
    async publish(channel, message) {
      await local.publish(channel, message);
      await redis.publish(PG_CHANNEL, JSON.stringify({ o: origin, c: channel, m: message } satisfies Envelope));
    },
    subscribe: local.subscribe,
    async close() {
      subscriber.disconnect();
      await local.close();
    },
  };
}
