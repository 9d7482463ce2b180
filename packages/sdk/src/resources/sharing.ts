import { PageIterator } from '../pagination.js';
import { type ResourceContext, unwrap } from '../request.js';
import type {
  Analytics,
  CompanyAnalytics,
  LinkAnalytics,
  QueryParams,
  RequestBody,
  Share,
  ShareAccessLogEntry,
  View,
  ViewerErasure,
  ViewJourney,
  WorkspaceAnalytics,
} from '../types.js';

/** Share links: create (password, expiry, identification, allow-lists), list, change, revoke, access log. */
export function sharesResource(ctx: ResourceContext) {
  const { api } = ctx;
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    /**
     * The demo's active links, oldest first (one page: the API lists them all at once).
     * @example
     * ```ts
     * for await (const share of client.shares.list(demoId)) console.log(share.url, share.view_count);
     * ```
     */
    list(demoId: string): PageIterator<Share> {
      return new PageIterator(() => unwrap(api.GET('/v1/demos/{id}/shares', path(demoId))));
    },
    /**
     * A new link to a published demo.
     * @example
     * ```ts
     * const share = await client.shares.create(demoId, { name: 'Acme', password: 'open sesame', require_identification: true });
     * ```
     */
    async create(demoId: string, body: RequestBody<'/v1/demos/{id}/shares', 'post'> = {}): Promise<Share> {
      return (await unwrap(api.POST('/v1/demos/{id}/shares', { ...path(demoId), body }))).data;
    },
    /**
     * One link.
     * @example
     * ```ts
     * const share = await client.shares.get('shr_01jd3k7q9x8v2m4n6p0r5s7t9w');
     * ```
     */
    async get(id: string): Promise<Share> {
      return (await unwrap(api.GET('/v1/shares/{id}', path(id)))).data;
    },
    /**
     * Changes a link's name, password, expiry or gates.
     * @example
     * ```ts
     * await client.shares.update(shareId, { expires_at: '2027-01-01T00:00:00.000Z' });
     * ```
     */
    async update(id: string, body: RequestBody<'/v1/shares/{id}', 'patch'>): Promise<Share> {
      return (await unwrap(api.PATCH('/v1/shares/{id}', { ...path(id), body }))).data;
    },
    /**
     * Revokes a link at once (its viewers' sessions end).
     * @example
     * ```ts
     * await client.shares.revoke(shareId);
     * ```
     */
    async revoke(id: string): Promise<void> {
      await unwrap(api.DELETE('/v1/shares/{id}', path(id)));
    },
    /**
     * Every access decision of the link (granted, denied, wrong password, expired), newest first.
     * @example
     * ```ts
     * for await (const entry of client.shares.accessLog(shareId)) console.log(entry.at, entry.decision);
     * ```
     */
    accessLog(id: string, query: QueryParams<'/v1/shares/{id}/access-log', 'get'> = {}): PageIterator<ShareAccessLogEntry> {
      return new PageIterator(
        (page) => unwrap(api.GET('/v1/shares/{id}/access-log', { params: { path: { id }, query: { ...query, ...page } } })),
        query,
      );
    },
  };
}

/** Views: one viewer session each, with the steps seen and the time spent. */
export function viewsResource(ctx: ResourceContext) {
  const { api } = ctx;
  return {
    /**
     * The demo's views, newest first, optionally within dates or for one viewer.
     * @example
     * ```ts
     * for await (const view of client.views.list(demoId, { start_date: '2026-11-01' })) console.log(view.viewer.email, view.completed);
     * ```
     */
    list(demoId: string, query: QueryParams<'/v1/demos/{id}/views', 'get'> = {}): PageIterator<View> {
      return new PageIterator(
        (page) => unwrap(api.GET('/v1/demos/{id}/views', { params: { path: { id: demoId }, query: { ...query, ...page } } })),
        query,
      );
    },
    /**
     * The path one view took through the steps.
     * @example
     * ```ts
     * const journey = await client.views.journey(demoId, viewId);
     * ```
     */
    async journey(demoId: string, viewId: string): Promise<ViewJourney> {
      return (await unwrap(api.GET('/v1/demos/{id}/views/{view_id}/journey', { params: { path: { id: demoId, view_id: viewId } } }))).data;
    },
    /**
     * Erases everything the workspace recorded about one viewer (admins, `demos:write`): their views,
     * step times, sessions, access-log lines and the address in webhook logs; analytics are recomputed.
     * Erasing an unknown address returns zero counts.
     * @example
     * ```ts
     * const erased = await client.views.eraseViewer('ada@example.com');
     * console.log(`${erased.views} views removed`);
     * ```
     */
    async eraseViewer(email: string): Promise<ViewerErasure> {
      return (await unwrap(api.POST('/v1/viewer-erasures', { body: { email } }))).data;
    },
  };
}

/** Analytics: the workspace overview and a demo's figures, per step, per link and per company. */
export function analyticsResource(ctx: ResourceContext) {
  const { api } = ctx;
  return {
    /**
     * The workspace overview.
     * @example
     * ```ts
     * const overview = await client.analytics.workspace({ start_date: '2026-11-01', end_date: '2026-11-30' });
     * ```
     */
    async workspace(query: QueryParams<'/v1/analytics', 'get'> = {}): Promise<WorkspaceAnalytics> {
      return (await unwrap(api.GET('/v1/analytics', { params: { query } }))).data;
    },
    /**
     * A demo's views, unique viewers, completion rate, time and per-step drop-off.
     * @example
     * ```ts
     * const a = await client.analytics.demo(demoId, { granularity: 'day' });
     * console.log(a.total_views, a.completion_rate);
     * ```
     */
    async demo(demoId: string, query: QueryParams<'/v1/demos/{id}/analytics', 'get'> = {}): Promise<Analytics> {
      return (await unwrap(api.GET('/v1/demos/{id}/analytics', { params: { path: { id: demoId }, query } }))).data;
    },
    /**
     * A demo's figures per share link, one entry each.
     * @example
     * ```ts
     * const perLink = await client.analytics.links(demoId);
     * ```
     */
    async links(demoId: string, query: QueryParams<'/v1/demos/{id}/analytics/links', 'get'> = {}): Promise<LinkAnalytics[]> {
      return (await unwrap(api.GET('/v1/demos/{id}/analytics/links', { params: { path: { id: demoId }, query } }))).data;
    },
    /**
     * A demo's figures per viewer company (from identified viewers' e-mail domains), one entry each.
     * @example
     * ```ts
     * const perCompany = await client.analytics.companies(demoId);
     * ```
     */
    async companies(demoId: string, query: QueryParams<'/v1/demos/{id}/analytics/companies', 'get'> = {}): Promise<CompanyAnalytics[]> {
      return (await unwrap(api.GET('/v1/demos/{id}/analytics/companies', { params: { path: { id: demoId }, query } }))).data;
    },
  };
}
