import type { ModuleContext, Services } from '../module';
import { errorEnvelope } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { cursorListEnvelope, paginateByKeyset } from '../core/pagination';
import { demoParams } from '../demos/demo-fields.schemas';
import { listViewsQuery, toView, viewSchema } from './views.schemas';

const tags = ['Views and analytics'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

export function viewsRoutes(app: ZodApp, ctx: ModuleContext<Services['viewing']>) {
  const { views } = ctx.services;

  // GET /v1/demos/:id/views — a page of the demo's views, newest first
  app.get(
    '/demos/:id/views',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'List views',
        description:
          'One record per viewer session on the demo, newest first. `start_date` and ' +
          '`end_date` bound `started_at` (a date is its whole UTC day; a timestamp is exact); an end before the ' +
          'start is a 400 naming both. `viewer_email` matches case-insensitively. Views of the workspace’s own ' +
          'members (`internal`) are left out unless `include_internal=true`. Page by `page` or, deep into a long list, by ' +
          '`cursor` (`meta.next_cursor`).',
        params: demoParams,
        querystring: listViewsQuery,
        response: { 200: cursorListEnvelope(viewSchema), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const filters = {
        startDate: q.start_date,
        endDate: q.end_date,
        viewerEmail: q.viewer_email,
        version: q.version,
        includeInternal: q.include_internal,
      };
      return paginateByKeyset(
        request,
        (window) => views.list(callerOf(request), request.params.id, filters, window),
        (r) => ({ at: r.startedAt, id: r.id }),
        ({ rows }) => rows.map((r) => toView(r, r.stepTimes)),
      );
    },
  );
}
