/** Time source handed to the app so that tests can freeze or advance it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: starts at `start` and moves only when told. */
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
