// The public OpenAPI document derived from the routes' zod schemas and the permission table, never written by hand.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Permission, PERMISSIONS, SCOPE_DESCRIPTIONS, SCOPES } from './auth/permissions';
import { ERROR_STATUS, type ErrorCode } from './core/errors';

/**
 * What the OpenAPI document says beyond each route's own schema, derived in this one place from what the
 * route declares (`config.permission` or `config.public`, a body, a query) and from the tables of
 * permissions and error codes: operationId, security, the error responses every route of a kind can give
 * and what each error code means. Routes list only the errors of their own (404, 409, 410).
 */

/** What each error code means to a client, in the response descriptions of the document. */
const ERROR_MEANINGS: Record<ErrorCode, string> = {
  invalid_request: 'a parameter, the query or the body is invalid (`details` names the fields), or the JSON is malformed',
  checksum_mismatch: 'the body does not match its `Content-Digest`: send it again',
  unauthorized: 'no credential, or an unknown, expired or revoked one',
  forbidden: "the member's role does not allow this, or the endpoint serves the web application (session) only",
  insufficient_scope: 'the credential lacks the scope this endpoint needs (named in `details`)',
  not_found: 'no such record in this workspace',
  method_not_allowed: 'the path exists but not with this method (see `Allow`)',
  conflict: 'the record is not in a state that allows this',
  recording_incomplete: 'not every step of the recording has been uploaded',
  gone: 'the link or record has expired or was used up',
  payload_too_large: 'the body is larger than the server accepts',
  unsupported_media_type: 'the body is not in a content type this endpoint accepts (JSON unless stated)',
  validation_error: 'well-formed, but what it describes cannot be accepted as it is (`details` names each problem)',
  rate_limited: 'too many requests: wait for `Retry-After` seconds',
  internal_error: 'an unexpected failure (never with details)',
  unavailable: 'the database or the asset store is out of reach, or the server is overloaded, for now: retry after `Retry-After` seconds',
  ffmpeg_missing: 'this server has no ffmpeg to encode videos and GIFs (FFMPEG_PATH): ask whoever runs it to install it',
};

/**
 * The description of an error response: every code the status stands for, and what each means.
 *
 * @example
 * ```ts
 * import { errorDescription } from './openapi';
 *
 * errorDescription(404); // '`not_found`: …'
 * ```
 */
export function errorDescription(status: number): string {
  const codes = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);
  return codes.map((code) => `\`${code}\`: ${ERROR_MEANINGS[code]}.`).join(' ');
}

/**
 * The operationId of a route, from its summary: "Create a share link" → `createShareLink`,
 * "Change a member’s role" → `changeMemberRole`. Summaries are the names people read in the reference,
 * so the SDK's method names read the same; the document test checks they are unique.
 *
 * @example
 * ```ts
 * import { operationIdOf } from './openapi';
 *
 * operationIdOf('Create a share link'); // 'createShareLink'
 * ```
 */
export function operationIdOf(summary: string): string {
  const words = summary
    .replace(/\([^)]*\)/g, ' ')
    .replace(/['’]s\b/g, '')
    .replace(/\be-mail\b/gi, 'email')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word && !['a', 'an', 'the'].includes(word.toLowerCase()));
  return words
    .map((word, i) => {
      const plain = /^[A-Z0-9]+$/.test(word) ? word.toLowerCase() : word; // API → api, CSV → csv
      return i === 0 ? plain.toLowerCase() : plain[0]!.toUpperCase() + plain.slice(1);
    })
    .join('');
}

/**
 * The security schemes of the document: API keys and OAuth tokens as bearers, OAuth 2.0, the web session.
 *
 * @example
 * ```ts
 * import { securitySchemes } from './openapi';
 *
 * const components = { securitySchemes: securitySchemes('https://demos.example.com', 'https://demos.example.com/v1') };
 * ```
 */
export function securitySchemes(appUrl: string, apiUrl: string) {
  const tokenUrl = `${apiUrl}/v1/oauth/token`;
  return {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key (`dsk_...`) or an OAuth access token. Its scopes are checked as for `oauth2`.',
    },
    oauth2: {
      type: 'oauth2',
      description: 'OAuth 2.0 authorization code flow, with PKCE (S256) and refresh-token rotation (docs/oauth.md).',
      flows: {
        authorizationCode: {
          authorizationUrl: `${appUrl}/oauth/authorize`,
          tokenUrl,
          refreshUrl: tokenUrl,
          scopes: Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])),
        },
      },
    },
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: 'ds_session',
      description:
        'The web application’s session. Endpoints that no scope covers accept it alone; state-changing ' +
        'requests also send the `ds_csrf` cookie’s value in `X-CSRF-Token`.',
    },
  } as const;
}

/**
 * Who may call an operation: the scope of its permission by bearer or OAuth, or the session alone.
 *
 * @example
 * ```ts
 * import { securityOf } from './openapi';
 *
 * securityOf('demos.read'); // [{ bearerAuth: ['demos:read'] }, { oauth2: ['demos:read'] }]
 * ```
 */
export function securityOf(permission: Permission | undefined) {
  if (!permission) return [];
  const { scope } = PERMISSIONS[permission];
  return scope ? [{ bearerAuth: [scope] }, { oauth2: [scope] }] : [{ session: [] }];
}

type SwaggerTransform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type SwaggerTransformObject = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;
type JsonResponses = Record<string, Record<string, unknown>>;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * Each route's zod schemas as JSON schemas, plus operationId, security and its error responses.
 *
 * @example
 * ```ts
 * import fastifySwagger from '@fastify/swagger';
 * import type { FastifyInstance } from 'fastify';
 * import { openapiTransform, openapiTransformObject } from './openapi';
 *
 * declare const app: FastifyInstance;
 * await app.register(fastifySwagger, { openapi: { info: { title: 'Demoshare', version: '1' } }, transform: openapiTransform, transformObject: openapiTransformObject });
 * ```
 */
export const openapiTransform: SwaggerTransform = (input) => {
  const result = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const schema = result.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide) return result;
  const { route, url } = input;
  const config = (route.config ?? {}) as { permission?: Permission; public?: boolean };
  if (typeof schema.summary === 'string') schema.operationId = operationIdOf(schema.summary);
  // zod leaves out the examples of a body that transforms (a trimmed or lower-cased field) as input, but a
  // body's examples are what clients send: keep them.
  const body = (input.schema as { body?: unknown } | undefined)?.body;
  const examples = body instanceof z.ZodType ? z.globalRegistry.get(body)?.examples : undefined;
  if (examples && schema.body && typeof schema.body === 'object') (schema.body as Record<string, unknown>).examples ??= examples;
  const api = url === '/v1' || url.startsWith('/v1/');
  schema.security = securityOf(config.permission);

  const statuses = new Set(Object.keys((schema.response as JsonResponses | undefined) ?? {}).map(Number));
  if (schema.body || schema.querystring || schema.params) statuses.add(400);
  // The content-type policy and the body limit apply to any request with a body, declared or not.
  const bodies = [route.method].flat().some((method) => ['POST', 'PUT', 'PATCH'].includes(method));
  if (schema.body || bodies) for (const status of [400, 413, 415]) statuses.add(status);
  if (config.permission) for (const status of [401, 403]) statuses.add(status);
  // Every /v1 request counts against a rate limit (the credential's, or the caller's address), any can
  // fail on our side, and any can find the database out of reach or overloaded for a moment (503 with
  // Retry-After).
  if (api) for (const status of [429, 500, 503]) statuses.add(status);
  const response: JsonResponses = { ...((schema.response as JsonResponses | undefined) ?? {}) };
  // Headers a route documents beside a response's content (a download's size): the zod transform drops them.
  // Declared in the document's own form ({schema, description}); @fastify/swagger wraps each header's value in
  // `schema` itself, so it is given the schema with the description beside it.
  type DeclaredHeader = { schema?: Record<string, unknown>; description?: string };
  const declared = (input.schema as { response?: Record<string, { headers?: Record<string, DeclaredHeader> }> } | undefined)?.response ?? {};
  for (const [status, entry] of Object.entries(declared)) {
    if (!entry?.headers || !response[status]) continue;
    const headers = Object.fromEntries(
      Object.entries(entry.headers).map(([name, h]) => [name, h.schema ? { ...h.schema, ...(h.description ? { description: h.description } : {}) } : h]),
    );
    response[status] = { ...response[status], headers };
  }
  // A route whose errors have a form of their own (the OAuth endpoints' RFC 6749 errors) keeps it.
  const own = Object.entries(response).find(([status]) => Number(status) >= 400)?.[1] ?? ERROR_REF;
  for (const status of [...statuses].sort()) {
    if (status < 400) continue;
    const entry = response[status] ?? own;
    const description =
      entry.$ref === ERROR_REF.$ref ? errorDescription(status) : 'An error in this endpoint’s own form (see its schema).';
    if (description) response[status] = { ...entry, description };
  }
  schema.response = response;
  return result;
};

/**
 * The document with the named schemas in components.schemas (where the routes' $refs point), without the
 * ones no route refers to: each named schema comes as an input and an output variant, and most are only
 * ever one of them.
 *
 * @example
 * ```ts
 * import type { FastifyInstance } from 'fastify';
 *
 * declare const app: FastifyInstance; // with @fastify/swagger registered as in openapiTransform's example
 * const document = app.swagger(); // components.schemas holds only what some route refers to
 * ```
 */
export const openapiTransformObject: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input as Parameters<typeof jsonSchemaTransformObject>[0]) as {
    paths?: unknown;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = document.components?.schemas;
  if (!schemas) return document as ReturnType<SwaggerTransformObject>;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
          const name = value.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else visit(value);
      }
    }
  };
  visit(document.paths);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  return document as ReturnType<SwaggerTransformObject>;
};
