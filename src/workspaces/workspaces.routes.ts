// /v1/workspace and its logo: the settings (name, branding, share defaults) read and changed; the public logo.
import { actorOf } from '../audit/actor';
import { bytesResponse, dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { invalid } from '../core/errors';
import { acceptImageBodies } from '../core/http/content-type';
import { callerOf, type ZodApp } from '../core/http/types';
import { IMAGE_TYPES } from '../core/image-sniff';
import type { ModuleContext, Services } from '../module';
import { LOGO_MAX_BYTES, logoParams, patchWorkspaceBody, toWorkspaceSettings, workspaceSettingsSchema } from './workspaces.schemas';

const tags = ['Workspace (web app)'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

/**
 * The signed-in member's workspace: its settings, and its logo (public, for the share pages).
 *
 * @example
 * workspacesRoutes(app, { ...kernel, services: services.workspaces }); // as workspacesModule.routes does
 */
export function workspacesRoutes(app: ZodApp, ctx: ModuleContext<Services['workspaces']>) {
  const { workspaces } = ctx.services;
  // Paths, unless the API has an address of its own: the web app and the player resolve them on their host.
  const origin = (ctx.config.API_URL ?? '').replace(/\/+$/, '');
  acceptImageBodies(app, IMAGE_TYPES);

  // GET /v1/workspace — the settings of the workspace the session acts in
  app.get(
    '/workspace',
    {
      config: { permission: 'workspace.read' },
      schema: {
        tags,
        summary: 'Workspace settings',
        description: 'Name, branding (logo, brand colour, font of the player and share pages) and share-link defaults.',
        response: { 200: dataEnvelope(workspaceSettingsSchema), ...errors },
      },
    },
    async (request) => {
      const { row, logo } = await workspaces.settings(callerOf(request).workspaceId);
      return ok(request, toWorkspaceSettings(row, logo, origin));
    },
  );

  // PATCH /v1/workspace — change the name, the branding or the share defaults
  app.patch(
    '/workspace',
    {
      config: { permission: 'workspace.manage' },
      schema: {
        tags,
        summary: 'Change workspace settings',
        description:
          'Fields left out stay as they are. Branding applies at once to every share page and player of the ' +
          'workspace, published versions included. Share defaults apply to links created afterwards. Recorded in ' +
          'the audit log (`workspace.changed`).',
        body: patchWorkspaceBody,
        response: { 200: dataEnvelope(workspaceSettingsSchema), ...errors },
      },
    },
    async (request) => {
      const { row, logo } = await workspaces.update(callerOf(request), request.body, actorOf(request));
      return ok(request, toWorkspaceSettings(row, logo, origin));
    },
  );

  // PUT /v1/workspace/logo — upload the logo as the raw body
  app.put(
    '/workspace/logo',
    {
      config: { permission: 'workspace.manage', accepts: IMAGE_TYPES },
      bodyLimit: LOGO_MAX_BYTES,
      schema: {
        tags,
        summary: 'Upload the workspace logo',
        description:
          `The body is the image itself: PNG, JPEG or WebP (read from its bytes), at most ${LOGO_MAX_BYTES / 1024} KB ` +
          'and 2048 pixels on a side. It replaces the previous logo. Shown up to 40 px high on the share pages and in ' +
          'the player: a wide logo with a transparent background reads best.',
        response: { 200: dataEnvelope(workspaceSettingsSchema), ...errors, 413: errorEnvelope, 415: errorEnvelope },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) {
        throw invalid('Send the logo as the raw body with Content-Type image/png, image/jpeg or image/webp');
      }
      const { row, logo } = await workspaces.setLogo(callerOf(request), request.body, actorOf(request));
      return ok(request, toWorkspaceSettings(row, logo, origin));
    },
  );

  // DELETE /v1/workspace/logo — remove the logo
  app.delete(
    '/workspace/logo',
    {
      config: { permission: 'workspace.manage' },
      schema: { tags, summary: 'Remove the workspace logo', response: { 204: noContent, ...errors } },
    },
    async (request, reply) => {
      await workspaces.removeLogo(callerOf(request), actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // GET /v1/workspace-logos/:workspace_id/:version — the logo, for share pages and players
  app.get(
    '/workspace-logos/:workspace_id/:version',
    {
      config: { public: true, viewer: true },
      schema: {
        tags: ['Viewer'],
        summary: 'Viewer: a workspace logo',
        description:
          'Public: the address a `logo_url` names. It changes with the logo, so the answer may be cached for a year; ' +
          'an address of a replaced logo is 404.',
        params: logoParams,
        response: {
          200: bytesResponse('The image bytes', IMAGE_TYPES),
          400: errorEnvelope,
          404: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const logo = await workspaces.logo(request.params.workspace_id, request.params.version);
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', `"${logo.sha256}"`)
        .type(logo.contentType)
        .send(logo.bytes);
    },
  );
}
