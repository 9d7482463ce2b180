import { PageIterator } from '../pagination.js';
import { type ResourceContext, unwrap } from '../request.js';
import type { AuditEntry, QueryParams } from '../types.js';

type ListQuery = Omit<QueryParams<'/v1/audit-log', 'get'>, 'after'>;
type Filters = Omit<ListQuery, 'page' | 'per_page'>;

/**
 * One poll of the audit log feed: the entries after the cursor, and the cursor to send next.
 *
 * @example
 * ```ts
 * import type { AuditFeedPage } from '@demoshare/sdk';
 * const page: AuditFeedPage = await client.auditLog.poll('start');
 * console.log(page.entries.length, 'of', page.ready, 'ready; next cursor', page.next);
 * ```
 */
export interface AuditFeedPage {
  entries: AuditEntry[];
  /** The `after` of the next poll: the last entry's id, or the cursor sent when nothing new was ready. */
  next: string;
  /** Entries after the cursor that were ready, these included: more than `entries.length` means poll again now. */
  ready: number;
}

/** The workspace's audit log (admins, scope `audit:read`): pages newest first, and the feed a SIEM polls. */
export function auditLogResource(ctx: ResourceContext) {
  const { api } = ctx;
  return {
    /**
     * The entries newest first, filtered by `actor`, `action`, `target`, `start_date` and `end_date`.
     * @example
     * ```ts
     * for await (const e of client.auditLog.list({ action: 'member.role_changed' })) console.log(e.actor.label, e.changes);
     * ```
     */
    list(query: ListQuery = {}): PageIterator<AuditEntry> {
      return new PageIterator((page) => unwrap(api.GET('/v1/audit-log', { params: { query: { ...query, ...page } } })), query);
    },
    /**
     * The entries after `after` (an entry id, or `'start'` for the oldest kept), oldest first, at most
     * `perPage` (up to 100). Keep `next` and poll with it: every entry arrives exactly once.
     * @example
     * ```ts
     * let cursor = (await store.get('demoshare-audit-cursor')) ?? 'start';
     * for (;;) {
     *   const { entries, next, ready } = await client.auditLog.poll(cursor);
     *   await siem.send(entries);
     *   await store.set('demoshare-audit-cursor', (cursor = next));
     *   if (ready <= entries.length) await new Promise((r) => setTimeout(r, 60_000));
     * }
     * ```
     */
    async poll(after = 'start', options: { perPage?: number; filters?: Filters } = {}): Promise<AuditFeedPage> {
      const query = { ...options.filters, after, per_page: options.perPage ?? 100 };
      const { data, meta } = await unwrap(api.GET('/v1/audit-log', { params: { query } }));
      return { entries: data, next: meta.next ?? after, ready: meta.total };
    },
  };
}
