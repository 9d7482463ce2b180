import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { idSchema } from '../core/ids';
import { demoParams } from '../demos/demo-fields.schemas';
import type { ModuleContext, Services } from '../module';
import { toView, viewSchema } from '../viewing/views.schemas';
import { z } from 'zod';
import {
  analyticsSchema,
  companyAnalyticsSchema,
  demoAnalyticsQuery,
  journeySchema,
  linkAnalyticsSchema,
  pathAnalyticsQuery,
  pathAnalyticsSchema,
  rangeQuery,
  toAnalyticsRange,
  UNIQUE_VIEWERS_TEXT,
  workspaceAnalyticsQuery,
  workspaceAnalyticsSchema,
} from './analytics.schemas';

const tags = ['Views and analytics'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const RANGE_TEXT =
  'Every figure uses the same range: whole UTC days, a view counting on the day it started (and its ' +
  'completion with it); an end before the start is a 400 naming both. Internal traffic is left out unless ' +
  '`include_internal=true`.';

/** The analytics routes: the workspace overview, a demo's figures, per link, per company, and one view's journey. */
export function analyticsRoutes(app: ZodApp, ctx: ModuleContext<Services['analytics']>) {
  const { analytics } = ctx.services;

  // GET /v1/analytics — the workspace overview
  app.get(
    '/analytics',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Workspace analytics',
        description: `Totals over every demo of the workspace, an optional series, and the ten demos with the most views. ${RANGE_TEXT} ${UNIQUE_VIEWERS_TEXT}`,
        querystring: workspaceAnalyticsQuery,
        response: { 200: dataEnvelope(workspaceAnalyticsSchema), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      return ok(request, await analytics.workspace(callerOf(request), { ...toAnalyticsRange(q), granularity: q.granularity }));
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
          'completion_rate = completed views / views; avg_time_seconds = mean view duration; per step: views ' +
          'that reached it, mean seconds on it, and the share of those views that ended there without ' +
          `completing. ${RANGE_TEXT} ${UNIQUE_VIEWERS_TEXT} \`series\` (with \`granularity\`) has one entry per ` +
          'period of the range, empty ones included (from the first to the last day with views when no bounds ' +
          'are given; at most 3660 periods, else a 400). Step numbers are those of the version each view ' +
          'played; `version` narrows the figures to one version.',
        params: demoParams,
        querystring: demoAnalyticsQuery,
        response: { 200: dataEnvelope(analyticsSchema), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const query = { ...toAnalyticsRange(q), granularity: q.granularity, version: q.version };
      return ok(request, await analytics.demo(callerOf(request), request.params.id, query));
    },
  );

  // GET /v1/demos/:id/analytics/paths — chapters, paths, branches, calls to action and forms
  app.get(
    '/demos/:id/analytics/paths',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Demo analytics by path',
        description:
          'How viewers went through an interactive demo, from the path events the player sends (chapter_selected, ' +
          'action_taken, cta_clicked, form_shown/started/submitted): chapters chosen and each chapter’s funnel, the ' +
          'paths of chapters, hotspots and buttons used, calls to action clicked, lead-form conversion. `views` ' +
          'figures count a view once, `choices` and `clicks` count events. Names (titles, labels, targets) come ' +
          'from the `version` asked for, else the version viewers are served now, else the other versions played; ' +
          `null when none has the thing. ${RANGE_TEXT} Step numbers are those of the version each view played.`,
        params: demoParams,
        querystring: pathAnalyticsQuery,
        response: { 200: dataEnvelope(pathAnalyticsSchema), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      return ok(request, await analytics.paths(callerOf(request), request.params.id, { ...toAnalyticsRange(q), version: q.version }));
    },
  );

  // GET /v1/demos/:id/analytics/links — per share link
  app.get(
    '/demos/:id/analytics/links',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Demo analytics per share link',
        description: `Every link of the demo with at least one view in the range, most viewed first. ${RANGE_TEXT}`,
        params: demoParams,
        querystring: rangeQuery,
        response: { 200: dataEnvelope(z.array(linkAnalyticsSchema)), ...errors },
      },
    },
    async (request) => ok(request, await analytics.links(callerOf(request), request.params.id, toAnalyticsRange(request.query))),
  );

  // GET /v1/demos/:id/analytics/companies — identified viewers by e-mail domain
  app.get(
    '/demos/:id/analytics/companies',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Demo analytics per company',
        description:
          'Identified views grouped by the domain of the viewer’s e-mail address as the view started; free-mail ' +
          'domains (gmail.com, outlook.com…) are grouped in one `individuals` row. Anonymous views are not ' +
          `counted here. Most viewed first. ${RANGE_TEXT}`,
        params: demoParams,
        querystring: rangeQuery,
        response: { 200: dataEnvelope(z.array(companyAnalyticsSchema)), ...errors },
      },
    },
    async (request) => ok(request, await analytics.companies(callerOf(request), request.params.id, toAnalyticsRange(request.query))),
  );

  // GET /v1/demos/:id/views/:view_id/journey — one viewer's path
  app.get(
    '/demos/:id/views/:view_id/journey',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'A view’s journey',
        description:
          'One view with its steps in the order reached and the seconds on each, and the same viewer’s other ' +
          'views of the workspace’s demos (by e-mail address).',
        params: demoParams.extend({ view_id: idSchema('view') }),
        response: { 200: dataEnvelope(journeySchema(viewSchema)), ...errors },
      },
    },
    async (request) => {
      const { view, stepRows, ...rest } = await analytics.journey(callerOf(request), request.params.id, request.params.view_id);
      return ok(request, { view: toView(view, [...stepRows].sort((a, b) => a.stepNumber - b.stepNumber)), ...rest });
    },
  );
}
