// /v1/hubs: a workspace's hubs (create, list, read, change, delete) and their analytics.
import { z } from 'zod';
import { actorOf } from '../audit/actor';
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate, paginationQuery } from '../core/pagination';
import { DATE_FILTER_RANGE_TEXT, dateFilter, resolveDateRange } from '../core/time';
import { hubAnalyticsSchema, toHubAnalytics } from './hub-analytics.schemas';
import { createHubBody, hubDetailSchema, hubParams, hubSchema, patchHubBody, toHub, toHubDetail, toHubInput } from './hubs.schemas';

const tags = ['Hubs'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

const analyticsQuery = z
  .object({
    start_date: dateFilter.optional().meta({ description: `First day (UTC, inclusive). Default: 30 days before end_date. ${DATE_FILTER_RANGE_TEXT}` }),
    end_date: dateFilter.optional().meta({ description: `Last day (UTC, inclusive). Default: now. ${DATE_FILTER_RANGE_TEXT}` }),
  })
  .strict();

export function hubsRoutes(app: ZodApp, ctx: ModuleContext<Services['hubs']>) {
  const { hubs, analytics } = ctx.services;
  // On the workspace's verified custom domain when it has one (core/public-origins.ts), like its links.
  const urlsOf = (request: { auth?: { workspaceId: string } }) => ctx.origins.shareUrls(callerOf(request).workspaceId);

  // POST /v1/hubs — create a hub
  app.post(
    '/hubs',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Create a demo hub',
        description:
          'A branded page of demos in collections (docs/hubs.md), with the gates of a link: `password`, ' +
          '`require_identification` or a lead form (`lead_fields`), allow-lists, `expires_at`. It starts empty: add ' +
          'collections, then entries. Brand (logo, colour, font) is the workspace’s.',
        body: createHubBody,
        response: { 201: dataEnvelope(hubSchema), ...errors },
      },
    },
    async (request, reply) => {
      const hub = await hubs.create(callerOf(request), { ...toHubInput(request.body), name: request.body.name }, actorOf(request));
      reply.code(201);
      return ok(request, toHub(hub, await urlsOf(request)));
    },
  );

  // GET /v1/hubs — the workspace's hubs
  app.get(
    '/hubs',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'List demo hubs',
        description: 'Newest first.',
        querystring: paginationQuery.strict(),
        response: { 200: listEnvelope(hubSchema), ...errors },
      },
    },
    async (request) => {
      const urls = await urlsOf(request);
      return paginate(
        request,
        (range) => hubs.list(callerOf(request), range),
        (loaded) => loaded.rows.map((h) => toHub(h, urls)),
      );
    },
  );

  // GET /v1/hubs/:id — one hub with its collections and entries
  app.get(
    '/hubs/:id',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'Get a demo hub',
        description: 'The hub with its collections and their entries, in order.',
        params: hubParams,
        response: { 200: dataEnvelope(hubDetailSchema), ...errors },
      },
    },
    async (request) => {
      const { hub, collections, entries } = await hubs.detail(callerOf(request), request.params.id);
      return ok(request, toHubDetail(hub, collections, entries, await urlsOf(request)));
    },
  );

  // PATCH /v1/hubs/:id — change a hub (its gates reach every entry's link at once)
  app.patch(
    '/hubs/:id',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Change a demo hub',
        description:
          'Only the fields sent change. A change of the gates is written to every entry’s link in the same ' +
          'transaction; a new password (or `password: null`) makes viewers who unlocked before enter it again.',
        params: hubParams,
        body: patchHubBody,
        response: { 200: dataEnvelope(hubSchema), ...errors },
      },
    },
    async (request) => ok(request, toHub(await hubs.update(callerOf(request), request.params.id, toHubInput(request.body), actorOf(request)), await urlsOf(request))),
  );

  // DELETE /v1/hubs/:id — delete a hub and revoke its entries' links
  app.delete(
    '/hubs/:id',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Delete a demo hub',
        description: 'The hub page answers 404 from now on and its entries’ links are revoked; the views they counted stay.',
        params: hubParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await hubs.remove(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // GET /v1/hubs/:id/analytics — visits, demos opened, views and completions
  app.get(
    '/hubs/:id/analytics',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Demo hub analytics',
        description:
          'Visits (viewer sessions on the hub), demos opened from it, and the views and completions of its entries ' +
          '(they count for their demos too), in total, per entry and per UTC day; the latest identified visitors with ' +
          'their lead-form answers. Members’ own visits and views are left out.',
        params: hubParams,
        querystring: analyticsQuery,
        response: { 200: dataEnvelope(hubAnalyticsSchema), ...errors },
      },
    },
    async (request) => {
      const range = resolveDateRange(request.query.start_date, request.query.end_date);
      return ok(request, toHubAnalytics(await analytics.figures(callerOf(request), request.params.id, range)));
    },
  );
}
