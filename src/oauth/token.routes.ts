// The token and revocation endpoints: form bodies, client authentication, and answers in RFC 6749's format, not the API envelope.
import { originOf } from '../audit/actor';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { toAppError } from '../core/http/error-handler';
import type { ModuleContext, Services } from '../module';
import type { ZodApp } from '../core/http/types';
import { basicCredentials } from './basic-credentials';
import { OAuthError } from './oauth-error';
import { oauthErrorSchema, revokeForm, tokenForm, tokenResponse } from './oauth.schemas';
import type { ClientCredentials } from './oauth-clients';
import type { TokenResponse } from './token-issuing';

const tags = ['OAuth'];
const FORM = 'application/x-www-form-urlencoded';
// The token endpoint answers in RFC 6749's own format, so its body is parsed here rather than by the
// global validator (whose errors use the API's envelope).
const passThrough = () => (data: unknown) => ({ value: data });

/** Client authentication: HTTP Basic (RFC 6749 §2.3.1) or client_id/client_secret in the form. */
function clientOf(request: FastifyRequest, form: { client_id?: string; client_secret?: string }): ClientCredentials {
  const basic = basicCredentials(request.headers.authorization);
  if (basic) {
    if (form.client_id && form.client_id !== basic.clientId) throw new OAuthError('invalid_request', 'client_id mismatch');
    return basic;
  }
  if (!form.client_id) throw new OAuthError('invalid_client', 'client_id is required');
  return { clientId: form.client_id, clientSecret: form.client_secret };
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new OAuthError('invalid_request', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

/**
 * Errors raised before the handler runs (a malformed or empty body, a media type or size refused) must
 * answer in RFC 6749's form too: the API's envelope does not fit these routes' declared error schema.
 *
 * A rate-limit refusal keeps the status 429 with Retry-After and the X-RateLimit headers, so that any HTTP
 * client backs off, and carries the RFC 6749 body `{"error": "temporarily_unavailable", ...}` (the code
 * RFC 6749 §4.1.2.1 defines for "try again later", in the IANA OAuth error registry), so that an OAuth
 * library parses it like every other answer of this endpoint. A database out of reach is the same body with
 * 503 (core/connection-loss.ts), not a 500 `server_error`.
 */
function tokenEndpointErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof OAuthError) return oauthFailure(reply, error);
  const appError = toAppError(error);
  if (appError.code === 'rate_limited') {
    for (const [name, value] of Object.entries(appError.headers ?? {})) reply.header(name, value);
    return oauthFailure(reply, new OAuthError('temporarily_unavailable', appError.message, 429));
  }
  if (appError.status >= 500) return oauthFailure(reply, error);
  return oauthFailure(reply, new OAuthError('invalid_request', appError.message, appError.status));
}

function oauthFailure(reply: FastifyReply, error: unknown) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (error instanceof OAuthError) {
    if (error.status === 401) reply.header('www-authenticate', 'Basic realm="demoshare"');
    return reply.code(error.status).send({ error: error.error, error_description: error.description });
  }
  const appError = toAppError(error);
  if (appError.code === 'unavailable') {
    // The database is out of reach: "try again later" in RFC 6749's words, with the 503's Retry-After.
    for (const [name, value] of Object.entries(appError.headers ?? {})) reply.header(name, value);
    return reply.code(503).send({ error: 'temporarily_unavailable', error_description: appError.message });
  }
  reply.log.error({ err: error }, 'token endpoint failed');
  return reply.code(500).send({ error: 'server_error', error_description: 'Something went wrong on our side' });
}

/** POST /v1/oauth/token and /v1/oauth/revoke, public (the client authenticates itself) and rate-limited per address. */
export function tokenRoutes(app: ZodApp, ctx: ModuleContext<Services['oauth']>) {
  const { oauthTokens } = ctx.services;
  const policy = { points: 30, duration: 60 };

  // POST /v1/oauth/token — exchange an authorization code, or a refresh token, for tokens
  app.post(
    '/oauth/token',
    {
      config: { public: true, accepts: [FORM] },
      validatorCompiler: passThrough,
      errorHandler: tokenEndpointErrors,
      schema: {
        tags,
        summary: 'Token endpoint',
        description:
          'Form parameters (application/x-www-form-urlencoded). `grant_type=authorization_code` with code, ' +
          'client_id, client_secret, redirect_uri (and code_verifier with PKCE); `grant_type=refresh_token` ' +
          'with refresh_token, client_id, client_secret (and optionally a narrower scope). Client credentials ' +
          'may also come as HTTP Basic. Access tokens live 1 hour; refresh tokens are single use (each refresh ' +
          'returns a new one; reusing one revokes the authorisation) and live 60 days. Errors follow RFC 6749.',
        body: tokenForm,
        consumes: [FORM],
        response: { 200: tokenResponse, 400: oauthErrorSchema, 401: oauthErrorSchema, 429: oauthErrorSchema },
      },
    },
    async (request, reply) => {
      await ctx.rateLimits.consume('oauth-token', policy, `ip:${request.ip}`);
      try {
        const form = parse(tokenForm, request.body);
        const client = clientOf(request, form);
        let tokens: TokenResponse;
        if (form.grant_type === 'authorization_code') {
          if (!form.code) throw new OAuthError('invalid_request', 'code is required');
          tokens = await oauthTokens.exchangeCode(client, {
            code: form.code,
            redirectUri: form.redirect_uri,
            codeVerifier: form.code_verifier,
            resource: form.resource,
          });
        } else if (form.grant_type === 'refresh_token') {
          if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
          tokens = await oauthTokens.refresh(client, { refreshToken: form.refresh_token, scope: form.scope, resource: form.resource });
        } else {
          throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
        }
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        return tokens;
      } catch (error) {
        return oauthFailure(reply, error);
      }
    },
  );

  // POST /v1/oauth/revoke — RFC 7009 token revocation
  app.post(
    '/oauth/revoke',
    {
      config: { public: true, accepts: [FORM] },
      validatorCompiler: passThrough,
      errorHandler: tokenEndpointErrors,
      schema: {
        tags,
        summary: 'Revoke a token (RFC 7009)',
        description:
          'Form parameters: token (an access or refresh token), token_type_hint, and client credentials. ' +
          'Revoking a refresh token ends the whole authorisation. Answers 200 whether or not the token existed.',
        body: revokeForm,
        consumes: [FORM],
        response: { 200: z.object({}).meta({ examples: [{}] }), 400: oauthErrorSchema, 401: oauthErrorSchema, 429: oauthErrorSchema },
      },
    },
    async (request, reply) => {
      await ctx.rateLimits.consume('oauth-token', policy, `ip:${request.ip}`);
      try {
        const form = parse(revokeForm, request.body);
        await oauthTokens.revoke(clientOf(request, form), form.token, originOf(request));
        reply.header('cache-control', 'no-store');
        return {};
      } catch (error) {
        return oauthFailure(reply, error);
      }
    },
  );
}
