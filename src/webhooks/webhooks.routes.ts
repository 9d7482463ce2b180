import { actorOf } from '../audit/actor';
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok, } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { cursorListEnvelope, cursorPaginationQuery, paginate, paginateByKeyset, paginationQuery } from '../core/pagination';
import {
  createWebhookBody,
  deliveriesQuery,
  deliveryParams,
  deliverySchema,
  rotateSecretBody,
  toDelivery,
  toWebhook,
  updateWebhookBody,
  webhookParams,
  webhookSchema,
  webhookWithSecretSchema,
} from './webhooks.schemas';
import { standardWebhooksSecret } from './webhooks.signing';

const tags = ['Webhooks'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const config = { permission: 'webhooks.manage' } as const;

export function webhooksRoutes(app: ZodApp, ctx: ModuleContext<Services['webhooks']>) {
  const { webhooks } = ctx.services;

  // GET /v1/webhooks — list the workspace's webhooks
  app.get(
    '/webhooks',
    {
      config,
      schema: {
        tags,
        summary: 'List webhooks',
        description: `Oldest first. Secrets are never returned.`,
        querystring: paginationQuery,
        response: { 200: listEnvelope(webhookSchema), ...errors },
      },
    },
    async (request) =>
      paginate(request, (range) => webhooks.list(callerOf(request), range), ({ rows }) => rows.map(toWebhook)),
  );

  // GET /v1/webhooks/:id — one webhook (the web app's webhook page)
  app.get(
    '/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Get a webhook',
        description: `The secret is never returned; \`secret_hint\` shows its last characters.`,
        params: webhookParams,
        response: { 200: dataEnvelope(webhookSchema), ...errors },
      },
    },
    async (request) => ok(request, toWebhook(await webhooks.get(callerOf(request), request.params.id))),
  );

  // POST /v1/webhooks — create a webhook; a generated secret is in this response only
  app.post(
    '/webhooks',
    {
      config,
      schema: {
        tags,
        summary: 'Create a webhook',
        description:
          `The URL must be http(s) and reach a public address (checked now and at every delivery). ` +
          'Without `secret` one is generated; either way the secret is returned only here.',
        body: createWebhookBody,
        response: { 201: dataEnvelope(webhookWithSecretSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { row, secret } = await webhooks.create(callerOf(request), request.body, actorOf(request));
      reply.code(201);
      return ok(request, { ...toWebhook(row), secret, standard_webhooks_secret: standardWebhooksSecret(secret) });
    },
  );

  // PATCH /v1/webhooks/:id — change the URL or events, disable or re-enable
  app.patch(
    '/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update a webhook',
        description: `\`active: true\` re-enables a disabled webhook and resets its failure count.`,
        params: webhookParams,
        body: updateWebhookBody,
        response: { 200: dataEnvelope(webhookSchema), ...errors },
      },
    },
    async (request) => ok(request, toWebhook(await webhooks.update(callerOf(request), request.params.id, request.body, actorOf(request)))),
  );

  // DELETE /v1/webhooks/:id — delete a webhook and its delivery log
  app.delete(
    '/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a webhook',
        description: `Pending deliveries are dropped with it.`,
        params: webhookParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await webhooks.remove(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // POST /v1/webhooks/:id/rotate-secret — new secret; the old one also signs for WEBHOOK_ROTATION_GRACE
  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config,
      schema: {
        tags,
        summary: 'Rotate a webhook’s secret',
        description:
          `For the grace period (24 h by default) deliveries carry signatures for both secrets: ` +
          '`webhook-signature` lists both, `X-Service-Signature` is the new one and `X-Service-Signature-Previous` the old.',
        params: webhookParams,
        body: rotateSecretBody,
        response: { 200: dataEnvelope(webhookWithSecretSchema), ...errors },
      },
    },
    async (request) => {
      const { row, secret } = await webhooks.rotateSecret(callerOf(request), request.params.id, actorOf(request), request.body?.secret);
      return ok(request, { ...toWebhook(row), secret, standard_webhooks_secret: standardWebhooksSecret(secret) });
    },
  );

  // POST /v1/webhooks/:id/test — send a webhook.test event to this webhook
  app.post(
    '/webhooks/:id/test',
    {
      config,
      schema: {
        tags,
        summary: 'Send a test event',
        description: `Queues a \`webhook.test\` delivery to this webhook only; follow it in the delivery log.`,
        params: webhookParams,
        response: { 201: dataEnvelope(deliverySchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const row = await webhooks.sendTest(callerOf(request), request.params.id);
      reply.code(201);
      return ok(request, toDelivery(row));
    },
  );

  // GET /v1/webhooks/:id/deliveries — the delivery log, newest first, each with its attempts
  app.get(
    '/webhooks/:id/deliveries',
    {
      config,
      schema: {
        tags,
        summary: 'List deliveries',
        description: `Newest first, each with every attempt (status or error, duration, response excerpt).`,
        params: webhookParams,
        querystring: cursorPaginationQuery.extend(deliveriesQuery.shape),
        response: { 200: cursorListEnvelope(deliverySchema), ...errors },
      },
    },
    async (request) =>
      paginateByKeyset(
        request,
        (window) => webhooks.listDeliveries(callerOf(request), request.params.id, request.query.status, window),
        ({ row }) => ({ at: row.createdAt, id: row.id }),
        ({ rows }) => rows.map((r) => toDelivery(r.row, r.attempts)),
      ),
  );

  // GET /v1/webhooks/:id/deliveries/:delivery_id — one delivery with its attempts
  app.get(
    '/webhooks/:id/deliveries/:delivery_id',
    {
      config,
      schema: {
        tags,
        summary: 'Get a delivery',
        params: deliveryParams,
        response: { 200: dataEnvelope(deliverySchema), ...errors },
      },
    },
    async (request) => {
      const { row, attempts } = await webhooks.getDelivery(callerOf(request), request.params.id, request.params.delivery_id);
      return ok(request, toDelivery(row, attempts));
    },
  );

  // POST /v1/webhooks/:id/deliveries/:delivery_id/redeliver — send a delivery again
  app.post(
    '/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config,
      schema: {
        tags,
        summary: 'Redeliver',
        description: `A new delivery of the same body with the same \`webhook-id\`, with a fresh retry schedule.`,
        params: deliveryParams,
        response: { 201: dataEnvelope(deliverySchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const row = await webhooks.redeliver(callerOf(request), request.params.id, request.params.delivery_id);
      reply.code(201);
      return ok(request, toDelivery(row));
    },
  );
}
