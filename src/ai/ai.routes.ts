// /v1/workspace/ai: the workspace's own model for generation and Rewrite (Settings → AI), and its connection test.
import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { aiSettingsSchema, aiTestResultSchema, putAiSettingsBody, testAiBody } from './ai.schemas';

const tags = ['Workspace (web app)'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };

/**
 * The workspace's AI settings: read, saved, removed and tried, by its admins in the web app.
 *
 * @example
 * aiRoutes(app, { ...kernel, services: services.ai }); // as aiModule.routes does
 */
export function aiRoutes(app: ZodApp, ctx: ModuleContext<Services['ai']>) {
  const { settings } = ctx.services;

  // GET /v1/workspace/ai — the model generation and Rewrite use, without its key
  app.get(
    '/workspace/ai',
    {
      config: { permission: 'ai.manage' },
      schema: {
        tags,
        summary: 'AI settings',
        description:
          'The workspace’s OpenAI-compatible model, if it saved one, and the instance’s (AI_* variables) that applies ' +
          'otherwise. The key is never returned: `key_set` and `key_last4` say which one is stored.',
        response: { 200: dataEnvelope(aiSettingsSchema), ...errors },
      },
    },
    async (request) => ok(request, await settings.get(callerOf(request).workspaceId)),
  );

  // PUT /v1/workspace/ai — save the workspace's model
  app.put(
    '/workspace/ai',
    {
      config: { permission: 'ai.manage' },
      schema: {
        tags,
        summary: 'Save AI settings',
        description:
          'Generation and the editor’s Rewrite use this model from now on, instead of the instance’s; when it fails, ' +
          'generation falls back to the built-in writer. The key is stored encrypted. The address is checked as every ' +
          'user-given address is (400 for a private or loopback one unless the operator allows it, for a host that does ' +
          'not resolve, for a scheme other than http or https). Nothing calls the model here: try it with ' +
          '`POST /v1/workspace/ai/test`. Recorded in the audit log (`workspace.changed`, without the key).',
        body: putAiSettingsBody,
        response: { 200: dataEnvelope(aiSettingsSchema), ...errors },
      },
    },
    async (request) => ok(request, await settings.save(callerOf(request), request.body, actorOf(request))),
  );

  // DELETE /v1/workspace/ai — forget the workspace's model and key
  app.delete(
    '/workspace/ai',
    {
      config: { permission: 'ai.manage' },
      schema: {
        tags,
        summary: 'Remove AI settings',
        description:
          'The key is deleted; generation and Rewrite go back to the instance’s model, or to the built-in writer where ' +
          'there is none. 204 also when nothing was saved. Recorded in the audit log (`workspace.changed`).',
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await settings.remove(callerOf(request), actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // POST /v1/workspace/ai/test — ask the model for one word
  app.post(
    '/workspace/ai/test',
    {
      config: { permission: 'ai.manage' },
      schema: {
        tags,
        summary: 'Test the AI connection',
        description:
          'Sends the model a one-word prompt (through the same SSRF guard as generation, with a 20 s limit) and says ' +
          'whether a chat completion came back, from which model and how fast. A model that fails is an answer ' +
          '(`ok: false` and the reason in words, such as a key the API refused, with its own message), not an error ' +
          'status. Saves nothing. 409 when there is nothing to test: no body, and no model set up for the workspace ' +
          'or the instance.',
        body: testAiBody,
        response: { 200: dataEnvelope(aiTestResultSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => ok(request, await settings.test(callerOf(request), request.body ?? {})),
  );
}
