// A hub's identified visitors for the workspace: a page of them, or all of them for the CSV export.
import type { AuthContext } from '../auth/permissions';
import { AppError, notFound } from '../core/errors';
import type { Database, Executor } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import * as visitors from './hub-visitors.repo';
import type { VisitorFilter, VisitorRow } from './hub-visitors.repo';
import * as repo from './hubs.repo';
import type { HubLeadField } from './hubs.tables';

/** The most visitors one CSV export holds, as for leads; more is a 400 asking for a narrower range. */
export const VISITORS_EXPORT_MAX = 50_000;

/** One identification on a hub, with the demos opened in that visit. */
export interface HubVisitor {
  email: string;
  name: string | null;
  values: Partial<Record<HubLeadField, string>>;
  identifiedAt: Date | null;
  demosOpened: number;
  demos: Array<{ id: string; title: string; opens: number }>;
}

/**
 * Who passed a hub's identification or lead form, newest first: one visitor per identification (a hub
 * session), members' own visits left out. Read where the replica may serve it, like the hub's analytics.
 *
 * @example
 * const { rows, total } = await createHubVisitors(kernel).list(auth, hubId, { from }, { limit: 20, offset: 0 });
 */
export function createHubVisitors(deps: { database: Pick<Database, 'db'>; reads?: Pick<ReadRouting, 'reader'> }) {
  async function readerFor(auth: AuthContext, hubId: string) {
    const db = deps.reads?.reader(auth.workspaceId) ?? deps.database.db;
    if (!(await repo.findHub(db, auth.workspaceId, hubId))) throw notFound('Hub');
    return db;
  }

  async function withDemos(db: Executor, hubId: string, rows: VisitorRow[]): Promise<HubVisitor[]> {
    const opens = await visitors.opensOf(
      db,
      hubId,
      rows.map((r) => r.id),
    );
    const bySession = new Map<string, typeof opens>();
    for (const o of opens) {
      const list = bySession.get(o.sessionId);
      if (list) list.push(o);
      else bySession.set(o.sessionId, [o]);
    }
    return rows.map((r) => {
      const mine = bySession.get(r.id) ?? [];
      const demos = mine
        .filter((o): o is typeof o & { demoId: string } => o.demoId !== null)
        .map((o) => ({ id: o.demoId, title: o.title ?? '', opens: o.opens }))
        .sort((a, b) => b.opens - a.opens || a.title.localeCompare(b.title));
      return {
        email: r.email!,
        name: r.name,
        values: r.values,
        identifiedAt: r.identifiedAt,
        demosOpened: mine.reduce((n, o) => n + o.opens, 0),
        demos,
      };
    });
  }

  return {
    /** A page of the hub's visitors whose identification falls in the filter's range. 404 for a hub not of the workspace. */
    async list(auth: AuthContext, hubId: string, filter: VisitorFilter, range: { limit: number; offset: number }) {
      const db = await readerFor(auth, hubId);
      const { rows, total } = await visitors.listVisitors(db, hubId, filter, range);
      return { rows: await withDemos(db, hubId, rows), total };
    },

    /** Every visitor the filter keeps, newest first, for the CSV; at most VISITORS_EXPORT_MAX. */
    async exportRows(auth: AuthContext, hubId: string, filter: VisitorFilter) {
      const db = await readerFor(auth, hubId);
      const { rows, total } = await visitors.listVisitors(db, hubId, filter, { limit: VISITORS_EXPORT_MAX, offset: 0 });
      if (total > VISITORS_EXPORT_MAX) {
        throw new AppError('invalid_request', `More than ${VISITORS_EXPORT_MAX} visitors: narrow start_date and end_date`, {
          details: [{ field: 'start_date', message: `the export holds at most ${VISITORS_EXPORT_MAX} visitors` }],
        });
      }
      return withDemos(db, hubId, rows);
    },
  };
}

export type HubVisitors = ReturnType<typeof createHubVisitors>;
