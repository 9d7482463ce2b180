import { z } from 'zod';

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
