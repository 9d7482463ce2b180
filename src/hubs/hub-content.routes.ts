// /v1/hubs/:id/collections and /v1/hubs/:id/entries: a hub's sections and its demos, their order and covers.
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { invalid } from '../core/errors';
import { acceptImageBodies } from '../core/http/content-type';
import { callerOf, type ZodApp } from '../core/http/types';
import { IMAGE_TYPES } from '../core/image-sniff';
import {
  COVER_MAX_BYTES,
  collectionOutSchema,
  collectionParams,
  createCollectionBody,
  createEntryBody,
  entryParams,
  entrySchema,
  hubParams,
  patchCollectionBody,
  patchEntryBody,
  toCollectionOut,
  toEntry,
} from './hubs.schemas';

const tags = ['Hubs'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const config = { permission: 'shares.write' } as const;

export function hubContentRoutes(app: ZodApp, ctx: ModuleContext<Services['hubs']>) {
  const { content } = ctx.services;
  acceptImageBodies(app, IMAGE_TYPES);

  // POST /v1/hubs/:id/collections — add a collection (a tab and section of the hub)
  app.post(
    '/hubs/:id/collections',
    {
      config,
      schema: {
        tags,
        summary: 'Add a hub collection',
        description: 'Collections are the hub’s tabs and sections, in `position` order (0 first). The others move to make room.',
        params: hubParams,
        body: createCollectionBody,
        response: { 201: dataEnvelope(collectionOutSchema), ...errors },
      },
    },
    async (request, reply) => {
      const created = await content.addCollection(callerOf(request), request.params.id, request.body);
      reply.code(201);
      return ok(request, toCollectionOut(created));
    },
  );

  // PATCH /v1/hubs/:id/collections/:collection_id — rename or move a collection
  app.patch(
    '/hubs/:id/collections/:collection_id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a hub collection',
        params: collectionParams,
        body: patchCollectionBody,
        response: { 200: dataEnvelope(collectionOutSchema), ...errors },
      },
    },
    async (request) =>
      ok(request, toCollectionOut(await content.updateCollection(callerOf(request), request.params.id, request.params.collection_id, request.body))),
  );

  // DELETE /v1/hubs/:id/collections/:collection_id — remove a collection and its entries
  app.delete(
    '/hubs/:id/collections/:collection_id',
    {
      config,
      schema: {
        tags,
        summary: 'Remove a hub collection',
        description: 'Its entries go with it and their links are revoked.',
        params: collectionParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await content.removeCollection(callerOf(request), request.params.id, request.params.collection_id);
      return reply.code(204).send(null);
    },
  );

  // POST /v1/hubs/:id/entries — put a demo on the hub
  app.post(
    '/hubs/:id/entries',
    {
      config,
      schema: {
        tags,
        summary: 'Add a demo to a hub',
        description:
          'The hub makes a link for the entry (`share_id`, marked with the hub’s id, carrying the hub’s gates): views ' +
          'through the hub count for the demo and for the hub, and an A/B test set on that link applies on the hub. ' +
          'The card shows while the demo is published.',
        params: hubParams,
        body: createEntryBody,
        response: { 201: dataEnvelope(entrySchema), ...errors },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const created = await content.addEntry(callerOf(request), request.params.id, {
        demoId: body.demo_id,
        collectionId: body.collection_id,
        title: body.title,
        description: body.description,
        position: body.position,
      });
      reply.code(201);
      return ok(request, toEntry(created));
    },
  );

  // PATCH /v1/hubs/:id/entries/:entry_id — change an entry's text, collection or place
  app.patch(
    '/hubs/:id/entries/:entry_id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a hub entry',
        description: 'Moving to another collection puts it last there unless `position` says otherwise.',
        params: entryParams,
        body: patchEntryBody,
        response: { 200: dataEnvelope(entrySchema), ...errors },
      },
    },
    async (request) => {
      const { body } = request;
      const updated = await content.updateEntry(callerOf(request), request.params.id, request.params.entry_id, {
        collectionId: body.collection_id,
        title: body.title,
        description: body.description,
        position: body.position,
      });
      return ok(request, toEntry(updated));
    },
  );

  // DELETE /v1/hubs/:id/entries/:entry_id — take a demo off the hub
  app.delete(
    '/hubs/:id/entries/:entry_id',
    {
      config,
      schema: { tags, summary: 'Remove a hub entry', description: 'Its link is revoked.', params: entryParams, response: { 204: noContent, ...errors } },
    },
    async (request, reply) => {
      await content.removeEntry(callerOf(request), request.params.id, request.params.entry_id);
      return reply.code(204).send(null);
    },
  );

  // PUT /v1/hubs/:id/entries/:entry_id/cover — upload an entry's cover image as the raw body
  app.put(
    '/hubs/:id/entries/:entry_id/cover',
    {
      config: { ...config, accepts: IMAGE_TYPES },
      bodyLimit: COVER_MAX_BYTES,
      schema: {
        tags,
        summary: 'Upload a hub entry’s cover',
        description:
          `The body is the image: PNG, JPEG or WebP (read from its bytes), at most ${COVER_MAX_BYTES / 1024} KB; shown ` +
          'at 16:9. Covers are public to whoever holds the hub’s address, as a link’s preview image is.',
        params: entryParams,
        response: { 200: dataEnvelope(entrySchema), ...errors, 413: errorEnvelope, 415: errorEnvelope },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) throw invalid('Send the cover as the raw body with Content-Type image/png, image/jpeg or image/webp');
      return ok(request, toEntry(await content.setCover(callerOf(request), request.params.id, request.params.entry_id, request.body)));
    },
  );

  // DELETE /v1/hubs/:id/entries/:entry_id/cover — back to the default cover
  app.delete(
    '/hubs/:id/entries/:entry_id/cover',
    {
      config,
      schema: { tags, summary: 'Remove a hub entry’s cover', params: entryParams, response: { 204: noContent, ...errors } },
    },
    async (request, reply) => {
      await content.removeCover(callerOf(request), request.params.id, request.params.entry_id);
      return reply.code(204).send(null);
    },
  );
}
