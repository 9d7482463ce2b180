/** Time source handed to the app so that tests can freeze or advance it. */
export interface Clock {
  now(): Date;
}

/**
 * The wall clock: what the service runs on outside tests.
 *
 * @example
 * ```ts
 * import { systemClock } from './clock';
 *
 * const startedAt = systemClock.now();
 * ```
 */
export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock for tests: starts at `start` and moves only when told.
 *
 * @example
 * ```ts
 * import { manualClock } from './clock';
 *
 * const clock = manualClock('2026-03-01T09:00:00.000Z');
 * clock.advance(60_000);
 * clock.now().toISOString(); // '2026-03-01T09:01:00.000Z'
 * ```
 */
export function manualClock(start: Date | string = '2026-01-01T00:00:00.000Z') {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
    set(at: Date | string) {
      current = new Date(at).getTime();
    },
  };
}
