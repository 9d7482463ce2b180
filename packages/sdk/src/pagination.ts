/**
 * The `meta` of a list answer: `total` records, this `page` (from 1) of `per_page` items.
 *
 * @example
 * ```ts
 * import type { ListMeta } from '@demoshare/sdk';
 * const { meta }: { meta: ListMeta } = await client.demos.list().firstPage();
 * console.log(`${meta.total} demos in ${Math.ceil(meta.total / meta.per_page)} pages`);
 * ```
 */
export interface ListMeta {
  total: number;
  page: number;
  per_page: number;
  request_id: string;
}

/**
 * One page of a list, as the API answers it.
 *
 * @example
 * ```ts
 * import type { Demo, Page } from '@demoshare/sdk';
 * const page: Page<Demo> = await client.demos.list({ per_page: 50 }).firstPage();
 * console.log(page.data.length, 'of', page.meta.total);
 * ```
 */
export interface Page<T> {
  data: T[];
  meta: ListMeta;
}

/**
 * `page` and `per_page` of a list request. `per_page` is 1 to 100; iterating without one asks for 100 per
 * page (fewest requests).
 *
 * @example
 * ```ts
 * import type { PageQuery } from '@demoshare/sdk';
 * const query: PageQuery = { page: 2, per_page: 25 };
 * const second = await client.demos.list(query).firstPage();
 * ```
 */
export interface PageQuery {
  page?: number;
  per_page?: number;
}

/** Largest page the API serves. */
const MAX_PER_PAGE = 100;

/**
 * Every item of a paginated list, fetched a page at a time as the loop goes on: `for await (const x of
 * list)`. `pages()` walks page by page with the list's `meta`; `firstPage()` fetches one page only;
 * `toArray()` collects everything. Nothing is requested until one of them is used, and each use starts
 * again from the first page asked for.
 *
 * Pages are read by number, so records created or deleted while a long list is walked can shift the
 * pages: an item may be skipped or seen twice. The lists are ordered newest first where the API says so.
 *
 * @example
 * ```ts
 * for await (const demo of client.demos.list({ status: 'published' })) {
 *   console.log(demo.id, demo.title);
 * }
 * const all = await client.team.list().toArray();
 * ```
 */
export class PageIterator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (query: { page: number; per_page: number }) => Promise<Page<T>>,
    private readonly query: PageQuery = {},
  ) {}

  /**
   * Pages in turn, from `query.page` (default 1) to the last.
   *
   * @example
   * ```ts
   * for await (const page of client.demos.list().pages()) console.log(page.meta.page, page.data.length);
   * ```
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const perPage = this.query.per_page ?? MAX_PER_PAGE;
    for (let page = this.query.page ?? 1; ; page++) {
      const result = await this.fetchPage({ page, per_page: perPage });
      yield result;
      const { total, per_page } = result.meta;
      if (result.data.length === 0 || result.data.length < per_page || page * per_page >= total) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * One page only: `query.page` (default 1) with `query.per_page` (default 20, the API's).
   *
   * @example
   * ```ts
   * const { data, meta } = await client.demos.list({ per_page: 10 }).firstPage();
   * ```
   */
  firstPage(): Promise<Page<T>> {
    return this.fetchPage({ page: this.query.page ?? 1, per_page: this.query.per_page ?? 20 });
  }

  /**
   * Every item, at most `limit` (stops fetching once it has them).
   *
   * @example
   * ```ts
   * const latestTen = await client.demos.list().toArray(10);
   * ```
   */
  async toArray(limit = Number.POSITIVE_INFINITY): Promise<T[]> {
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
