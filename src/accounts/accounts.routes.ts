// /v1/auth/* and /v1/invitations/*: sign-up, sign-in and out, the workspace a session acts in, invitations accepted.
import { originOf } from '../audit/actor';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, SESSION_COOKIE } from '../auth/authenticate';
import { permissionsOf, SCOPES } from '../auth/permissions';
import type { ModuleContext, Services } from '../module';
import { AppError } from '../core/errors';
import { dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import {
  invitationParams,
  invitationPreviewSchema,
  loginBody,
  sessionSchema,
  signupBody,
  signupPolicySchema,
  switchWorkspaceBody,
  toInvitationPreview,
  toSignupInput,
  toSignupPolicy,
  toUser,
  toWorkspace,
} from './accounts.schemas';
import type { StartedSession } from './accounts.service';
import { signInFailures } from './sign-in-failures';

const tags = ['Session (web app)'];

/**
 * Registers sign-up, sign-in and out, the session and its workspace, and the invitation pages' routes.
 * The module's `routes` calls it; a session is a cookie pair (SESSION_COOKIE, CSRF_COOKIE).
 *
 * @example
 * accountsRoutes(app, { ...kernel, services: services.accounts }); // as accountsModule.routes does
 */
export function accountsRoutes(app: ZodApp, ctx: ModuleContext<Services['accounts']>) {
  const { accounts } = ctx.services;
  const secureCookies = ctx.config.APP_URL.startsWith('https:');
  const loginPolicy = { points: ctx.config.RATE_LIMIT_LOGIN_PER_MINUTE, duration: 60 };
  const failures = signInFailures(ctx.rateLimits, ctx.config.LOGIN_FAILURES_PER_ADDRESS);

  function setSessionCookies(reply: FastifyReply, session: StartedSession) {
    const common = { path: '/', sameSite: 'lax' as const, secure: secureCookies, expires: session.expiresAt };
    reply.setCookie(SESSION_COOKIE, session.token, { ...common, httpOnly: true });
    // Readable by the web app, which echoes it in X-CSRF-Token; useless to another site, which cannot read it.
    reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false });
  }

  async function sessionBody(request: FastifyRequest, userId: string, workspaceId: string, csrfToken: string) {
    const p = await accounts.profile(userId, workspaceId);
    return ok(request, {
      user: toUser(p.user),
      workspace: toWorkspace(p.workspace, p.member),
      member_id: p.member.id,
      csrf_token: csrfToken,
      workspaces: p.memberships.map((m) => toWorkspace(m.workspace, m.member)),
      permissions: permissionsOf(p.member.role, 'session', SCOPES),
      email_delivery: ctx.mailer.delivers,
    });
  }


  // POST /v1/auth/signup — create an account and its workspace, and sign in
  app.post(
    '/auth/signup',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign up',
        body: signupBody,
        description:
          'With `invitation_token` the new account also joins that workspace and the session acts there; the ' +
          'token must be for the same address (403), live (404 when used or revoked, 410 when expired). Without ' +
          'one, the operator\'s SIGNUP decides (`GET /v1/auth/signup-policy`): a sign-up it does not allow is a 403 ' +
          '`forbidden` saying how to get in, whether or not the address has an account. The first account of an ' +
          'empty server is accepted in every mode.',
        response: {
          201: dataEnvelope(sessionSchema),
          400: errorEnvelope,
          403: errorEnvelope,
          404: errorEnvelope,
          409: errorEnvelope,
          410: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request, reply) => {
      await ctx.rateLimits.consume('login', loginPolicy, `ip:${request.ip}`);
      const { user, workspace } = await accounts.createAccount(toSignupInput(request.body), originOf(request));
      const session = await accounts.startSession(user.id, workspace.id, originOf(request));
      setSessionCookies(reply, session);
      reply.code(201);
      return sessionBody(request, user.id, workspace.id, session.csrfToken);
    },
  );

  // GET /v1/auth/signup-policy — who may sign up here, for the sign-in and sign-up pages
  app.get(
    '/auth/signup-policy',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Who may sign up',
        description:
          'The operator\'s SIGNUP setting, for the sign-in and sign-up pages: open to anyone, by invitation only, or ' +
          'open to listed e-mail domains; and whether the server has no account yet (its first sign-up is open in ' +
          'every mode); and whether it can send e-mail at all. Needs no sign-in; changes nothing.',
        response: { 200: dataEnvelope(signupPolicySchema), 429: errorEnvelope },
      },
    },
    async (request) => ok(request, { ...toSignupPolicy(await accounts.signupPolicy()), email_delivery: ctx.mailer.delivers }),
  );

  // POST /v1/auth/login — sign in with e-mail and password
  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in',
        description:
          'The same 401 for an unknown address and a wrong password. 429 after `LOGIN_FAILURES_PER_ADDRESS` (10) ' +
          'wrong passwords for one address in 15 minutes, from any IP, sent one by one or all at once (each attempt ' +
          'is counted before its password is checked), or too many attempts from one IP. ' +
          'With `invitation_token` the user first joins that workspace (the invitation must be for this ' +
          'address: 403; live: 404 when used or revoked, 410 when expired) and the session acts there.',
        body: loginBody,
        response: {
          200: dataEnvelope(sessionSchema),
          400: errorEnvelope,
          401: errorEnvelope,
          403: errorEnvelope,
          404: errorEnvelope,
          410: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request, reply) => {
      await ctx.rateLimits.consume('login', loginPolicy, `ip:${request.ip}`);
      const { user, workspace } = await failures.guard(request.body.email, () =>
        accounts.verifyCredentials(request.body.email, request.body.password, {
          workspaceId: request.body.workspace_id,
          invitationToken: request.body.invitation_token,
          origin: originOf(request),
        }),
      );
      const session = await accounts.startSession(user.id, workspace.id, originOf(request));
      setSessionCookies(reply, session);
      return sessionBody(request, user.id, workspace.id, session.csrfToken);
    },
  );

  // POST /v1/auth/logout — end the current session
  app.post(
    '/auth/logout',
    {
      config: { permission: 'account.read' },
      schema: { tags, summary: 'Sign out', response: { 204: noContent, 401: errorEnvelope } },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      if (auth.kind !== 'session') throw new AppError('forbidden', 'Only a web-app session can sign out');
      await accounts.endSession(auth.credentialId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' }).clearCookie(CSRF_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  );

  // POST /v1/auth/workspace — act in another workspace the signed-in user belongs to
  app.post(
    '/auth/workspace',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Switch workspace',
        description: 'The session then acts in this workspace; a workspace the user is not a member of is a 404.',
        body: switchWorkspaceBody,
        response: {
          200: dataEnvelope(sessionSchema),
          400: errorEnvelope,
          401: errorEnvelope,
          403: errorEnvelope,
          404: errorEnvelope,
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      await accounts.switchWorkspace(auth.credentialId, auth.userId, request.body.workspace_id);
      const cached = await accounts.resolveSession(request.cookies[SESSION_COOKIE] ?? '');
      return sessionBody(request, auth.userId, request.body.workspace_id, cached?.csrfToken ?? '');
    },
  );

  // GET /v1/invitations/:token — what an invitation link offers, for the accept page
  app.get(
    '/invitations/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Read an invitation',
        description:
          'The workspace, inviter, address and role behind an invitation link. 404 when the link was used, ' +
          'revoked or replaced by a resend; 410 when it expired. Changes nothing.',
        params: invitationParams,
        response: { 200: dataEnvelope(invitationPreviewSchema), 400: errorEnvelope, 404: errorEnvelope, 410: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request) => ok(request, toInvitationPreview(await accounts.previewInvitation(request.params.token))),
  );

  // POST /v1/invitations/:token/accept — join the invitation's workspace as the signed-in user
  app.post(
    '/invitations/:token/accept',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Accept an invitation',
        description:
          'The signed-in user must hold the invited address (403 otherwise); the link ' +
          'works once. The session then acts in the joined workspace.',
        params: invitationParams,
        response: {
          200: dataEnvelope(sessionSchema),
          400: errorEnvelope,
          401: errorEnvelope,
          403: errorEnvelope,
          404: errorEnvelope,
          410: errorEnvelope,
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const profile = await accounts.profile(auth.userId, auth.workspaceId);
      const { workspace } = await accounts.acceptInvitation(request.params.token, profile.user, originOf(request));
      await accounts.switchWorkspace(auth.credentialId, auth.userId, workspace.id);
      const cached = await accounts.resolveSession(request.cookies[SESSION_COOKIE] ?? '');
      return sessionBody(request, auth.userId, workspace.id, cached?.csrfToken ?? '');
    },
  );

  // GET /v1/auth/session — who is signed in, in which workspace
  app.get(
    '/auth/session',
    {
      config: { permission: 'account.read' },
      schema: { tags, summary: 'Current session', response: { 200: dataEnvelope(sessionSchema), 401: errorEnvelope } },
    },
    async (request) => {
      const auth = callerOf(request);
      const cached = await accounts.resolveSession(request.cookies.ds_session ?? '');
      return sessionBody(request, auth.userId, auth.workspaceId, cached?.csrfToken ?? '');
    },
  );
}
