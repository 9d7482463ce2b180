// Named request budgets (rate-limiter-flexible), in memory or shared through Redis, and their response headers.
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from './errors';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
}

export interface RateLimitPolicy {
  /** Requests (or failures) allowed per window. */
  points: number;
  /** Window length in seconds. */
  duration: number;
  /** Once exhausted, refuse for this many seconds (0: until the window ends). */
  blockDuration?: number;
}

/**
 * Named budgets (api, public, login, share-password, generation...) kept in memory, or in Redis when
 * REDIS_URL is set so that several processes share one budget.
 *
 * @example
 * ```ts
 * import { RateLimits } from './rate-limit';
 *
 * const limits = new RateLimits(); // in memory; new RateLimits(redis) to share across processes
 * const login = { points: 10, duration: 60, blockDuration: 300 };
 * await limits.check('login', login, 'ada@example.com'); // throws a 429 AppError once exhausted
 * ```
 */
export class RateLimits {
  private readonly limiters = new Map<string, { limiter: RateLimiterAbstract; policy: RateLimitPolicy }>();

  constructor(
    private readonly redis?: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  private get(name: string, policy: RateLimitPolicy) {
    const existing = this.limiters.get(name);
    if (existing && existing.policy.points === policy.points && existing.policy.duration === policy.duration) {
      return existing.limiter;
    }
    const options = {
      keyPrefix: `ds_rl_${name}`,
      points: policy.points,
      duration: policy.duration,
      blockDuration: policy.blockDuration ?? 0,
    };
    const limiter = this.redis
      ? new RateLimiterRedis({
          ...options,
          storeClient: this.redis,
          // Redis away: each process counts on its own (so N processes allow up to N budgets) until it is back.
          insuranceLimiter: new RateLimiterMemory(options),
          rejectIfRedisNotReady: true,
        })
      : new RateLimiterMemory(options);
    this.limiters.set(name, { limiter, policy });
    return limiter;
  }

  /** Counts one hit; throws a 429 `rate_limited` AppError when the budget is spent. */
  async consume(name: string, policy: RateLimitPolicy, key: string, points = 1): Promise<RateLimitState> {
    try {
      const res = await this.get(name, policy).consume(key, points);
      return this.state(policy, res);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw this.limited(policy, error);
      throw error;
    }
  }

  /** Throws the 429 when the key is currently over budget, without counting a hit. */
  async check(name: string, policy: RateLimitPolicy, key: string): Promise<void> {
    const res = await this.get(name, policy).get(key);
    if (res && res.consumedPoints >= policy.points) {
      throw this.limited(policy, res);
    }
  }

  /** Gives back points consumed ahead of an outcome that turned out not to count (a reservation). */
  async refund(name: string, policy: RateLimitPolicy, key: string, points = 1): Promise<void> {
    await this.get(name, policy).reward(key, points);
  }

  async reset(name: string, policy: RateLimitPolicy, key: string): Promise<void> {
    await this.get(name, policy).delete(key);
  }

  private state(policy: RateLimitPolicy, res: RateLimiterRes): RateLimitState {
    return {
      limit: policy.points,
      remaining: Math.max(0, res.remainingPoints),
      reset: Math.ceil((this.now() + res.msBeforeNext) / 1000),
    };
  }

  private limited(policy: RateLimitPolicy, res: RateLimiterRes): AppError {
    const state = this.state(policy, res);
    const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new AppError('rate_limited', `Too many requests: try again in ${retryAfter} s`, {
      headers: rateLimitHeaders({ ...state, remaining: 0 }, retryAfter),
    });
  }
}

/**
 * The `x-ratelimit-*` headers of a state, and `retry-after` when refused.
 *
 * @example
 * ```ts
 * import { rateLimitHeaders } from './rate-limit';
 *
 * rateLimitHeaders({ limit: 100, remaining: 0, reset: 1_767_225_600 }, 30);
 * // { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767225600', 'retry-after': '30' }
 * ```
 */
export function rateLimitHeaders(state: RateLimitState, retryAfter?: number): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
  };
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  return headers;
}
