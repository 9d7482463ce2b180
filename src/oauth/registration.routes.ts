// POST /v1/oauth/register: RFC 7591 dynamic client registration (OAUTH_DYNAMIC_REGISTRATION), answering in the RFC's format.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SCOPES, type Scope } from '../auth/permissions';
import { toAppError } from '../core/http/error-handler';
import { text } from '../core/text';
import type { ZodApp } from '../core/http/types';
import { timestamp } from '../core/time';
import type { ModuleContext, Services } from '../module';
import { redirectUri } from './oauth.schemas';

const FIXED_GRANTS = ['authorization_code', 'refresh_token'];
/**
 * What a self-registered client gets when it names no scope: the contract's eight, not managing other apps
 * nor reading the audit log, which a client asks for by name.
 */
const DEFAULT_SCOPES = SCOPES.filter((s) => s !== 'oauth_apps:write' && s !== 'audit:read');
/** Per IP address and hour: registering is cheap for a client and must not fill the table. */
const POLICY = { points: 10, duration: 3600 };

const known = {
  redirect_uris: z.array(text()).min(1).max(10),
  client_name: text().trim().min(1).max(100).optional(),
  token_endpoint_auth_method: text().optional(),
  grant_types: z.array(text()).optional(),
  response_types: z.array(text()).optional(),
  scope: text().max(500).optional(),
};

/** The path of the first string in `value` that `text()` refuses (NUL, a lone surrogate), or null. */
function refusedString(value: unknown, path: PropertyKey[]): { path: PropertyKey[]; message: string } | null {
  if (typeof value === 'string') {
    const result = text().safeParse(value);
    return result.success ? null : { path, message: result.error.issues[0]?.message ?? 'invalid' };
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = refusedString(item, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return null;
}

/**
 * RFC 7591 client metadata. Unknown members are ignored, as §2 requires (clients send logo_uri,
 * software_id and the like), unlike the rest of the API where an unknown field is a 400; but a NUL in
 * one is still a 400 naming it, as in every other field: such a client is broken, and the text would
 * break whatever logs or stores it later.
 */
const registrationBody = z
  .looseObject(known)
  .superRefine((body, ctx) => {
    for (const [name, value] of Object.entries(body)) {
      if (name in known) continue;
      const found = refusedString(value, [name]);
      if (found) ctx.addIssue({ code: 'custom', path: found.path, message: found.message });
    }
  })
  .meta({
    id: 'OAuthClientMetadata',
    examples: [{ client_name: 'My assistant', redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'none' }],
  });

const registrationResponse = z
  .object({
    client_id: z.string(),
    client_id_issued_at: z.number().int().meta({ description: 'Unix seconds.' }),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
    scope: z.string(),
    created_at: timestamp,
  })
  .meta({ id: 'OAuthClientInformation' });

const registrationError = z
  .object({
    error: z.enum(['invalid_redirect_uri', 'invalid_client_metadata', 'temporarily_unavailable', 'server_error']),
    error_description: z.string(),
  })
  .meta({ id: 'OAuthRegistrationError', description: 'RFC 7591 §3.2.2 error body.' });

class RegistrationError extends Error {
  constructor(
    readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata',
    readonly description: string,
  ) {
    super(description);
  }
}

function check(body: unknown) {
  const parsed = registrationBody.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'body');
    throw new RegistrationError(field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata', `${issue?.path.join('.') || 'body'}: ${issue?.message}`);
  }
  const input = parsed.data;
  const bad = input.redirect_uris.filter((uri) => !redirectUri.safeParse(uri).success);
  if (bad.length > 0) {
    throw new RegistrationError(
      'invalid_redirect_uri',
      `${bad[0]}: must be an https URL, an http URL on localhost, or a private-use scheme (com.example.app:/callback), without a fragment`,
    );
  }
  if (input.token_endpoint_auth_method !== undefined && input.token_endpoint_auth_method !== 'none') {
    throw new RegistrationError('invalid_client_metadata', 'token_endpoint_auth_method: only "none" (a public client using PKCE) can be registered');
  }
  const grants = input.grant_types?.filter((g) => !FIXED_GRANTS.includes(g)) ?? [];
  if (grants.length > 0) throw new RegistrationError('invalid_client_metadata', `grant_types: ${grants.join(', ')} is not supported`);
  if (input.response_types?.some((t) => t !== 'code')) {
    throw new RegistrationError('invalid_client_metadata', 'response_types: only "code" is supported');
  }
  const asked = input.scope?.split(' ').filter(Boolean) ?? [];
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new RegistrationError('invalid_client_metadata', `scope: unknown ${unknown.join(' ')}`);
  const scopes = (asked.length > 0 ? [...new Set(asked)] : DEFAULT_SCOPES) as Scope[];
  return { name: input.client_name ?? 'Unnamed application', redirectUris: [...new Set(input.redirect_uris)], scopes };
}

function registrationErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  if (error instanceof RegistrationError) return reply.code(400).send({ error: error.error, error_description: error.description });
  const appError = toAppError(error);
  if (appError.code === 'unavailable') {
    for (const [name, value] of Object.entries(appError.headers ?? {})) reply.header(name, value);
    return reply.code(503).send({ error: 'temporarily_unavailable', error_description: appError.message });
  }
  if (appError.status >= 500) {
    reply.log.error({ err: error }, 'client registration failed');
    return reply.code(500).send({ error: 'server_error', error_description: 'Something went wrong on our side' });
  }
  for (const [name, value] of Object.entries(appError.headers ?? {})) reply.header(name, value);
  const code = appError.code === 'rate_limited' ? 'temporarily_unavailable' : 'invalid_client_metadata';
  return reply.code(appError.status).send({ error: code, error_description: appError.message });
}

/** RFC 7591 dynamic client registration, only when OAUTH_DYNAMIC_REGISTRATION is on (off by default). */
export function registrationRoutes(app: ZodApp, ctx: ModuleContext<Services['oauth']>) {
  if (!ctx.config.OAUTH_DYNAMIC_REGISTRATION) return;
  const { oauthApps } = ctx.services;

  // POST /v1/oauth/register — a client registers itself as a public OAuth client
  app.post(
    '/oauth/register',
    {
      config: { public: true },
      validatorCompiler: () => (data: unknown) => ({ value: data }),
      errorHandler: registrationErrors,
      schema: {
        tags: ['OAuth'],
        summary: 'Register a client (RFC 7591)',
        description:
          'Enabled by OAUTH_DYNAMIC_REGISTRATION. Registers a public client (PKCE, no secret) that belongs to no ' +
          'workspace: any user may authorise it for one of their workspaces; the consent page shows it as ' +
          'registered by the application itself and unverified. Rate-limited to 10 per hour per IP address.',
        body: registrationBody,
        response: { 201: registrationResponse, 400: registrationError, 429: registrationError, 500: registrationError },
      },
    },
    async (request, reply) => {
      await ctx.rateLimits.consume('oauth-register', POLICY, `ip:${request.ip}`);
      const created = await oauthApps.register(check(request.body));
      request.log.info({ client_id: created.id, redirect_uris: created.redirectUris }, 'OAuth client registered itself');
      reply.code(201).header('cache-control', 'no-store');
      return {
        client_id: created.id,
        client_id_issued_at: Math.floor(created.createdAt.getTime() / 1000),
        client_name: created.name,
        redirect_uris: created.redirectUris,
        grant_types: FIXED_GRANTS,
        response_types: ['code'],
        token_endpoint_auth_method: 'none' as const,
        scope: created.scopes.join(' '),
        created_at: created.createdAt.toISOString(),
      };
    },
  );
}
