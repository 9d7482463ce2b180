import { Redis } from 'ioredis';

interface Log {
  warn(obj: object, msg: string): void;
  info(msg: string): void;
}

/** Between reconnection attempts while Redis is away: how soon after its return the shared state is back. */
export const REDIS_RECONNECT_MAX_MS = 1_000;

/**
 * The process's Redis client (shared rate-limit budgets, the cache-invalidation bus), connected before it
 * is returned: a wrong REDIS_URL stops start-up with a clear error rather than running half-configured.
 *
 * Once running, Redis going away is survived, not waited for. Commands fail at once instead of queueing
 * (no offline queue): the rate limiter falls back to in-process budgets and the bus to uncached reads, so
 * requests carry on with no added latency. The client reconnects every second at most, and the outage is
 * logged once when it starts and once when it ends, not on every attempt.
 */
export async function connectRedis(url: string, log: Log, timeoutMs = 10_000): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_RECONNECT_MAX_MS),
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
  return redis;
}

/** Resolves once `client` is connected and ready, or rejects after `timeoutMs`. */
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
