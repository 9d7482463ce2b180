import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, listEnvelope, ok, } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import { demoParams } from '../demos/demo-fields.schemas';
import { analyticsQuery, analyticsSchema, listViewsQuery, toView, type ViewStepRow, viewSchema } from './views.schemas';

const tags = ['Views and analytics'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

export function viewsRoutes(app: ZodApp, ctx: ModuleContext<Services['views']>) {
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
          'start is a 400 naming both. `viewer_email` matches case-insensitively.',
        params: demoParams,
        querystring: listViewsQuery,
        response: { 200: listEnvelope(viewSchema), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const filters = { startDate: q.start_date, endDate: q.end_date, viewerEmail: q.viewer_email, version: q.version };
      return paginate(
        request,
        (range) => views.list(callerOf(request), request.params.id, filters, range),
        ({ rows, stepRows }) => {
          const byView = new Map<string, ViewStepRow[]>();
          for (const s of stepRows) byView.set(s.viewId, [...(byView.get(s.viewId) ?? []), s]);
          return rows.map((r) => toView(r, byView.get(r.id) ?? []));
        },
      );
    },
  );

  // GET /v1/demos/:id/analytics — totals, per-step figures and an optional time series
  app.get(
    '/demos/:id/analytics',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Demo analytics',
        description:
          'completion_rate = completed views / views; avg_time_seconds = mean view ' +
          'duration; per step: views that reached it, mean seconds on it, and the share of those views that ' +
          'ended there without completing. Every figure, `unique_viewers` included, uses the same range: whole ' +
          'UTC days, a view counting on the day it started; a timestamp bound counts its whole day; an end ' +
          'before the start is a 400 naming both. `unique_viewers` is exact: distinct e-mail addresses, else ' +
          'visitor ids, as the view had them when it started, from per-day viewer sets kept at ingestion. ' +
          '`series` (with `granularity`) has one entry per period of the range, empty ones included (from the ' +
          'first to the last day with views when no bounds are given; at most 3660 periods, else a 400). Step ' +
          'numbers are those of the version each view played; `version` narrows the figures to one version.',
        params: demoParams,
        querystring: analyticsQuery,
        response: { 200: dataEnvelope(analyticsSchema), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      return ok(
        request,
        await views.analytics(callerOf(request), request.params.id, {
          startDate: q.start_date,
          endDate: q.end_date,
          granularity: q.granularity,
          version: q.version,
        }),
      );
    },
  );
}
