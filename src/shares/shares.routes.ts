import { actorOf } from '../audit/actor';
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok, page } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import { demoParams } from '../demos/demo-fields.schemas';
import {
  accessLogEntrySchema,
  accessLogQuery,
  createShareBody,
  patchShareBody,
  shareParams,
  shareSchema,
  toAccessLogEntry,
  toShare, toShareInput } from './shares.schemas';

const tags = ['Shares'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

export function sharesRoutes(app: ZodApp, ctx: ModuleContext<Services['shares']>) {
  const { shares } = ctx.services;
  // A workspace's links on its custom domain once verified (kernel.origins), else on APP_URL.
  const urlsOf = (request: { auth?: { workspaceId: string } }) => ctx.origins.shareUrls(callerOf(request).workspaceId);

  // POST /v1/demos/:id/shares — create a share link
  app.post(
    '/demos/:id/shares',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Create a share link',
        description:
          'Any demo may have links; viewers see it once it is ' +
          'published. `password` is hashed and never returned (`has_password`). Allow-lists need ' +
          '`require_identification: true`.',
        params: demoParams,
        body: createShareBody,
        response: { 201: dataEnvelope(shareSchema), ...errors },
      },
    },
    async (request, reply) => {
      const share = await shares.create(callerOf(request), request.params.id, toShareInput(request.body), actorOf(request));
      reply.code(201);
      return ok(request, toShare(share, await urlsOf(request)));
    },
  );

  // GET /v1/demos/:id/shares — the active share links of a demo
  app.get(
    '/demos/:id/shares',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'List share links',
        description: 'Active (not revoked) links, oldest first; expired links are listed too.',
        params: demoParams,
        response: { 200: listEnvelope(shareSchema), ...errors },
      },
    },
    async (request) => {
      const rows = await shares.list(callerOf(request), request.params.id);
      const urls = await urlsOf(request);
      return page(
        request,
        rows.map((r) => toShare(r, urls)),
        { total: rows.length, page: 1, perPage: Math.max(1, rows.length) },
      );
    },
  );

  // GET /v1/shares/:id — one share link
  app.get(
    '/shares/:id',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'Get a share link',
                params: shareParams,
        response: { 200: dataEnvelope(shareSchema), ...errors },
      },
    },
    async (request) => ok(request, toShare(await shares.get(callerOf(request), request.params.id), await urlsOf(request))),
  );

  // PATCH /v1/shares/:id — change a link's name, password, expiry or identification
  app.patch(
    '/shares/:id',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Update a share link',
        description:
          '`password: null` removes the password. Changing the password signs out ' +
          'every viewer who unlocked the link with the old one. A link a demo hub made for an entry (`hub_id` set) takes ' +
          'its gates from the hub: changing `password`, `expires_at`, `require_identification`, `allowed_emails` or ' +
          '`allowed_domains` there is a 409 `conflict` naming the hub (`details` lists the fields); its name, preview and ' +
          'variables are its own.',
        params: shareParams,
        body: patchShareBody,
        response: { 200: dataEnvelope(shareSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => {
      const share = await shares.update(callerOf(request), request.params.id, toShareInput(request.body), actorOf(request));
      return ok(request, toShare(share, await urlsOf(request)));
    },
  );

  // DELETE /v1/shares/:id — revoke a link; it stops working at once
  app.delete(
    '/shares/:id',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Revoke a share link',
        description:
          'The link answers 404 from now on, also to viewers who had unlocked it. Its ' +
          'views stay in the demo\'s analytics.',
        params: shareParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await shares.revoke(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // GET /v1/shares/:id/access-log — every gate decision of a link, newest first
  app.get(
    '/shares/:id/access-log',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'Share access log',
        description:
          'Each entry is one gate decision (granted, unlocked, identified, wrong_password, ' +
          'blocked, expired, revoked, not_allowed, not_published, password_required, identification_required) ' +
          'with the viewer\'s address, user agent and identity when known. Readable after the link is revoked.',
        params: shareParams,
        querystring: accessLogQuery,
        response: { 200: listEnvelope(accessLogEntrySchema), ...errors },
      },
    },
    async (request) => {
      return paginate(
        request,
        (range) => shares.accessLog(callerOf(request), request.params.id, range),
        ({ rows }) => rows.map(toAccessLogEntry),
      );
    },
  );
}
