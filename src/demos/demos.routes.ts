import { actorOf } from '../audit/actor';
import { z } from 'zod';
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, noContent, ok, sendSerializedData } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { cursorListEnvelope, paginateByKeyset } from '../core/pagination';
import { demoRouteErrors, demoParams } from './demo-fields.schemas';
import { demoUrls, type UrlBuilder, createDemoBody, regenerateBody, demoDetailSchema, demoSchema, listDemosQuery, patchDemoBody, toDemo, toDemoDetail, toCreateDemoInput } from './demos.schemas';

const tags = ['Demos'];
const errors = demoRouteErrors;

export function demosRoutes(app: ZodApp, ctx: ModuleContext<Services['demos']>) {
  const { demos } = ctx.services;
  // share_url on the workspace's custom domain once verified (kernel.origins), else on APP_URL.
  const urlsOf = async (request: { auth?: { workspaceId: string } }) =>
    demoUrls(ctx.config.API_URL ?? ctx.config.APP_URL, await ctx.origins.of(callerOf(request).workspaceId));
  const detail = (found: Awaited<ReturnType<typeof demos.get>>, urls: UrlBuilder) => toDemoDetail(found, urls);

  // GET /v1/demos — a page of the workspace's demos, newest first
  app.get(
    '/demos',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'List demos',
        description: 'Newest first; `search` matches title or source URL, case-insensitively.',
        querystring: listDemosQuery,
        response: { 200: cursorListEnvelope(demoSchema), ...errors },
      },
    },
    async (request) => {
      const { status, search } = request.query;
      const urls = await urlsOf(request);
      return paginateByKeyset(
        request,
        (window) => demos.list(callerOf(request), { status, search }, window),
        (r) => ({ at: r.demo.createdAt, id: r.demo.id }),
        ({ rows }) => rows.map((r) => toDemo(r.demo, r.stepCount, urls, r.shareToken, r.latestVersion)),
      );
    },
  );

  // GET /v1/demos/:id — one demo with its steps, hotspots and configuration
  app.get(
    '/demos/:id',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a demo',
        description: 'Includes steps (in order), hotspots and configuration.',
        params: demoParams,
        response: { 200: dataEnvelope(demoDetailSchema), ...errors },
      },
    },
    async (request, reply) => {
      // Rendered as the serializer would (same schema, same encoding), once per revision of the demo.
      const urls = await urlsOf(request);
      const data = await demos.getRendered(callerOf(request), request.params.id, (found) =>
        JSON.stringify(z.encode(demoDetailSchema, detail(found, urls))),
      );
      return sendSerializedData(request, reply, data);
    },
  );

  // POST /v1/demos — create a demo, or start generating one from source_url
  app.post(
    '/demos',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Create a demo',
        description:
          'Without generate_with_ai the demo starts as `draft`. With it the answer comes ' +
          'at once with status `generating`; poll GET /v1/demos/:id until it is `draft` (see `generation`). ' +
          'Generation is rate-limited per workspace (429).',
        body: createDemoBody,
        response: { 201: dataEnvelope(demoDetailSchema), ...errors },
      },
    },
    async (request, reply) => {
      const found = await demos.create(callerOf(request), toCreateDemoInput(request.body));
      reply.code(201);
      return ok(request, detail(found, await urlsOf(request)));
    },
  );

  // PATCH /v1/demos/:id — rename, change status, change configuration
  app.patch(
    '/demos/:id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Update a demo',
        description:
          'Status moves: draft → published (needs a step), published → draft, ' +
          'draft|published → archived, archived → draft; others, and any move of a generating demo, are 409. ' +
          'Setting the current status again changes nothing. Publishing a story with problems (`story_problems`) is 422.',
        params: demoParams,
        body: patchDemoBody,
        response: {
          200: dataEnvelope(demoDetailSchema),
          ...errors,
          409: errorEnvelope,
          422: errorEnvelope.meta({ description: 'Publishing a story that has problems (`story_problems`), each named in `details`.' }),
        },
      },
    },
    async (request) => ok(request, detail(await demos.update(callerOf(request), request.params.id, request.body, actorOf(request)), await urlsOf(request))),
  );

  // DELETE /v1/demos/:id — delete a demo with its steps, assets and share links
  app.delete(
    '/demos/:id',
    {
      config: { permission: 'demos.delete' },
      schema: {
        tags,
        summary: 'Delete a demo',
        description: 'Its steps, hotspots, images and share links go with it.',
        params: demoParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await demos.remove(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // POST /v1/demos/:id/generate — capture source_url again and replace the steps
  app.post(
    '/demos/:id/generate',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Generate a demo again',
        description:
          'Answers 202 with status `generating`; the steps are replaced when generation ' +
          'succeeds and kept when it fails. With `keep_edited_steps: true` the steps a person made or ' +
          'changed (`edited_at` set) stay, at their numbers where they can, and only the others are ' +
          'replaced; the new steps fill the other places in order, and any left over follow at the end. ' +
          'The body is optional. 409 while generating or published.',
        params: demoParams,
        body: regenerateBody,
        response: { 202: dataEnvelope(demoDetailSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const found = await demos.regenerate(callerOf(request), request.params.id, { keepEditedSteps: request.body?.keep_edited_steps });
      reply.code(202);
      return ok(request, detail(found, await urlsOf(request)));
    },
  );
}
