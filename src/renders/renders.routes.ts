// The renders API: ask for a video or GIF of a published demo, follow it, cancel it, download it.
import { bytesResponse, dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import { demoParams } from '../demos/demo-fields.schemas';
import type { ModuleContext, Services } from '../module';
import { LIMITS, listRendersQuery, MEDIA_TYPES, renderBody, renderListEnvelope, renderParams, renderSchema, toRender } from './renders.schemas';

const tags = ['Renders'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const guide = 'docs/video.md.';

export function rendersRoutes(app: ZodApp, ctx: ModuleContext<Services['renders']>) {
  const { renders } = ctx.services;

  // POST /v1/demos/:id/renders — ask for a video or GIF of the published demo
  app.post(
    '/demos/:id/renders',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Render a demo to MP4 or GIF',
        description:
          'Queues a render of the **published** version: headless Chromium plays it in the real player at `width`×`height`, a cursor ' +
          'glides to each step’s hotspot, the hotspot is highlighted and clicked, the step’s title and text show as a caption; each step lasts ' +
          '`pace`, so the video lasts steps × pace. ffmpeg encodes it: MP4 is H.264 (yuv420p, faststart, 20 fps), GIF 10 fps with its own palette. ' +
          '202 with the render (`status: queued`); follow it with GET until `succeeded`, then download `file_url`. ' +
          `400 for sizes out of range, odd sizes, a GIF over ${LIMITS.gifMax.width}×${LIMITS.gifMax.height} or a video over ${LIMITS.maxDurationMs / 60000} minutes (details name the field); ` +
          '409 `conflict` when the demo is not published; ' +
          `429 when ${LIMITS.activePerWorkspace} renders are already queued or running in the workspace; ` +
          '503 `ffmpeg_missing` when the server has no ffmpeg (FFMPEG_PATH), 503 `unavailable` when it has no Chromium. ' +
          `Each demo keeps its ${LIMITS.keepPerDemo} newest finished renders. ${guide}`,
        params: demoParams,
        body: renderBody,
        response: { 202: dataEnvelope(renderSchema), ...errors, 409: errorEnvelope, 503: errorEnvelope },
      },
    },
    async (request, reply) => {
      const row = await renders.request(callerOf(request), request.params.id, request.body);
      reply.code(202).header('location', `/v1/demos/${row.demoId}/renders/${row.id}`);
      return ok(request, toRender(row));
    },
  );

  // GET /v1/demos/:id/renders — the demo's renders, newest first
  app.get(
    '/demos/:id/renders',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'List a demo’s renders',
        description: `Every render of the demo still kept (queued, running, succeeded, failed, cancelled), newest first. ${guide}`,
        params: demoParams,
        querystring: listRendersQuery,
        response: { 200: renderListEnvelope, ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => renders.list(callerOf(request), request.params.id, range),
        ({ rows }) => rows.map(toRender),
      ),
  );

  // GET /v1/demos/:id/renders/:render_id — one render: status and progress
  app.get(
    '/demos/:id/renders/:render_id',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a render',
        description: `Its \`status\` (queued → running → succeeded | failed | cancelled) and \`progress\` (0..1, written about every second while running). ${guide}`,
        params: renderParams,
        response: { 200: dataEnvelope(renderSchema), ...errors },
      },
    },
    async (request) => ok(request, toRender(await renders.get(callerOf(request), request.params.id, request.params.render_id))),
  );

  // DELETE /v1/demos/:id/renders/:render_id — cancel a render in progress, or delete a finished one
  app.delete(
    '/demos/:id/renders/:render_id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Cancel or delete a render',
        description:
          'A queued or running render is cancelled: its Chromium and ffmpeg are killed (at once on the worker that runs it in this process, ' +
          'within about a second on another) and it stays listed as `cancelled`. A finished one (succeeded, failed, cancelled) is deleted with its file. ' +
          `204 either way. ${guide}`,
        params: renderParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await renders.cancelOrDelete(callerOf(request), request.params.id, request.params.render_id);
      return reply.code(204).send(null);
    },
  );

  // GET /v1/demos/:id/renders/:render_id/file — download the video or GIF
  app.get(
    '/demos/:id/renders/:render_id/file',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Download a render',
        description:
          '`video/mp4` or `image/gif`, as an attachment named after the demo id and the render’s date. 409 `conflict` until the render has succeeded. ' +
          guide,
        params: renderParams,
        response: { 200: bytesResponse('The video (MP4) or animated GIF.', Object.values(MEDIA_TYPES)), ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const { id, render_id } = request.params;
      const file = await renders.file(callerOf(request), id, render_id);
      const day = file.createdAt.toISOString().slice(0, 10);
      return reply
        .type(MEDIA_TYPES[file.format])
        .header('content-disposition', `attachment; filename="${id}-${day}.${file.format}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.bytes);
    },
  );
}
