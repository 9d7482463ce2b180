import type { ModuleContext, Services } from '../module';
import { bytesResponse, dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { invalid } from '../core/errors';
import { callerOf, type ZodApp } from '../core/http/types';
import { assetParams, demoRouteErrors, demoParams, hotspotParams, stepParams } from './demo-fields.schemas';
import { demoUrls, demoUrlsOf, demoDetailSchema, toDemoDetail } from './demos.schemas';
import { createHotspotBody, hotspotSchema, patchHotspotBody, toHotspot } from './hotspots.schemas';
import { createStepBody, patchStepBody, replaceStepsBody, stepSchema, toStep, toStepInput } from './steps.schemas';
import { ASSET_TYPES, IMAGE_TYPES } from '../core/image-sniff';
import { parseBody } from '../core/http/body-validation';
import { acceptImageBodies } from '../core/http/content-type';
import { patchedAssetQuery } from './page-patches.schemas';

const tags = ['Demo editor'];
const numbersOf = (all: { id: string; position: number }[]) => new Map(all.map((s) => [s.id, s.position]));
const errors = { ...demoRouteErrors, 409: errorEnvelope };
const uploadErrors = { ...errors, 413: errorEnvelope, 415: errorEnvelope };

export function stepsRoutes(app: ZodApp, ctx: ModuleContext<Services['demos']>) {
  const { demos, steps } = ctx.services;
  const urls = demoUrlsOf(ctx.config);
  const imageRoute = { accepts: IMAGE_TYPES };
  const bodyLimit = ctx.config.STEP_IMAGE_MAX_BYTES;

  acceptImageBodies(app, IMAGE_TYPES);

  // PUT /v1/demos/:id/steps — reorder, delete and add steps by sending the new list
  app.put(
    '/demos/:id/steps',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Replace the list of steps',
        description:
          'The list becomes the demo’s steps in that order: steps left out are deleted ' +
          '(with their hotspots and images), objects without an id are new blank steps. Answers the demo.',
        params: demoParams,
        body: replaceStepsBody,
        response: { 200: dataEnvelope(demoDetailSchema), ...errors },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await steps.replaceSteps(auth, request.params.id, request.body.steps);
      const found = await demos.get(auth, request.params.id);
      // share_url on the workspace's custom domain once verified; step images stay on the API origin.
      return ok(request, toDemoDetail(found, demoUrls(ctx.config.API_URL ?? ctx.config.APP_URL, await ctx.origins.of(auth.workspaceId))));
    },
  );

  // POST /v1/demos/:id/steps — add a step: JSON for a blank one, or an image as the raw body
  app.post(
    '/demos/:id/steps',
    {
      config: { permission: 'demos.write', ...imageRoute },
      bodyLimit,
      schema: {
        tags,
        summary: 'Add a step',
        description:
          'Send JSON `{title?, description?, page_url?, number?, kind?, chapter_id?, content?, patches?, description_html?}` ' +
          'for a step without an image (a cover, a chapter menu, a form, an end screen, or a page to upload an image to), or a ' +
          'PNG, JPEG or WebP image as the raw body (Content-Type image/png, image/jpeg or image/webp, at most ' +
          'STEP_IMAGE_MAX_BYTES) for a step showing it. Added at the end unless `number` says where.',
        params: demoParams,
        response: { 201: dataEnvelope(stepSchema), ...uploadErrors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const input = Buffer.isBuffer(body) ? { image: body } : toStepInput(parseBody(createStepBody, body));
      const { step, steps: all } = await steps.createStep(callerOf(request), request.params.id, input);
      reply.code(201);
      return ok(request, toStep(step, urls, numbersOf(all)));
    },
  );

  // PATCH /v1/demos/:id/steps/:step_id — edit a step's text
  app.patch(
    '/demos/:id/steps/:step_id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Edit a step',
        description:
          'Changes the fields given: text, kind, chapter, content (buttons and form), page patches, rich text. Button ' +
          'actions are checked as hotspot actions (400 naming the field); a `form` step needs `content.form` and no ' +
          'other kind may have one (400 `content.form`). Nothing changes on a 400.',
        params: stepParams,
        body: patchStepBody,
        response: { 200: dataEnvelope(stepSchema), ...errors },
      },
    },
    async (request) => {
      const { step, steps: all } = await steps.updateStep(
        callerOf(request),
        request.params.id,
        request.params.step_id,
        toStepInput(request.body),
      );
      return ok(request, toStep(step, urls, numbersOf(all)));
    },
  );

  // DELETE /v1/demos/:id/steps/:step_id — delete a step; the later ones move up
  app.delete(
    '/demos/:id/steps/:step_id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Delete a step',
        description: 'A published demo keeps at least one step (409).',
        params: stepParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await steps.deleteStep(callerOf(request), request.params.id, request.params.step_id);
      return reply.code(204).send(null);
    },
  );

  // POST /v1/demos/:id/steps/:step_id/image — replace a step's image with the raw body
  app.post(
    '/demos/:id/steps/:step_id/image',
    {
      config: { permission: 'demos.write', ...imageRoute },
      bodyLimit,
      schema: {
        tags,
        summary: 'Upload a step image',
        description:
          'The body is the image itself (PNG, JPEG or WebP, at most STEP_IMAGE_MAX_BYTES); ' +
          'its type and size are read from its bytes. Hotspots keep their fractions.',
        params: stepParams,
        response: { 200: dataEnvelope(stepSchema), ...uploadErrors },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) {
        throw invalid('Send the image as the raw body with Content-Type image/png, image/jpeg or image/webp');
      }
      const step = await steps.setStepImage(callerOf(request), request.params.id, request.params.step_id, request.body);
      return ok(request, toStep(step, urls, await steps.stepNumbers(callerOf(request), request.params.id)));
    },
  );

  // POST /v1/demos/:id/steps/:step_id/hotspots — add a hotspot to a step
  app.post(
    '/demos/:id/steps/:step_id/hotspots',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Add a hotspot',
        description:
          'x, y, width and height are fractions of the step image; the box must lie inside ' +
          'it. action: `next` (default), `goto` with a step number or id, `chapter` with a chapter id, `url` (opened in a ' +
          'new tab) or `demo` with an http(s) address, `submit` (the step’s form; optionally a step to go to), `end`, ' +
          '`restart`. `tooltip_html` is sanitised rich text; `tooltip` becomes its plain text.',
        params: stepParams,
        body: createHotspotBody,
        response: { 201: dataEnvelope(hotspotSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { hotspot, steps: all } = await steps.createHotspot(
        callerOf(request),
        request.params.id,
        request.params.step_id,
        request.body,
      );
      reply.code(201);
      return ok(request, toHotspot(hotspot, numbersOf(all)));
    },
  );

  // PATCH /v1/demos/:id/steps/:step_id/hotspots/:hotspot_id — move, resize or relabel a hotspot
  app.patch(
    '/demos/:id/steps/:step_id/hotspots/:hotspot_id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Edit a hotspot',
        description: 'The resulting box must lie inside the step image.',
        params: hotspotParams,
        body: patchHotspotBody,
        response: { 200: dataEnvelope(hotspotSchema), ...errors },
      },
    },
    async (request) => {
      const { id, step_id, hotspot_id } = request.params;
      const { hotspot, steps: all } = await steps.updateHotspot(callerOf(request), id, step_id, hotspot_id, request.body);
      return ok(request, toHotspot(hotspot, numbersOf(all)));
    },
  );

  // DELETE /v1/demos/:id/steps/:step_id/hotspots/:hotspot_id — remove a hotspot
  app.delete(
    '/demos/:id/steps/:step_id/hotspots/:hotspot_id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Delete a hotspot',
                params: hotspotParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      const { id, step_id, hotspot_id } = request.params;
      await steps.deleteHotspot(callerOf(request), id, step_id, hotspot_id);
      return reply.code(204).send(null);
    },
  );

  // GET /v1/demos/:id/assets/:asset_id — a step image or HTML snapshot, for the editor
  app.get(
    '/demos/:id/assets/:asset_id',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a demo asset',
        description:
          'The bytes of a step image or HTML snapshot. Assets never change, so the ETag ' +
          'is their SHA-256 and they may be cached privately. A snapshot asked for with `?patches=` (as a step\'s ' +
          '`html_url` has it) comes with the step\'s page patches applied; its ETag names the asset and the patches. ' +
          'A store of assets\' bytes that cannot be reached answers 503 `unavailable` with `Retry-After`; a blob the store no longer holds (lost data, logged as an error) answers 503 `unavailable` without it.',
        params: assetParams,
        querystring: patchedAssetQuery,
        response: {
          200: bytesResponse('The asset bytes', ASSET_TYPES),
          304: noContent,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      // With ?patches=: the snapshot with the draft step's page patches applied (page-patches.service.ts).
      const { id, asset_id } = request.params;
      const asset = await ctx.services.pagePatches.editorAsset(callerOf(request), id, asset_id, request.query.patches);
      const etag = asset.etag;
      reply.header('etag', etag);
      reply.header('cache-control', 'private, max-age=86400, immutable');
      // A snapshot is someone else's page: never let it run script on the API's origin.
      reply.header('content-security-policy', "sandbox; default-src 'none'; img-src * data:; style-src * 'unsafe-inline'; font-src * data:");
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return reply.type(asset.contentType).send(asset.bytes);
    },
  );
}
