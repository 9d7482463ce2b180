// The leads domain's service: viewers' submissions in (lead-submission.ts), the workspace's leads out.
import type { AuthContext } from '../auth/permissions';
import { AppError } from '../core/errors';
import type { Visitor } from '../viewing/viewer-gates.resolve';
import { type LeadSubmission, submitLead } from './lead-submission';
import type { LeadsContext } from './leads-context';
import * as repo from './leads.repo';
import type { LeadFilters } from './leads.schemas';

/** The most leads one CSV export holds; more is a 400 asking for a narrower range. */
export const EXPORT_MAX = 50_000;

/**
 * Lead forms' submissions: a viewer's, and the workspace's lists and export.
 *
 * @example
 * const leads = createLeadsService({ db, clock, changes, viewer, notifications, demos });
 * const { receipt, created } = await leads.submit(token, sessionToken, visitor, { id, step_number: 3, values });
 * const { rows, total } = await leads.list(auth, { demoId }, { limit: 20, offset: 0 });
 */
export function createLeadsService(ctx: LeadsContext) {
  async function requireDemo(auth: AuthContext, demoId: string | undefined) {
    if (demoId === undefined) return;
    if (!(await ctx.demos.find(auth.workspaceId, demoId))) throw new AppError('not_found', 'Demo not found');
  }

  return {
    submit: (token: string, sessionToken: string | undefined, visitor: Visitor, body: LeadSubmission) =>
      submitLead(ctx, token, sessionToken, visitor, body),

    /** A page of the workspace's leads (of one demo, with `demoId`), newest first. */
    async list(auth: AuthContext, filters: LeadFilters, range: { limit: number; offset: number }, demoRoute = false) {
      if (demoRoute) await requireDemo(auth, filters.demoId);
      return repo.listLeads(ctx.reads?.reader(auth.workspaceId) ?? ctx.db, auth.workspaceId, filters, range);
    },

    /** Every lead the filters keep, newest first, for the CSV; at most EXPORT_MAX. */
    async exportRows(auth: AuthContext, filters: LeadFilters, demoRoute = false) {
      if (demoRoute) await requireDemo(auth, filters.demoId);
      const from = ctx.reads?.reader(auth.workspaceId) ?? ctx.db;
      const { rows, total } = await repo.listLeads(from, auth.workspaceId, filters, { limit: EXPORT_MAX, offset: 0 });
      if (total > EXPORT_MAX) {
        throw new AppError('invalid_request', `More than ${EXPORT_MAX} leads: narrow start_date and end_date`, {
          details: [{ field: 'start_date', message: `the export holds at most ${EXPORT_MAX} leads` }],
        });
      }
      return rows;
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
