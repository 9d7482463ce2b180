// The demo-file API: export a demo as a zip, import a zip as a new demo, push a zip onto the demo with its key, the key itself.
import { z } from 'zod';
import { actorOf } from '../audit/actor';
import { bytesResponse, dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { invalid } from '../core/errors';
import { callerOf, type ZodApp } from '../core/http/types';
import { demoParams, demoRouteErrors } from '../demos/demo-fields.schemas';
import { demoDetailSchema, demoUrlsOf, toDemoDetail } from '../demos/demos.schemas';
import type { ModuleContext, Services } from '../module';
import { SCHEMA_PATH } from './demo-document.schemas';
import { demoKeySchema, exportQuery, keyParams, pushQuery, pushResultSchema, setKeyBody, toContentVersion, toPushResult } from './demo-format.schemas';
import { demoJsonSchemaText } from './demo-json-schema';

const tags = ['Demo files'];
const ZIP = 'application/zip';
/** Clients and browsers send a zip under either name. */
const ZIP_TYPES = [ZIP, 'application/x-zip-compressed', 'application/octet-stream'];
const errors = { ...demoRouteErrors, 409: errorEnvelope };
/** The request body of import and push as the OpenAPI document shows it: the zip's bytes. */
const zipRequest = {
  consumes: ZIP_TYPES,
  body: z
    .custom<Buffer>((v) => Buffer.isBuffer(v), 'must be the zip itself')
    .meta({ type: 'string', format: 'binary', description: 'The demo file: a zip of demo.json and assets/<sha256>.<ext>.' }),
};
const uploadErrors = { ...errors, 413: errorEnvelope, 415: errorEnvelope, 422: errorEnvelope };
const uploadHelp =
  'The body is the zip itself (`Content-Type: application/zip`): `demo.json` and `assets/<sha256>.<ext>` (a zip of a folder ' +
  'holding them is read too). Older versions of demo.json are upgraded first. 422 `validation_error` when the document or an ' +
  'asset is refused: `details` names each place in the document (`steps[3].hotspots[0].action.target`) and nothing is written. ' +
  '413 beyond DEMO_ARCHIVE_MAX_BYTES, or when the archive declares more than DEMO_ARCHIVE_MAX_EXPANDED_BYTES unpacked or more ' +
  'files than a demo can use (checked before unpacking); 400 for a body that is not a readable zip. docs/demo-format.md.';

export function demoFormatRoutes(app: ZodApp, ctx: ModuleContext<Services['demoFormat']>) {
  const { demoFiles, demos } = ctx.services;
  const urls = demoUrlsOf(ctx.config);
  const bodyLimit = ctx.config.DEMO_ARCHIVE_MAX_BYTES;
  const missing = ZIP_TYPES.filter((type) => !app.hasContentTypeParser(type));
  if (missing.length > 0) app.addContentTypeParser(missing, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const zipBody = (body: unknown) => {
    if (!Buffer.isBuffer(body)) throw invalid('Send the demo file as the raw body with Content-Type application/zip');
    return body;
  };

  // GET /v1/demos/:id/export — the demo as a demo file (zip)
  app.get(
    '/demos/:id/export',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Export a demo file',
        description:
          'A zip of `demo.json` (the open format of docs/demo-format.md, JSON Schema at /schemas/demo/v1.json) and the images and ' +
          'page snapshots it names, as `assets/<sha256>.<ext>`. Everything the demo shows, nothing of its workspace (no views, ' +
          'links, members). The same content always gives the same bytes. 409 for `version=published` on a demo never published.',
        params: demoParams,
        querystring: exportQuery,
        response: { 200: bytesResponse('The demo file (zip).', [ZIP]), ...errors },
      },
    },
    async (request, reply) => {
      const { zip, filename } = await demoFiles.exportDemo(callerOf(request), request.params.id, toContentVersion(request.query.version));
      return reply
        .type(ZIP)
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(zip);
    },
  );

  // POST /v1/demos/import — a new demo from a demo file
  app.post(
    '/demos/import',
    {
      config: { permission: 'demos.write', accepts: ZIP_TYPES },
      bodyLimit,
      schema: {
        tags,
        summary: 'Import a demo file',
        ...zipRequest,
        description: `Creates a new draft demo with the file's content, in one transaction (all of it or nothing). A \`key\` in demo.json becomes the demo's key: 409 \`conflict\` (details \`key\`) when another demo of the workspace has it — push to update that one. ${uploadHelp}`,
        response: { 201: dataEnvelope(demoDetailSchema), ...uploadErrors },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const id = await demoFiles.importDemo(auth, zipBody(request.body));
      reply.code(201);
      return ok(request, toDemoDetail(await demos.get(auth, id), urls));
    },
  );

  // PUT /v1/demos/by-key/:key — create or update the demo with this key from a demo file
  app.put(
    '/demos/by-key/:key',
    {
      config: { permission: 'demos.write', accepts: ZIP_TYPES },
      bodyLimit,
      schema: {
        tags,
        summary: 'Push a demo file',
        ...zipRequest,
        description:
          'Creates the demo with this key (201), or makes its draft the file’s content (200), in one transaction. Idempotent: a file ' +
          'with the content the draft has already writes nothing (`outcome: unchanged`, no revision, no `demo.updated`). ' +
          '`?publish=true` publishes afterwards in the same transaction (a new version only when the content differs from the newest ' +
          'one; 422 when the story has problems, 409 when the demo is archived). A `key` in demo.json must be this one. Steps and ' +
          'chapters keep their ids by position. 409 while the demo is being generated. `?dry_run=true` runs every check and ' +
          'answers what the push would do (200, `dry_run: true`) without writing anything: a CI job can check a pull request with it. ' +
          uploadHelp,
        params: keyParams,
        querystring: pushQuery,
        response: { 200: dataEnvelope(pushResultSchema), 201: dataEnvelope(pushResultSchema), ...uploadErrors },
      },
    },
    async (request, reply) => {
      const result = await demoFiles.push(callerOf(request), request.params.key, zipBody(request.body), {
        publish: request.query.publish,
        actor: actorOf(request),
        dryRun: request.query.dry_run,
      });
      reply.code(result.outcome === 'created' && !request.query.dry_run ? 201 : 200);
      return ok(request, toPushResult(request.params.key, result, request.query.dry_run));
    },
  );

  // GET /v1/demos/:id/key — the demo's key
  app.get(
    '/demos/:id/key',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a demo’s key',
        description: 'The key demo files name the demo by (`demoshare demos push`), or null.',
        params: demoParams,
        response: { 200: dataEnvelope(demoKeySchema), ...errors },
      },
    },
    async (request) => ok(request, { demo_id: request.params.id, key: await demoFiles.keyOf(callerOf(request), request.params.id) }),
  );

  // PUT /v1/demos/:id/key — set or remove the demo's key
  app.put(
    '/demos/:id/key',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Set a demo’s key',
        description:
          'Gives a demo made in the editor a key, so that a demo file with that key pushes onto it (or null removes it). ' +
          '409 `conflict` (details `key`) when another demo of the workspace has it.',
        params: demoParams,
        body: setKeyBody,
        response: { 200: dataEnvelope(demoKeySchema), ...errors },
      },
    },
    async (request) =>
      ok(request, { demo_id: request.params.id, key: await demoFiles.setKey(callerOf(request), request.params.id, request.body.key) }),
  );
}

/** GET /schemas/demo/v1.json: the JSON Schema of demo.json, public, at a stable address of the instance. */
export function demoFormatPages(app: ZodApp) {
  // GET /schemas/demo/v1.json — the JSON Schema of demo.json version 1
  app.get(
    SCHEMA_PATH,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'JSON Schema of demo.json',
        description: 'The JSON Schema (draft 2020-12) of version 1 of the demo file’s demo.json; also docs/demo-format.schema.json.',
        response: {
          200: {
            description: 'The JSON Schema.',
            content: { 'application/schema+json': { schema: z.record(z.string(), z.unknown()).meta({ example: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } }) } },
          },
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('application/schema+json')
        .header('cache-control', 'public, max-age=3600')
        .header('access-control-allow-origin', '*')
        // The text itself (its indents are the docs file's), which a string payload keeps past the serializer.
        .send(demoJsonSchemaText() as unknown as Record<string, unknown>),
  );
}
