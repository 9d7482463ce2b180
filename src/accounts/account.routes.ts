// /v1/account/* and /v1/auth/password-reset, /v1/auth/verify-email: one's own account and the e-mailed links (accounts.routes.ts: sign-up, sign-in, sessions).
import { actorOf, originOf } from '../audit/actor';
import type { FastifyRequest } from 'fastify';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok, page } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import {
  acceptedSchema,
  accountSessionSchema,
  changeEmailBody,
  changePasswordBody,
  endedSessionsSchema,
  passwordChangedSchema,
  passwordResetBody,
  passwordResetRequestBody,
  profileBody,
  sessionParams,
  toAccountSession,
  verifyEmailBody,
} from './account.schemas';
import { toUser, userSchema } from './accounts.schemas';
import { normaliseEmail } from './email-address';
import { signInFailures } from './sign-in-failures';

const tags = ['Account (web app)'];
const RESET_SENT =
  'If an account uses this address, a link to reset its password is on its way. It works once, for a limited time.';
/** Without SMTP_URL no e-mail leaves the server: the links are only in its log, and the answers say so. */
const NO_MAIL = 'This server cannot send e-mail (SMTP is not set up)';
const RESET_LOGGED = `${NO_MAIL}: if an account uses this address, its reset link was written to the server's log. Ask the person who runs this server for it.`;

/**
 * A signed-in user's own account, and the public pages behind the links e-mailed to them.
 *
 * @example
 * accountRoutes(app, { ...kernel, services: services.accounts }); // as accountsModule.routes does
 */
export function accountRoutes(app: ZodApp, ctx: ModuleContext<Services['accounts']>) {
  const { security } = ctx.services;
  const failures = signInFailures(ctx.rateLimits, ctx.config.LOGIN_FAILURES_PER_ADDRESS);
  const ipBudget = { points: ctx.config.RATE_LIMIT_LOGIN_PER_MINUTE, duration: 60 };
  // Per address (or account), whether or not an account has it: bounds the mail one person can cause someone else.
  const mailBudget = { points: 5, duration: 3600 };
  const me = (request: FastifyRequest) => security.account(callerOf(request).userId);

  app.post(
    '/auth/password-reset',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Ask for a password-reset link',
        description:
          'E-mails a single-use link (`{app_url}/reset-password/{token}`, valid `PASSWORD_RESET_TTL`, 1 h by default) when ' +
          'an account has this address. The answer is the same 202 for every address, known or not; 429 after 5 ' +
          'requests an hour for one address or too many from one IP.',
        body: passwordResetRequestBody,
        response: { 202: dataEnvelope(acceptedSchema), 400: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      await ctx.rateLimits.consume('login', ipBudget, `ip:${request.ip}`);
      await ctx.rateLimits.consume('account-mail', mailBudget, `addr:${normaliseEmail(request.body.email)}`);
      await security.requestPasswordReset(request.body.email);
      reply.code(202);
      return ok(request, { message: ctx.mailer.delivers ? RESET_SENT : RESET_LOGGED });
    },
  );

  app.post(
    '/auth/password-reset/complete',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Set a new password from a reset link',
        description:
          'Sets the password and signs the account out everywhere (API keys and OAuth grants stay); every other ' +
          'e-mailed link of the account ends too (a pending change of address, a verification link). The link works ' +
          'once: 404 when used or replaced by a newer one, 410 when expired. Following it also verifies the address.',
        body: passwordResetBody,
        response: { 204: noContent, 400: errorEnvelope, 404: errorEnvelope, 410: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      await ctx.rateLimits.consume('login', ipBudget, `ip:${request.ip}`);
      await security.resetPassword(request.body.token, request.body.password, originOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Verify an e-mail address',
        description:
          'Following the e-mailed link proves the address; no sign-in is needed. For a change of address the account ' +
          'moves to the new one now and the old one is told (409 when another account took it meanwhile). The link ' +
          'works once: 404 when used or replaced, 410 when expired.',
        body: verifyEmailBody,
        response: {
          200: dataEnvelope(userSchema),
          400: errorEnvelope,
          404: errorEnvelope,
          409: errorEnvelope,
          410: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request) => ok(request, toUser(await security.verifyEmail(request.body.token, originOf(request)))),
  );

  app.get(
    '/account',
    {
      config: { permission: 'account.read' },
      schema: { tags, summary: 'Your profile', response: { 200: dataEnvelope(userSchema), 401: errorEnvelope, 403: errorEnvelope } },
    },
    async (request) => ok(request, toUser(await me(request))),
  );

  app.patch(
    '/account',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Update your profile',
        body: profileBody,
        response: { 200: dataEnvelope(userSchema), 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => ok(request, toUser(await security.updateProfile(callerOf(request).userId, request.body))),
  );

  app.post(
    '/account/email-verification',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Send a new verification link',
        description: 'E-mails a new link to your address; earlier links stop working. 409 when the address is verified already.',
        response: { 202: dataEnvelope(acceptedSchema), 401: errorEnvelope, 403: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      await ctx.rateLimits.consume('account-mail', mailBudget, `user:${auth.userId}`);
      await security.resendVerification(auth.userId);
      reply.code(202);
      return ok(request, {
        message: ctx.mailer.delivers
          ? 'A new verification link is on its way to your address.'
          : `${NO_MAIL}: the new verification link was written to the server's log. Ask the person who runs this server for it.`,
      });
    },
  );

  app.put(
    '/account/password',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Change your password',
        description:
          'Needs the current password (400 naming `current_password` when wrong; wrong attempts count towards the ' +
          'sign-in limit of the address, 429 past it). Your other sessions are signed out; this one stays. Every ' +
          'outstanding e-mailed link ends: a pending change of address, a verification link, a password-reset link.',
        body: changePasswordBody,
        response: { 200: dataEnvelope(passwordChangedSchema), 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const user = await me(request);
      const { endedSessions } = await failures.guard(user.email, () =>
        security.changePassword(actorOf(request), auth.userId, auth.credentialId, request.body.current_password, request.body.new_password),
      );
      return ok(request, { ended_sessions: endedSessions });
    },
  );

  app.post(
    '/account/email',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Change your e-mail address',
        description:
          'Needs the current password (400 naming `current_password` when wrong). A verification link goes to the new ' +
          'address; the account moves when it is followed. The answer does not say whether another account has the ' +
          'new address (that address is told instead).',
        body: changeEmailBody,
        response: { 202: dataEnvelope(acceptedSchema), 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const user = await me(request);
      await failures.guard(user.email, () =>
        security.requestEmailChange(auth.userId, request.body.current_password, request.body.email),
      );
      reply.code(202);
      return ok(request, {
        message: ctx.mailer.delivers
          ? `Follow the link sent to ${normaliseEmail(request.body.email)} to finish the change. Until then your address stays ${user.email}.`
          : `${NO_MAIL}: the link that confirms ${normaliseEmail(request.body.email)} was written to the server's log; ask the person who runs this server for it. Until then your address stays ${user.email}.`,
      });
    },
  );

  app.get(
    '/account/sessions',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Your sessions',
        description: 'Every signed-in browser of your account, most recently used first; `current` marks this one.',
        response: { 200: listEnvelope(accountSessionSchema), 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const rows = await security.listSessions(auth.userId);
      const data = rows.map((row) => toAccountSession(row, auth.credentialId));
      return page(request, data, { page: 1, perPage: Math.max(1, data.length), total: data.length });
    },
  );

  app.delete(
    '/account/sessions/:id',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Sign out one session',
        description: 'Ends one of your sessions at once, in every process. 404 when it is not yours or already ended.',
        params: sessionParams,
        response: { 204: noContent, 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope },
      },
    },
    async (request, reply) => {
      await security.revokeSession(actorOf(request), callerOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/account/sessions',
    {
      config: { permission: 'account.read' },
      schema: {
        tags,
        summary: 'Sign out everywhere else',
        description:
          'Ends every session of your account but this one, and every outstanding e-mailed link (a pending change of ' +
          'address, a verification link, a password-reset link): ask for a new verification link if you still need one.',
        response: { 200: dataEnvelope(endedSessionsSchema), 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      return ok(request, { ended_sessions: await security.revokeOtherSessions(actorOf(request), auth.userId, auth.credentialId) });
    },
  );
}
