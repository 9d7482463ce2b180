// GET/POST /v1/demos/:id/chapters, PATCH/DELETE /v1/demos/:id/chapters/:chapter_id: the chapters of a story.
import { z } from 'zod';
import { dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { chapterParams, chapterSchema, createChapterBody, patchChapterBody, toChapter } from './chapters.schemas';
import { demoParams, demoRouteErrors } from './demo-fields.schemas';

const tags = ['Demo editor'];
const errors = { ...demoRouteErrors, 409: errorEnvelope };

export function chaptersRoutes(app: ZodApp, ctx: ModuleContext<Services['demos']>) {
  const { chapters } = ctx.services;

  // GET /v1/demos/:id/chapters — the chapters in order, with their steps
  app.get(
    '/demos/:id/chapters',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'List chapters',
        description: 'The demo’s chapters in menu order, each with the numbers of its steps.',
        params: demoParams,
        response: { 200: dataEnvelope(z.array(chapterSchema)), ...errors },
      },
    },
    async (request) => {
      const found = await chapters.list(callerOf(request), request.params.id);
      return ok(
        request,
        found.chapters.map((c) => toChapter(c, found.steps)),
      );
    },
  );

  // POST /v1/demos/:id/chapters — add a chapter
  app.post(
    '/demos/:id/chapters',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Add a chapter',
        description:
          'A chapter groups steps for a chapter menu (a `chapter_menu` step whose buttons have `chapter` actions). Steps ' +
          'join it by their `chapter_id` (PATCH /v1/demos/{id}/steps/{step_id}). Added last unless `number` says where.',
        params: demoParams,
        body: createChapterBody,
        response: { 201: dataEnvelope(chapterSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { chapter, steps } = await chapters.create(callerOf(request), request.params.id, request.body);
      reply.code(201);
      return ok(request, toChapter(chapter, steps));
    },
  );

  // PATCH /v1/demos/:id/chapters/:chapter_id — rename or move a chapter
  app.patch(
    '/demos/:id/chapters/:chapter_id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Edit a chapter',
        description: 'Changes its title, description or place among the chapters.',
        params: chapterParams,
        body: patchChapterBody,
        response: { 200: dataEnvelope(chapterSchema), ...errors },
      },
    },
    async (request) => {
      const { id, chapter_id } = request.params;
      const { chapter, steps } = await chapters.update(callerOf(request), id, chapter_id, request.body);
      return ok(request, toChapter(chapter, steps));
    },
  );

  // DELETE /v1/demos/:id/chapters/:chapter_id — delete a chapter; its steps stay
  app.delete(
    '/demos/:id/chapters/:chapter_id',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Delete a chapter',
        description:
          'Its steps stay where they are, outside any chapter. Buttons and hotspots whose `chapter` action named it are ' +
          'kept and reported in the demo’s `story_problems` (`dangling_target`) until they are pointed elsewhere: the ' +
          'demo cannot be published until then.',
        params: chapterParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await chapters.remove(callerOf(request), request.params.id, request.params.chapter_id);
      return reply.code(204).send(null);
    },
  );
}
