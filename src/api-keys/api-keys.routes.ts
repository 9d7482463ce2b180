import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok, } from '../core/envelope';
import { actorOf } from '../audit/actor';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate, paginationQuery } from '../core/pagination';
import { apiKeySchema, createdKeySchema, createKeyBody, keyParams, rotateKeyBody, toApiKey, toCreateKeyInput } from './api-keys.schemas';

const tags = ['API keys'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };
const description =
  'An API key cannot mint or revoke keys. Members manage their own keys; admins also see and revoke every key of the workspace.';

/** The API keys routes under /v1/api-keys: list, create, rotate, revoke. */
export function apiKeysRoutes(app: ZodApp, ctx: ModuleContext<Services['apiKeys']>) {
  const { apiKeys } = ctx.services;

  // GET /v1/api-keys — list the keys the caller can manage
  app.get(
    '/api-keys',
    {
      config: { permission: 'keys.manage' },
      schema: {
        tags,
        summary: 'List API keys',
        description,
        querystring: paginationQuery,
        response: { 200: listEnvelope(apiKeySchema), ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => apiKeys.list(callerOf(request), range),
        ({ rows }) => rows.map((r) => toApiKey(r.key, r.memberEmail)),
      ),
  );

  // POST /v1/api-keys — create a key; its value is in this response only
  app.post(
    '/api-keys',
    {
      config: { permission: 'keys.manage' },
      schema: {
        tags,
        summary: 'Create an API key',
        description,
        body: createKeyBody,
        response: { 201: dataEnvelope(createdKeySchema), ...errors },
      },
    },
    async (request, reply) => {
      const { row, key } = await apiKeys.create(callerOf(request), toCreateKeyInput(request.body), actorOf(request));
      reply.code(201);
      return ok(request, { ...toApiKey(row), key });
    },
  );

  // POST /v1/api-keys/:id/rotate — replace a key; the old one works for a grace period
  app.post(
    '/api-keys/:id/rotate',
    {
      config: { permission: 'keys.manage' },
      schema: {
        tags,
        summary: 'Rotate an API key',
        description:
          'Only the member who owns a key can rotate it: the new key acts as them, so an admin rotating another ' +
          "member's key gets 403 `forbidden` (admins revoke it instead). The old key keeps working until the grace " +
          'period ends. An API key cannot rotate keys.',
        params: keyParams,
        body: rotateKeyBody,
        response: { 201: dataEnvelope(createdKeySchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const grace = request.body?.grace_period_seconds;
      const { row, key } = await apiKeys.rotate(
        callerOf(request),
        request.params.id,
        actorOf(request),
        grace === undefined ? undefined : grace * 1000,
      );
      reply.code(201);
      return ok(request, { ...toApiKey(row), key });
    },
  );

  // DELETE /v1/api-keys/:id — revoke a key at once
  app.delete(
    '/api-keys/:id',
    {
      config: { permission: 'keys.manage' },
      schema: { tags, summary: 'Revoke an API key', description, params: keyParams, response: { 204: noContent, ...errors } },
    },
    async (request, reply) => {
      await apiKeys.revoke(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
}
