import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { page } from './envelope';

/**
 * Items per page when `per_page` is not given.
 *
 * @example
 * ```ts
 * import { DEFAULT_PER_PAGE } from './pagination';
 *
 * const firstPage = { page: 1, per_page: DEFAULT_PER_PAGE };
 * ```
 */
export const DEFAULT_PER_PAGE = 20;
/**
 * The largest `per_page` a list accepts; more is a 400.
 *
 * @example
 * ```ts
 * import { MAX_PER_PAGE, paginationQuery } from './pagination';
 *
 * paginationQuery.safeParse({ per_page: String(MAX_PER_PAGE + 1) }).success; // false
 * ```
 */
export const MAX_PER_PAGE = 100;

/**
 * `page` and `per_page` query parameters: out-of-range values are a 400, never clamped.
 *
 * @example
 * ```ts
 * import { paginationQuery } from './pagination';
 *
 * paginationQuery.parse({ page: '2' }); // { page: 2, per_page: 20 }
 * ```
 */
export const paginationQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).meta({ description: 'Page number, starting at 1.' }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PER_PAGE)
    .default(DEFAULT_PER_PAGE)
    .meta({ description: `Items per page, 1 to ${MAX_PER_PAGE}.` }),
});

export type PaginationQuery = z.infer<typeof paginationQuery>;

/**
 * The SQL window of a page.
 *
 * @example
 * ```ts
 * import { toLimitOffset } from './pagination';
 *
 * toLimitOffset({ page: 3, per_page: 20 }); // { limit: 20, offset: 40 }
 * ```
 */
export function toLimitOffset(q: PaginationQuery) {
  return { limit: q.per_page, offset: (q.page - 1) * q.per_page };
}

export type LimitOffset = ReturnType<typeof toLimitOffset>;

/**
 * The handler of every paginated list: the route's `page`/`per_page` become a limit and offset for
 * `load`, and its rows (through `items`) a `{data, meta: {total, page, per_page}}` page.
 *
 * @example
 * ```ts
 * import type { FastifyRequest } from 'fastify';
 * import { type LimitOffset, type PaginationQuery, paginate } from './pagination';
 *
 * declare const request: FastifyRequest & { query: PaginationQuery };
 * declare function listDemos(range: LimitOffset): Promise<{ rows: { id: string }[]; total: number }>;
 * const body = await paginate(request, listDemos, (loaded) => loaded.rows);
 * ```
 */
export async function paginate<L extends { total: number }, T>(
  request: FastifyRequest & { query: PaginationQuery },
  load: (range: LimitOffset) => Promise<L>,
  items: (loaded: L) => T[],
) {
  const { query } = request;
  const loaded = await load(toLimitOffset(query));
  return page(request, items(loaded), { total: loaded.total, page: query.page, perPage: query.per_page });
}
