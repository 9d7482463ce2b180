// The workspace's side of viewing: a demo's views listed for its owner (the viewer*.ts files are the public viewer's side).
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { resolveDateRange } from '../core/time';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import * as repo from './views.repo';

export interface ViewsDeps {
  database: Pick<Database, 'db'>;
  demos: Pick<DemoReader, 'find'>;
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
 * const views = createViewsService({ ...kernel, demos: demos.reader });
 * const { rows, total } = await views.list(auth, demoId, { startDate: '2026-11-01' }, { limit: 20, offset: 0 });
 */
export function createViewsService(deps: ViewsDeps) {
  const { db } = deps.database;

  async function requireDemo(auth: AuthContext, demoId: string) {
    const found = await deps.demos.find(auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    return found;
  }

  async function list(
    auth: AuthContext,
    demoId: string,
    filter: DateRange & { viewerEmail?: string; version?: number; includeInternal?: boolean },
    page: { limit: number; offset: number },
  ) {
    await requireDemo(auth, demoId);
    const { from, to } = resolveDateRange(filter.startDate, filter.endDate);
    const { viewerEmail, version, includeInternal } = filter;
    return repo.listViews(db, demoId, { from, to, viewerEmail, version, includeInternal }, page);
  }

  return { list };
}

export type ViewsService = ReturnType<typeof createViewsService>;
