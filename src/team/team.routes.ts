// /v1/team/members: list, invite, resend or revoke an invitation, change a role, remove a member.
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok, } from '../core/envelope';
import { actorOf } from '../audit/actor';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate, paginationQuery } from '../core/pagination';
import { inviteBody, memberParams, memberSchema, roleBody, toMember } from './team.schemas';

const tags = ['Team'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

/**
 * Registers the team routes: each declares its permission (team.read / team.write) and calls the service.
 *
 * @example
 * teamRoutes(app, { ...kernel, services: services.team }); // as teamModule.routes does
 */
export function teamRoutes(app: ZodApp, ctx: ModuleContext<Services['team']>) {
  const { team } = ctx.services;
  const now = () => ctx.clock.now();

  // GET /v1/team/members — list the workspace's members and pending invitations
  app.get(
    '/team/members',
    {
      config: { permission: 'team.read' },
      schema: {
        tags,
        summary: 'List team members',
        description: 'Oldest member first.',
        querystring: paginationQuery,
        response: { 200: listEnvelope(memberSchema), ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => team.list(callerOf(request), range),
        ({ rows }) => rows.map((r) => toMember(r.member, r.name, now())),
      ),
  );

  // POST /v1/team/members — invite someone by e-mail
  app.post(
    '/team/members',
    {
      config: { permission: 'team.write' },
      schema: {
        tags,
        summary: 'Invite a team member',
        description:
          'E-mails a single-use link, bound to the address and valid for ' +
          '`INVITATION_TTL` (7 days); the member is `invited` until someone with that address follows it and ' +
          'signs in or signs up. Without SMTP the link is returned in `invitation.url` instead. A failed ' +
          'e-mail still creates the invitation, with `invitation.email_status` `failed`.',
        body: inviteBody,
        response: { 201: dataEnvelope(memberSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const { member, name, url } = await team.invite(callerOf(request), request.body, actorOf(request));
      reply.code(201);
      return ok(request, toMember(member, name, now(), url));
    },
  );

  // POST /v1/team/members/:id/invitation — resend an invitation with a new link
  app.post(
    '/team/members/:id/invitation',
    {
      config: { permission: 'team.write' },
      schema: {
        tags,
        summary: 'Resend an invitation',
        description:
          'Issues a new link (the previous one stops working), valid for ' +
          'another `INVITATION_TTL`, and e-mails it (or returns it in `invitation.url` without SMTP). 409 ' +
          'when the member has already joined.',
        params: memberParams,
        response: { 200: dataEnvelope(memberSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => {
      const { member, name, url } = await team.resendInvitation(callerOf(request), request.params.id, actorOf(request));
      return ok(request, toMember(member, name, now(), url));
    },
  );

  // DELETE /v1/team/members/:id/invitation — revoke a pending invitation
  app.delete(
    '/team/members/:id/invitation',
    {
      config: { permission: 'team.write' },
      schema: {
        tags,
        summary: 'Revoke an invitation',
        description:
          'The link stops working and the invited member is removed. 409 ' +
          'when the member has already joined (remove the member instead).',
        params: memberParams,
        response: { 204: noContent, ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      await team.revokeInvitation(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // PATCH /v1/team/members/:id — change a member's role
  app.patch(
    '/team/members/:id',
    {
      config: { permission: 'team.write' },
      schema: {
        tags,
        summary: 'Change a member’s role',
        description: 'The last admin cannot be demoted (409).',
        params: memberParams,
        body: roleBody,
        response: { 200: dataEnvelope(memberSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => {
      const { member, name } = await team.changeRole(callerOf(request), request.params.id, request.body.role, actorOf(request));
      return ok(request, toMember(member, name, now()));
    },
  );

  // DELETE /v1/team/members/:id — remove a member; their API keys die with them
  app.delete(
    '/team/members/:id',
    {
      config: { permission: 'team.write' },
      schema: {
        tags,
        summary: 'Remove a team member',
        description: 'Their API keys and sessions stop working at once.',
        params: memberParams,
        response: { 204: noContent, ...errors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      await team.remove(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
}
