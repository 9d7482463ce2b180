import { describe, expect, it } from 'vitest';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, paginationQuery, toLimitOffset } from './pagination';

describe('pagination query', () => {
  it('defaults to page 1 of 20', () => {
    expect(paginationQuery.parse({})).toEqual({ page: 1, per_page: DEFAULT_PER_PAGE });
    expect(DEFAULT_PER_PAGE).toBe(20);
  });

  it('accepts the bounds and converts query strings', () => {
    expect(paginationQuery.parse({ page: '3', per_page: String(MAX_PER_PAGE) })).toEqual({ page: 3, per_page: 100 });
    expect(paginationQuery.parse({ page: '1', per_page: '1' })).toEqual({ page: 1, per_page: 1 });
  });

  it.each([
    { page: '0' },
    { page: '-2' },
    { page: '1.5' },
    { page: 'two' },
    { per_page: '0' },
    { per_page: '101' },
    { per_page: '10.5' },
    { per_page: 'all' },
  ])('refuses %j instead of clamping it', (query) => {
    expect(paginationQuery.safeParse(query).success).toBe(false);
  });

  it('turns a page into limit and offset', () => {
    expect(toLimitOffset({ page: 1, per_page: 20 })).toEqual({ limit: 20, offset: 0 });
    expect(toLimitOffset({ page: 4, per_page: 25 })).toEqual({ limit: 25, offset: 75 });
  });
});
