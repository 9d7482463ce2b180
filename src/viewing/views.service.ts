// The workspace's side of viewing: a demo's views listed for its owner (the viewer*.ts files are the public viewer's side).
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import type { PageWindow } from '../core/pagination';
import { resolveDateRange } from '../core/time';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import * as repo from './views.repo';

export interface ViewsDeps {
  database: Pick<Database, 'db'>;
  /** Where the list is read (the replica when fit, db/read-replica.ts); absent: `database`. */
  reads?: Pick<ReadRouting, 'reader'>;
}

export interface DateRange {
  startDate?: string;
  endDate?: string;
}

/**
 * A demo's views for the workspace, newest first, filtered by date range, viewer, version and internal
 * traffic (MCP and the views route use it).
 *
 * @example
 * const views = createViewsService(kernel);
 * const { rows, total } = await views.list(auth, demoId, { startDate: '2026-11-01' }, { limit: 20, offset: 0, after: null });
 */
export function createViewsService(deps: ViewsDeps) {
  const { db } = deps.database;

  /**
   * One statement for a page with rows (views.repo.ts listViews); an empty page costs a second, which
   * looks the demo up (a 404 outside the workspace) and counts the views past the end.
   */
  async function list(
    auth: AuthContext,
    demoId: string,
    filter: DateRange & { viewerEmail?: string; version?: number; includeInternal?: boolean },
    window: PageWindow,
  ) {
    const { from, to } = resolveDateRange(filter.startDate, filter.endDate);
    const { viewerEmail, version, includeInternal } = filter;
    const viewFilter = { from, to, viewerEmail, version, includeInternal };
    const reader = deps.reads?.reader(auth.workspaceId) ?? db;
    const found = await repo.listViews(reader, auth.workspaceId, demoId, viewFilter, window);
    if (found.rows.length > 0) return found;
    const empty = await repo.emptyPage(reader, auth.workspaceId, demoId, viewFilter);
    if (!empty.own) throw notFound('Demo');
    return { rows: found.rows, total: empty.total };
  }

  return { list };
}

export type ViewsService = ReturnType<typeof createViewsService>;
