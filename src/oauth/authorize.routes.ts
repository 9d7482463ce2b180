// The consent page's API: describe an authorisation request, then record the user's decision.
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { authorizationQuery, consentSchema, decisionBody, describeScopes } from './oauth.schemas';
import type { AuthorizationRequest } from './authorization-request';
import { z } from 'zod';

const tags = ['OAuth'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope };

function toRequest(q: {
  client_id: string;
  redirect_uri?: string;
  response_type: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  resource?: string;
}): AuthorizationRequest {
  return {
    clientId: q.client_id,
    redirectUri: q.redirect_uri,
    responseType: q.response_type,
    scope: q.scope,
    state: q.state,
    codeChallenge: q.code_challenge,
    codeChallengeMethod: q.code_challenge_method,
    resource: q.resource,
  };
}

/**
 * The consent page at {APP_URL}/oauth/authorize (web app) reads the request through the first route and
 * submits the user's decision through the second; both need the user's session.
 */
export function authorizeRoutes(app: ZodApp, ctx: ModuleContext<Services['oauth']>) {
  const { oauthTokens } = ctx.services;

  // GET /v1/oauth/authorize — check an authorisation request and describe it for the consent page
  app.get(
    '/oauth/authorize',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Describe an authorisation request (consent page)',
        description:
          'Used by the web app’s consent page with the query of `{APP_URL}/oauth/authorize`. An unknown client or ' +
          'an unregistered redirect_uri is a 400 (never redirected); other problems come back in `error` with ' +
          'the address to send the browser to.',
        querystring: authorizationQuery,
        response: { 200: dataEnvelope(consentSchema), ...errors },
      },
    },
    async (request) => {
      const req = toRequest(request.query);
      const checked = await oauthTokens.describe(callerOf(request), req);
      const error = checked.error
        ? {
            error: checked.error.error,
            error_description: checked.error.description,
            redirect_to: await oauthTokens.decide(callerOf(request), req, false),
          }
        : null;
      return ok(request, {
        app: {
          id: checked.app.id,
          name: checked.app.name,
          verified: checked.app.verified,
          built_in: checked.builtIn,
          owner_workspace_name: checked.owner,
        },
        redirect_uri: checked.redirectUri,
        workspace_id: checked.member.workspaceId,
        workspaces: checked.workspaces,
        scopes: describeScopes(checked.scopes),
        error,
      });
    },
  );

  // POST /v1/oauth/authorize — the user allows or denies; answers where to redirect the browser
  app.post(
    '/oauth/authorize',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Allow or deny an authorisation request',
        description:
          'On allow, issues a single-use authorization code (valid 60 s) bound to `workspace_id` (the workspace ' +
          'signed in to by default; any where the user is an active member, else a 400) and answers the ' +
          'redirect_uri carrying `code` and `state`; on deny, the redirect_uri carrying `error=access_denied`.',
        body: decisionBody,
        response: { 200: dataEnvelope(
            z
              .object({ redirect_to: z.string() })
              .meta({ examples: [{ redirect_to: 'https://crm.acme.com/oauth/callback?code=4R5YhuIG43KIjFAHQsiJoUGm1YtmaD7v3dNi8LfppWT&state=k2Jx9fQ4' }] }),
          ), ...errors },
      },
    },
    async (request) => {
      const { decision, workspace_id, ...query } = request.body;
      const redirectTo = await oauthTokens.decide(callerOf(request), toRequest(query), decision === 'allow', workspace_id);
      return ok(request, { redirect_to: redirectTo });
    },
  );
}
