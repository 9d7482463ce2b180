// OAuth apps a workspace registers (Settings → API): create, list, rotate the secret, delete.
import { actorOf } from '../audit/actor';
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok, } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate, paginationQuery } from '../core/pagination';
import { appParams, createAppBody, createdAppSchema, oauthAppSchema, toOAuthApp, toCreateAppInput } from './oauth.schemas';

const tags = ['OAuth apps'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

/** The OAuth apps routes under /v1/oauth/apps, for workspace admins (`oauth_apps.manage`). */
export function oauthAppsRoutes(app: ZodApp, ctx: ModuleContext<Services['oauth']>) {
  const { oauthApps } = ctx.services;

  // GET /v1/oauth/apps — the workspace's registered OAuth applications
  app.get(
    '/oauth/apps',
    {
      config: { permission: 'oauth_apps.manage' },
      schema: {
        tags,
        summary: 'List OAuth apps',
        querystring: paginationQuery,
        response: { 200: listEnvelope(oauthAppSchema), ...errors },
      },
    },
    async (request) =>
      paginate(request, (range) => oauthApps.list(callerOf(request), range), ({ rows }) => rows.map(toOAuthApp)),
  );

  // POST /v1/oauth/apps — register an application; its secret is in this response only
  app.post(
    '/oauth/apps',
    {
      config: { permission: 'oauth_apps.manage' },
      schema: {
        tags,
        summary: 'Create an OAuth app',
        description: `Returns the client id and, for confidential clients, the secret (once).`,
        body: createAppBody,
        response: { 201: dataEnvelope(createdAppSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { app: created, clientSecret } = await oauthApps.create(callerOf(request), toCreateAppInput(request.body), actorOf(request));
      reply.code(201);
      return ok(request, { ...toOAuthApp(created), client_secret: clientSecret });
    },
  );

  // POST /v1/oauth/apps/:id/rotate-secret — replace the client secret (the old one stops working)
  app.post(
    '/oauth/apps/:id/rotate-secret',
    {
      config: { permission: 'oauth_apps.manage' },
      schema: {
        tags,
        summary: 'Rotate an OAuth app’s client secret',
        description: `The old secret stops working at once; issued tokens stay valid.`,
        params: appParams,
        response: { 200: dataEnvelope(createdAppSchema), ...errors },
      },
    },
    async (request) => {
      const { app: updated, clientSecret } = await oauthApps.rotateSecret(callerOf(request), request.params.id, actorOf(request));
      return ok(request, { ...toOAuthApp(updated), client_secret: clientSecret });
    },
  );

  // DELETE /v1/oauth/apps/:id — delete an application and every authorisation of it
  app.delete(
    '/oauth/apps/:id',
    {
      config: { permission: 'oauth_apps.manage' },
      schema: {
        tags,
        summary: 'Delete an OAuth app',
        description: `Every token issued to it stops working at once.`,
        params: appParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await oauthApps.remove(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
}
