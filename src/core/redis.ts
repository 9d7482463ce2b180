// The Redis connection shared by rate limits and the bus: it fails fast and falls back while Redis is away
// or hangs, instead of making requests wait for it.
import { Redis } from 'ioredis';

interface Log {
  warn(obj: object, msg: string): void;
  info(msg: string): void;
}

/**
 * Between reconnection attempts while Redis is away: how soon after its return the shared state is back.
 *
 * @example
 * ```ts
 * import { REDIS_RECONNECT_MAX_MS } from './redis';
 *
 * const backInAtMost = REDIS_RECONNECT_MAX_MS + 1_000; // a reconnect, then a heartbeat
 * ```
 */
export const REDIS_RECONNECT_MAX_MS = 1_000;
/** Longest wait for one command: a Redis that hangs must not hang the requests that count against it. */
const COMMAND_TIMEOUT_MS = 1_000;
const HEARTBEAT_MS = 1_000;

/**
 * The process's Redis client (shared rate-limit budgets, the cache-invalidation bus), connected before it
 * is returned: a wrong REDIS_URL stops start-up with a clear error rather than running half-configured.
 *
 * Once running, Redis going away is survived, not waited for. Commands fail at once instead of queueing
 * (no offline queue): the rate limiter falls back to in-process budgets and the bus to uncached reads, so
 * requests carry on with no added latency. A Redis that hangs behind open connections (a network cut with
 * no reset, a stopped process) is caught by a heartbeat and treated the same way after a second or two.
 * The client reconnects every second at most, and the outage is logged once when it starts and once when
 * it ends, not on every attempt.
 *
 * @example
 * ```ts
 * import { connectRedis } from './redis';
 *
 * const redis = await connectRedis('redis://127.0.0.1:6379', { warn: console.warn, info: console.info });
 * await redis.quit();
 * ```
 */
export async function connectRedis(url: string, log: Log, timeoutMs = 10_000): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_RECONNECT_MAX_MS),
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  let down = false;
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
    if (down || redis.status === 'ready') return;
    down = true;
    log.warn({ err: error }, 'Redis is unreachable: rate limits are per process and caches are bypassed until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis is back: rate limits are shared and caches are in use again');
  });
  try {
    await whenReady(redis, timeoutMs);
  } catch {
    redis.disconnect();
    throw new Error(`Redis at REDIS_URL is not reachable${lastError ? ` (${lastError.message})` : ''}`);
  }
  watchConnection(redis);
  return redis;
}

/**
 * Pings `client` every second until it is closed for good. A ping that fails on a connection that says it
 * is ready means Redis hangs behind an open socket, which nothing else would notice: the connection is
 * dropped, so that the client reconnects (and its ready check keeps failing while Redis hangs) and whatever
 * checks its status (the rate limiter, the bus's subscriber) falls back meanwhile.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { watchConnection } from './redis';
 *
 * const subscriber = new Redis('redis://127.0.0.1:6379');
 * watchConnection(subscriber);
 * ```
 */
export function watchConnection(client: Redis): void {
  let pinging = false;
  const timer = setInterval(() => {
    if (pinging || client.status !== 'ready') return;
    pinging = true;
    client
      .ping()
      .catch(() => {
        if (client.status === 'ready') client.disconnect(true);
      })
      .finally(() => {
        pinging = false;
      });
  }, HEARTBEAT_MS);
  timer.unref();
  client.once('end', () => clearInterval(timer));
}

/**
 * Resolves once `client` is connected and ready, or rejects after `timeoutMs`.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { whenReady } from './redis';
 *
 * const client = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
 * void client.connect();
 * await whenReady(client, 5_000);
 * ```
 */
export function whenReady(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('ready', ready);
      reject(new Error('Redis did not become ready in time'));
    }, timeoutMs);
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', ready);
  });
}
