import { describe, expect, it } from 'vitest';
import { dateFilter, iso, parseDuration, resolveDateFilter } from './time';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['14d', 1_209_600_000],
    ['1.5s', 1_500],
    [' 24h ', 86_400_000],
    ['0s', 0],
  ])('%j is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '10', 'ten seconds', '5 m', '-5s', '5w', 's', '1e3ms'])('refuses %j with a message naming it', (text) => {
    expect(() => parseDuration(text)).toThrow(`"${text}" is not a duration`);
  });
});

describe('timestamps and date filters', () => {
  it('writes ISO 8601 UTC with milliseconds, and null for no date', () => {
    expect(iso(new Date(Date.UTC(2026, 10, 21, 10, 0, 0)))).toBe('2026-11-21T10:00:00.000Z');
    expect(iso(null)).toBeNull();
  });

  it('reads a bare day as a whole UTC day and a timestamp as itself', () => {
    expect(resolveDateFilter('2026-11-21', false).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(resolveDateFilter('2026-11-21', true).toISOString()).toBe('2026-11-21T23:59:59.999Z');
    expect(resolveDateFilter('2026-11-21T10:00:00+02:00', true).toISOString()).toBe('2026-11-21T08:00:00.000Z');
  });

  it.each(['2026-13-01', '21/11/2026', '2026-11-21 10:00', 'yesterday'])('refuses the date filter %j', (value) => {
    expect(dateFilter.safeParse(value).success).toBe(false);
  });
});
