import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listEnvelope, page } from './envelope';
import { invalid } from './errors';

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

/** Where a keyset page starts: after the row with this id (and, should that row be gone, this time). */
export interface Keyset {
  at: Date;
  id: string;
}

/** A page's window: an offset (page numbers), or `after` a row (a cursor) with `offset` 0. */
export interface PageWindow extends LimitOffset {
  after: Keyset | null;
}

const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,400}$/;

/**
 * `page`, `per_page` and `cursor`: the lists whose offsets grow (demos, views, deliveries, the audit log)
 * also page by keyset. `cursor` is the `meta.next_cursor` of the page before, opaque to clients.
 *
 * @example
 * ```ts
 * import { cursorPaginationQuery } from './pagination';
 *
 * cursorPaginationQuery.parse({ cursor: 'WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCJkZW1vXzEiLDJd' });
 * ```
 */
export const cursorPaginationQuery = paginationQuery.extend({
  cursor: z
    .string()
    .regex(CURSOR_PATTERN)
    .optional()
    .meta({
      description:
        'The `meta.next_cursor` of the page before: the next page by keyset, which costs the same however deep ' +
        '(a `page` number makes the database read and skip every row before it), and which rows added or removed ' +
        'meanwhile cannot shift. Leave `page` out with it.',
    }),
});

export type CursorPaginationQuery = z.infer<typeof cursorPaginationQuery>;

/**
 * A list envelope whose `meta` also carries `next_cursor`.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { cursorListEnvelope } from './pagination';
 *
 * const response = { 200: cursorListEnvelope(z.object({ id: z.string() })) };
 * ```
 */
export function cursorListEnvelope<T extends z.ZodType>(item: T) {
  const base = listEnvelope(item);
  return base.extend({
    meta: base.shape.meta.extend({
      next_cursor: z
        .string()
        .nullable()
        .meta({
          description: 'Send as `cursor` for the next page (same filters and `per_page`); null on the last page.',
          example: 'WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCJkZW1vXzEiLDJd',
        }),
    }),
  });
}

/** The cursor of the page after `row`: its time and id, and the number of the page it opens. */
export function encodeCursor(row: Keyset, nextPage: number): string {
  return Buffer.from(JSON.stringify([row.at.toISOString(), row.id, nextPage])).toString('base64url');
}

/** A cursor back into its row and page number; a 400 on anything this server did not make. */
export function decodeCursor(cursor: string): { after: Keyset; page: number } {
  try {
    const [at, id, page] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const when = typeof at === 'string' ? new Date(at) : new Date(Number.NaN);
    if (typeof id === 'string' && id.length > 0 && id.length <= 100 && Number.isInteger(page) && (page as number) >= 2 && !Number.isNaN(when.getTime())) {
      return { after: { at: when, id }, page: page as number };
    }
  } catch {
    // Not JSON: refused below like any other malformed cursor.
  }
  throw invalid('cursor is not one this server gave (send meta.next_cursor as it came)', [
    { field: 'cursor', message: 'Unknown cursor' },
  ]);
}

/**
 * The handler of a list that pages by number or by cursor: `load` gets the window (one row more than a
 * page, which tells whether another follows), and the answer is the usual `{data, meta: {total, page,
 * per_page}}` with `meta.next_cursor`. `total` counts every row the filters match, whichever way the page
 * was asked for.
 *
 * @example
 * ```ts
 * import type { FastifyRequest } from 'fastify';
 * import { type CursorPaginationQuery, type PageWindow, paginateByKeyset } from './pagination';
 *
 * declare const request: FastifyRequest & { query: CursorPaginationQuery };
 * declare function listDemos(window: PageWindow): Promise<{ rows: { id: string; createdAt: Date }[]; total: number }>;
 * const body = await paginateByKeyset(request, listDemos, (row) => ({ at: row.createdAt, id: row.id }), (l) => l.rows);
 * ```
 */
export async function paginateByKeyset<L extends { rows: unknown[]; total: number }, T>(
  request: FastifyRequest & { query: CursorPaginationQuery },
  load: (window: PageWindow) => Promise<L>,
  keyOf: (row: L['rows'][number]) => Keyset,
  items: (loaded: L) => T[],
) {
  const { cursor, per_page: perPage } = request.query;
  let pageNumber = request.query.page;
  let after: Keyset | null = null;
  if (cursor !== undefined) {
    if (pageNumber !== 1) {
      throw invalid('page does not combine with cursor: the cursor says where the page starts', [
        { field: 'page', message: 'leave it out when cursor is given' },
      ]);
    }
    ({ after, page: pageNumber } = decodeCursor(cursor));
  }
  const loaded = await load({ limit: perPage + 1, offset: after ? 0 : (pageNumber - 1) * perPage, after });
  const more = loaded.rows.length > perPage;
  const rows = more ? loaded.rows.slice(0, perPage) : loaded.rows;
  const body = page(request, items({ ...loaded, rows }), { total: loaded.total, page: pageNumber, perPage });
  const last = rows.at(-1);
  return { ...body, meta: { ...body.meta, next_cursor: more && last ? encodeCursor(keyOf(last), pageNumber + 1) : null } };
}
