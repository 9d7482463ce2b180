// /v1/workspace/slack (admins) and /v1/account/slack (each member's own): the Slack destination, its test, its message log.
import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate, paginationQuery } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import {
  messageParams,
  messagesQuery,
  putSlackBody,
  slackMessageSchema,
  slackSettingsSchema,
  slackTestSchema,
  toSlackMessage,
  toSlackSettings,
} from './slack.schemas';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };

interface Flavour {
  path: string;
  member: boolean;
  permission: 'slack.manage' | 'account.read';
  tags: string[];
  whose: string;
}

const FLAVOURS: Flavour[] = [
  { path: '/workspace/slack', member: false, permission: 'slack.manage', tags: ['Workspace (web app)'], whose: 'the workspace’s' },
  { path: '/account/slack', member: true, permission: 'account.read', tags: ['Account (web app)'], whose: 'your own (in the workspace the session acts in)' },
];

/**
 * The same six routes twice: the workspace's destination, set by admins, and each member's own; both in
 * the web app only (the URL is a secret).
 */
export function slackRoutes(app: ZodApp, ctx: ModuleContext<Services['slack']>) {
  for (const flavour of FLAVOURS) slackFlavourRoutes(app, ctx, flavour);
}

function slackFlavourRoutes(app: ZodApp, ctx: ModuleContext<Services['slack']>, f: Flavour) {
  const { slack } = ctx.services;
  const { tags, member } = f;
  const config = { permission: f.permission };

  // GET /v1/workspace/slack, /v1/account/slack — the Slack destination and its state
  app.get(
    f.path,
    {
      config,
      schema: {
        tags,
        summary: member ? 'Your Slack alerts' : 'Workspace Slack alerts',
        description: `Slack alerts, ${f.whose}: which alerts go to which channel (the URL itself is never returned), and whether Slack disabled it.`,
        response: { 200: dataEnvelope(slackSettingsSchema), ...errors },
      },
    },
    async (request) => ok(request, toSlackSettings(await slack.get(callerOf(request), member))),
  );

  // PUT /v1/workspace/slack, /v1/account/slack — save the URL (checked by a test message) and the alerts
  app.put(
    f.path,
    {
      config,
      schema: {
        tags,
        summary: member ? 'Save your Slack alerts' : 'Save workspace Slack alerts',
        description:
          'A new `url` is checked first: by the SSRF guard (400) and by a test message that Slack must take (422 with ' +
          'Slack’s answer, such as `no_service`; nothing saved). Saving a URL turns a destination Slack had disabled back ' +
          `on. Alerts are made from the events that happen after this.${member ? '' : ' Recorded in the audit log (`workspace.changed`, the URL’s hint only).'}`,
        body: putSlackBody,
        response: { 200: dataEnvelope(slackSettingsSchema), 422: errorEnvelope, ...errors },
      },
    },
    async (request) => ok(request, toSlackSettings(await slack.save(callerOf(request), member, request.body, actorOf(request)))),
  );

  // DELETE /v1/workspace/slack, /v1/account/slack — forget the URL and the message log
  app.delete(
    f.path,
    {
      config,
      schema: {
        tags,
        summary: member ? 'Remove your Slack alerts' : 'Remove workspace Slack alerts',
        description: 'The URL, the choices and the message log are deleted; messages not sent yet are not. 204 also when nothing was saved.',
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await slack.remove(callerOf(request), member, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // POST /v1/workspace/slack/test, /v1/account/slack/test — send a test message to the saved URL
  app.post(
    `${f.path}/test`,
    {
      config,
      schema: {
        tags,
        summary: member ? 'Test your Slack alerts' : 'Test workspace Slack alerts',
        description:
          'Sends a test message now. Slack refusing it is an answer (`ok: false` with its reason), not an error. When ' +
          'Slack takes it, a destination it had disabled is turned back on. 404 when no URL is saved.',
        response: { 200: dataEnvelope(slackTestSchema), 404: errorEnvelope, 409: errorEnvelope, ...errors },
      },
    },
    async (request) => {
      const result = await slack.test(callerOf(request), member);
      return ok(request, { ok: result.ok, status_code: result.statusCode, error: result.error });
    },
  );

  // GET /v1/workspace/slack/messages, /v1/account/slack/messages — the message log
  app.get(
    `${f.path}/messages`,
    {
      config,
      schema: {
        tags,
        summary: member ? 'Your Slack message log' : 'Workspace Slack message log',
        description:
          'Newest first: each alert made for the channel, its state, attempts and the last failure with Slack’s answer. ' +
          'Failed attempts are retried on the webhooks’ schedule (WEBHOOK_RETRY_DELAYS; a 429’s Retry-After is honoured). ' +
          'Kept for WEBHOOK_LOG_RETENTION. Empty when no URL is saved.',
        querystring: paginationQuery.extend(messagesQuery.shape),
        response: { 200: listEnvelope(slackMessageSchema), ...errors },
      },
    },
    async (request) =>
      paginate(request, (range) => slack.messages(callerOf(request), member, request.query.status, range), ({ rows }) => rows.map(toSlackMessage)),
  );

  // POST /v1/workspace/slack/messages/:message_id/retry, /v1/account/slack/messages/:message_id/retry — send a failed message again
  app.post(
    `${f.path}/messages/:message_id/retry`,
    {
      config,
      schema: {
        tags,
        summary: member ? 'Retry one of your Slack messages' : 'Retry a workspace Slack message',
        description:
          'Queues a `failed` or `cancelled` message again with a new round of attempts, the same message as before. 409 ' +
          'for a message in another state, or while Slack has the URL disabled.',
        params: messageParams,
        response: { 200: dataEnvelope(slackMessageSchema), 404: errorEnvelope, 409: errorEnvelope, ...errors },
      },
    },
    async (request) => ok(request, toSlackMessage(await slack.resend(callerOf(request), member, request.params.message_id))),
  );
}
