import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { invalid } from '../core/errors';
import { acceptImageBodies } from '../core/http/content-type';
import { callerOf, type ZodApp } from '../core/http/types';
import { IMAGE_TYPES } from '../core/image-sniff';
import { demoParams, demoRouteErrors } from './demo-fields.schemas';
import { patchImageSchema } from './page-patches.schemas';

const tags = ['Demo editor'];

/** Routes of page patches of their own; the patched snapshot is served by GET /v1/demos/:id/assets/:asset_id (steps.routes.ts). */
export function pagePatchesRoutes(app: ZodApp, ctx: ModuleContext<Services['demos']>) {
  const { pagePatches } = ctx.services;
  acceptImageBodies(app, IMAGE_TYPES);

  // POST /v1/demos/:id/images — an image for `image` page patches, the raw body
  app.post(
    '/demos/:id/images',
    {
      config: { permission: 'demos.write', accepts: IMAGE_TYPES },
      bodyLimit: ctx.config.STEP_IMAGE_MAX_BYTES,
      schema: {
        tags,
        summary: 'Upload an image for page patches',
        description:
          'The body is the image itself (PNG, JPEG or WebP, at most STEP_IMAGE_MAX_BYTES; its type and size are read ' +
          'from its bytes). Stored with the demo; its `id` is the `value` of an `image` page patch (PATCH ' +
          '/v1/demos/{id}/steps/{step_id} with `patches`), which swaps an `<img>` of the captured page for it.',
        params: demoParams,
        response: { 201: dataEnvelope(patchImageSchema), ...demoRouteErrors, 413: errorEnvelope, 415: errorEnvelope },
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        throw invalid('Send the image as the raw body with Content-Type image/png, image/jpeg or image/webp');
      }
      const image = await pagePatches.uploadImage(callerOf(request), request.params.id, request.body);
      reply.code(201);
      return ok(request, image);
    },
  );
}
