import { describe, expect, it } from 'vitest';
import { dateFilter, iso, parseDuration, resolveDateFilter, resolveDateRange } from './time';

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

  it.each(['2026-13-01', '2026-02-30', '10000-01-01', '+010000-01-01T00:00:00Z', '21/11/2026', '2026-11-21 10:00', 'yesterday'])('refuses the date filter %j', (value) => {
    expect(dateFilter.safeParse(value).success).toBe(false);
  });

  // PostgreSQL has no year 0 and JavaScript writes years past 9999 as +010000: either reached a query as a 500.
  it.each(['0000-01-01', '0000-01-01T00:00:00Z', '1969-12-31', '1970-01-01T00:30:00+01:00', '9999-12-31T23:00:00-05:00'])(
    'refuses %j as out of range, in the schema and when a range is resolved',
    (value) => {
      expect(dateFilter.safeParse(value).error?.issues[0]?.message).toBe('must be between 1970-01-01 and 9999-12-31 (UTC)');
      expect(() => resolveDateRange(value, undefined)).toThrow('start_date must be between 1970-01-01 and 9999-12-31 (UTC)');
      expect(() => resolveDateRange(undefined, value)).toThrow('end_date must be between');
    },
  );

  it('takes both ends of the range', () => {
    const { from, to } = resolveDateRange('1970-01-01', '9999-12-31');
    expect(from?.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(to?.toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});
