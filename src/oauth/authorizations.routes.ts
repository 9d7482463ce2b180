// The Authorized apps list: the OAuth grants a user gave (or, for admins, every member's), and revoking one.
import { actorOf } from '../audit/actor';
import { errorEnvelope, listEnvelope, noContent } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import { authorizationParams, authorizationSchema, authorizationsQuery, toAuthorization } from './oauth.schemas';

const tags = ['OAuth'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

/** Authorized apps: Account settings for everyone, Settings → API for admins. */
export function authorizationsRoutes(app: ZodApp, ctx: ModuleContext<Services['oauth']>) {
  const { oauthGrants } = ctx.services;

  // GET /v1/oauth/authorizations — the apps the caller authorised (admins: ?all_members=true for the workspace's)
  app.get(
    '/oauth/authorizations',
    {
      config: { permission: 'oauth_grants.manage' },
      schema: {
        tags,
        summary: 'List authorized apps',
        description:
          'The live OAuth authorisations you gave, in every workspace you are a member of. With `all_members=true` ' +
          '(admins only, else 403): every member’s authorisations in the current workspace.',
        querystring: authorizationsQuery,
        response: { 200: listEnvelope(authorizationSchema), ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => oauthGrants.list(callerOf(request), request.query.all_members, range),
        ({ rows }) => rows.map(toAuthorization),
      ),
  );

  // DELETE /v1/oauth/authorizations/:id — revoke an authorisation and every token issued under it
  app.delete(
    '/oauth/authorizations/:id',
    {
      config: { permission: 'oauth_grants.manage' },
      schema: {
        tags,
        summary: 'Revoke an authorized app',
        description:
          'The user who gave the authorisation, or an admin of its workspace, may revoke it (404 for anyone else). ' +
          'Its access and refresh tokens stop working at once.',
        params: authorizationParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await oauthGrants.revoke(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
}
