import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { page } from './envelope';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** `page` and `per_page` query parameters: out-of-range values are a 400, never clamped. */
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

export function toLimitOffset(q: PaginationQuery) {
  return { limit: q.per_page, offset: (q.page - 1) * q.per_page };
}

export type LimitOffset = ReturnType<typeof toLimitOffset>;

/**
 * The handler of every paginated list: the route's `page`/`per_page` become a limit and offset for
 * `load`, and its rows (through `items`) a `{data, meta: {total, page, per_page}}` page.
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
