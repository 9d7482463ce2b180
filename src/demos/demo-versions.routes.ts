import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, listEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import { demoParams, demoRouteErrors } from './demo-fields.schemas';
import { demoUrls, type UrlBuilder, demoDetailSchema, toDemoDetail } from './demos.schemas';
import {
  demoVersionSchema,
  listVersionsQuery,
  toDemoVersion,
  toVersionChanges,
  versionChangesQuery,
  versionChangesSchema,
  versionParams,
} from './demo-versions.schemas';

const tags = ['Demos'];
const errors = demoRouteErrors;
const storyErrorEnvelope = errorEnvelope.meta({
  description: 'The story has problems (GET /v1/demos/{id} `story_problems`): `details` has one entry per problem, naming its step.',
});

/** Publishing a demo's draft, its version history, and restoring a version into the draft. */
export function demoVersionsRoutes(app: ZodApp, ctx: ModuleContext<Services['demos']>) {
  const { demos, versions } = ctx.services;
  // share_url on the workspace's custom domain once verified (kernel.origins), else on APP_URL.
  const urlsOf = async (request: { auth?: { workspaceId: string } }) =>
    demoUrls(ctx.config.API_URL ?? ctx.config.APP_URL, await ctx.origins.of(callerOf(request).workspaceId));
  const detail = (found: Awaited<ReturnType<typeof demos.get>>, urls: UrlBuilder) => toDemoDetail(found, urls);

  // POST /v1/demos/:id/publish — the draft becomes the version viewers see
  app.post(
    '/demos/:id/publish',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Publish a demo’s changes',
        description:
          'Edits to a published demo change its draft; viewers keep the published version until this ' +
          'call freezes the draft as the next version (`published_version`) and serves it. On a draft demo ' +
          'it publishes, as PATCH with status `published` does. Nothing changes when the draft is the ' +
          'published version already (`has_unpublished_changes` false). 409 while generating, when ' +
          'archived, or without steps. 422 `validation_error` while the story has problems (`story_problems` of the ' +
          'demo: unreachable steps, dangling targets...), each named in `details`. Emits `demo.published`.',
        params: demoParams,
        response: { 200: dataEnvelope(demoDetailSchema), ...errors, 409: errorEnvelope, 422: storyErrorEnvelope },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await versions.publish(auth, request.params.id, actorOf(request));
      return ok(request, detail(await demos.get(auth, request.params.id), await urlsOf(request)));
    },
  );

  // GET /v1/demos/:id/versions — the publishes of a demo, newest first
  app.get(
    '/demos/:id/versions',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'List a demo’s versions',
        description:
          'One version per publish, newest first, with who published and when. The newest is the one ' +
          'viewers are served while the demo is published; unpublishing keeps the history.',
        params: demoParams,
        querystring: listVersionsQuery,
        response: { 200: listEnvelope(demoVersionSchema), ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => versions.list(callerOf(request), request.params.id, range),
        ({ rows }) => rows.map(toDemoVersion),
      ),
  );

  // GET /v1/demos/:id/versions/:version/changes — what changed since a version
  app.get(
    '/demos/:id/versions/:version/changes',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Compare a version with the draft or the live version',
        description:
          'Step by step, what the current draft (`against=draft`, the default) or the version viewers are ' +
          'served (`against=live`) changed from the given version: steps added, removed, reordered, their ' +
          'title, description, image and hotspot changes, and the demo title. Steps are matched by id. ' +
          '404 for a version the demo does not have; 409 for `against=live` when the demo is not published.',
        params: versionParams,
        querystring: versionChangesQuery,
        response: { 200: dataEnvelope(versionChangesSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => {
      const { id, version } = request.params;
      const diff = await versions.changes(callerOf(request), id, version, request.query.against);
      return ok(request, toVersionChanges(version, diff));
    },
  );

  // POST /v1/demos/:id/versions/:version/restore — copy a version back into the draft
  app.post(
    '/demos/:id/versions/:version/restore',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Restore a version into the draft',
        description:
          'The version’s title, configuration, steps and hotspots replace the draft’s (steps of the ' +
          'draft that the version lacks are deleted). It does not publish: viewers see the change once ' +
          'POST /v1/demos/:id/publish is called. 404 for a version the demo does not have; 409 while generating.',
        params: versionParams,
        response: { 200: dataEnvelope(demoDetailSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await versions.restore(auth, request.params.id, request.params.version);
      return ok(request, detail(await demos.get(auth, request.params.id), await urlsOf(request)));
    },
  );
}
