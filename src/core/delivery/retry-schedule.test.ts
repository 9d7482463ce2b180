import { describe, expect, it } from 'vitest';
import { nextAttemptAt, parseRetryAfter, retryDelay } from './retry-schedule';

const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('retryDelay', () => {
  const schedule = [60_000, 300_000];
  it('follows the schedule within ±10 % and stops after it', () => {
    expect(retryDelay(1, schedule, () => 0)).toBe(54_000);
    expect(retryDelay(1, schedule, () => 1)).toBe(66_000);
    expect(retryDelay(2, schedule, () => 0.5)).toBe(300_000);
    expect(retryDelay(3, schedule)).toBeNull();
  });
});

describe('nextAttemptAt', () => {
  const schedule = [60_000, 300_000];
  it('schedules on the delays, moved by Retry-After, never past the schedule’s end', () => {
    expect(nextAttemptAt(1, schedule, NOW, null, () => 0.5)).toEqual(new Date(NOW.getTime() + 60_000));
    // Retry-After replaces the scheduled wait, sooner or later, jitter and all.
    expect(nextAttemptAt(1, schedule, NOW, 5_000)).toEqual(new Date(NOW.getTime() + 5_000));
    expect(nextAttemptAt(2, schedule, NOW, 3_600_000)).toEqual(new Date(NOW.getTime() + 3_600_000));
    // The schedule is used up: a Retry-After does not grant another attempt.
    expect(nextAttemptAt(3, schedule, NOW, 5_000)).toBeNull();
    expect(nextAttemptAt(1, [], NOW)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, caps at a day, ignores garbage', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', NOW)).toBe(30_000);
    // A date already past means now, never a negative wait.
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('999999', NOW)).toBe(86_400_000);
    expect(parseRetryAfter('Sun, 21 Nov 2027 10:00:00 GMT', NOW)).toBe(86_400_000);
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter('12abc', NOW)).toBeNull();
    // Not seconds and not an HTTP-date: ignored, where JavaScript's date parser would have read a day in 2001.
    expect(parseRetryAfter('-5', NOW)).toBeNull();
    expect(parseRetryAfter('1.5', NOW)).toBeNull();
    expect(parseRetryAfter('2026-11-21T10:00:30Z', NOW)).toBeNull();
    // The obsolete forms RFC 9110 still asks recipients to read.
    expect(parseRetryAfter('Saturday, 21-Nov-26 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sat Nov 21 10:00:30 2026', NOW)).not.toBeNull();
    expect(parseRetryAfter('', NOW)).toBeNull();
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
  });
});
