// The composition root: every module registered into one Fastify app, built from injected dependencies.
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { accountsModule } from './accounts/accounts.module';
import { aiModule } from './ai/ai.module';
import { apiKeysModule } from './api-keys/api-keys.module';
import { auditModule } from './audit/audit.module';
import { registerAuth } from './auth/auth.hook';
import { createAuthenticator } from './auth/authenticate';
import type { AppContext, AppDeps, Kernel } from './context';
import { registerContentTypePolicy } from './core/http/content-type';
import { registerDocs } from './core/http/docs';
import { registerErrorHandler } from './core/http/error-handler';
import { registerNotFound } from './core/http/not-found';
import { registerOverloadGuard } from './core/http/overload';
import { registerSecurityHeaders, transportHeaders } from './core/http/security-headers';
import { frameworkErrorAnswer, registerTransportHeaders } from './core/http/transport-headers';
import type { ZodApp } from './core/http/types';
import { newId } from './core/ids';
import { demosModule } from './demos/demos.module';
import { domainsModule } from './domains/domains.module';
import { registerPublicHosts } from './domains/public-hosts.hook';
import { demoFormatModule } from './demo-format/demo-format.module';
import { guidesModule } from './guides/guides.module';
import { registerMailJobs } from './mail/mail-queue';
import { healthModule } from './health/health.module';
import { mcpModule } from './mcp/mcp.module';
import { createKernel } from './kernel';
import type { AnyModule, Services } from './module';
import { notificationsModule } from './notifications/notifications.module';
import { oauthModule } from './oauth/oauth.module';
import { openapiTransform, openapiTransformObject, securitySchemes } from './openapi';
import { recordingsModule } from './recordings/recordings.module';
import { recorderExtensionModule } from './recorder-extension/recorder-extension.module';
import { ACCESS_TOKEN_PREFIX } from './oauth/token-issuing';
import { protectedResourceMetadataUrl } from './oauth/well-known.routes';
import { sharesModule } from './shares/shares.module';
import { slackModule } from './slack/slack.module';
import { teamModule } from './team/team.module';
import { viewerPrivacyModule } from './viewer-privacy/viewer-privacy.module';
import { hubsModule } from './hubs/hubs.module';
import { viewingModule } from './viewing/viewing.module';
import { experimentsModule } from './experiments/experiments.module';
import { leadsModule } from './leads/leads.module';
import { crmModule } from './crm/crm.module';
import { rendersModule } from './renders/renders.module';
import { stalenessModule } from './staleness/staleness.module';
import { offlineModule } from './offline/offline.module';
import { translationsModule } from './translations/translations.module';
import { analyticsModule } from './analytics/analytics.module';
import { webModule } from './web/web.module';
import { WEB_APP_CSP } from './web/web.routes';
import { webhooksModule } from './webhooks/webhooks.module';
import { workspacesModule } from './workspaces/workspaces.module';

/**
 * Every domain of the app, one line each. Services are built in this order (a module names the ones it
 * needs), /v1 routes appear in the OpenAPI document in it, and pages are registered in it (web last).
 */
const MODULES: readonly AnyModule[] = [
  healthModule,
  accountsModule,
  workspacesModule,
  aiModule,
  apiKeysModule,
  teamModule,
  demosModule,
  recordingsModule,
  demoFormatModule,
  oauthModule,
  webhooksModule,
  domainsModule,
  sharesModule,
  analyticsModule,
  notificationsModule,
  slackModule,
  translationsModule,
  viewingModule,
  hubsModule,
  experimentsModule,
  leadsModule,
  crmModule,
  rendersModule,
  stalenessModule,
  offlineModule,
  viewerPrivacyModule,
  auditModule,
  mcpModule,
  guidesModule,
  recorderExtensionModule,
  webModule,
];

/**
 * Builds the whole HTTP application from its dependencies without listening or starting workers, so that
 * tests run it in-process with `app.inject()`. Nothing here runs at import time.
 *
 * @example
 * ```ts
 * import { buildApp } from './app';
 * import { testConfig } from './config';
 * import { openDatabase } from './db/client';
 * import { JobQueue } from './jobs/queue';
 *
 * const database = await openDatabase({}); // PGlite in memory
 * const { app } = await buildApp({ config: testConfig(), database, secretKey: 'a-secret-key-of-at-least-32-characters!', queue: new JobQueue(database, { work: false }) });
 * const res = await app.inject({ method: 'GET', url: '/healthz' }); // 200
 * await app.close();
 * ```
 */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const { config } = deps;
  const app = Fastify({
    // Silent: no logger at all, rather than one that makes a child per request and discards its lines.
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    genReqId: () => newId('request'),
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    // A malformed escape or an overlong segment in the path: the documented error body, not Fastify's. The
    // router refuses these before any hook runs, so the headers of the hooks below are set here.
    frameworkErrors: frameworkErrorAnswer(transportHeaders(config.APP_URL)),
  }).withTypeProvider() as unknown as ZodApp;

  const kernel = createKernel(deps, app.log);
  const services = createServices(kernel);
  const ctx: AppContext = { ...kernel, services };
  const of = (module: AnyModule) => ({ ...kernel, services: services[module.name as keyof Services] });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerNotFound(app);
  registerOverloadGuard(app, config.MAX_EVENT_LOOP_DELAY, kernel.clock);
  registerTransportHeaders(app);
  // CSP, framing and Referrer-Policy on every HTML answer (static files included); HSTS behind HTTPS.
  registerSecurityHeaders(app, { appUrl: config.APP_URL, documentPolicy: WEB_APP_CSP });

  await app.register(fastifyCookie);
  // Custom domains: which workspace a Host serves, before authentication (nothing but viewer pages there).
  registerPublicHosts(app as unknown as FastifyInstance, services.domains.hosts, services.domains.instanceHosts);
  await app.register(fastifyFormbody);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Demoshare API',
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Host interactive product demos and share them with viewers. Every response is wrapped in ' +
          '`{data, meta}`; errors in `{error: {code, message, request_id, details?}}`.',
      },
      servers: [{ url: config.API_URL ?? config.APP_URL }],
      components: { securitySchemes: securitySchemes(config.APP_URL, config.API_URL ?? config.APP_URL) },
    },
    // operationId, security and the common error responses, derived from each route's declarations.
    transform: openapiTransform,
    // Puts the schemas named with .meta({ id }) into components.schemas, where the routes' $refs point.
    transformObject: openapiTransformObject,
  });
  await registerDocs(app, config.API_URL ?? config.APP_URL);

  const bearers = [
    { prefix: 'dsk_', resolve: services.apiKeys.apiKeys.resolve },
    { prefix: ACCESS_TOKEN_PREFIX, resolve: services.oauth.oauthTokens.resolve },
  ];
  registerAuth(app, kernel, createAuthenticator(bearers, {
    resolve: async (cookie) => {
      const entry = await services.accounts.accounts.resolveSession(cookie);
      return entry ? { auth: entry.auth, csrfToken: entry.csrfToken ?? '' } : null;
    },
  }, { resourceMetadata: protectedResourceMetadataUrl(config) }));

  registerContentTypePolicy(app);
  // Read-your-writes with a replica (db/read-replica.ts): a member's successful write keeps their workspace's
  // reads on the primary until the replica has replayed it. At onSend the handler's transaction has committed.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.auth && request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
      kernel.reads.wrote(request.auth.workspaceId);
    }
    done(null, payload);
  });

  await app.register(
    async (v1) => {
      const api = v1 as unknown as ZodApp;
      for (const module of MODULES) module.routes?.(api, of(module));
      // GET /v1/openapi.json — this API's OpenAPI 3.1 document
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/v1' },
  );
  for (const module of MODULES) await module.pages?.(app, of(module));
  app.addHook('onClose', async () => {
    for (const module of MODULES) await module.close?.(of(module).services);
    // Background loops (webhook deliveries) stop first: they still need the network client and the database.
    await ctx.queue.stopLoops();
    await ctx.net.close();
    await ctx.reads.close();
    // Threads the app started for itself; a pool it was given belongs to the caller (runtime.ts).
    if (!deps.documents) await ctx.documents.close();
    if (deps.assetStore === undefined) await ctx.assetStore?.close();
  });

  return { app: app as unknown as FastifyInstance, ctx };
}

/** Builds every module's services, each from the kernel and the modules it names (and only those). */
function createServices(kernel: Kernel): Services {
  const services: Partial<Record<string, unknown>> = {};
  const claims = new Map<string, string>();
  for (const module of MODULES) {
    for (const [kind, names] of Object.entries(module.owns ?? {})) {
      for (const name of typeof names === 'string' ? [names] : (names as readonly string[])) {
        const claimant = claims.get(`${kind}:${name}`);
        if (claimant) throw new Error(`Modules ${claimant} and ${module.name} both claim ${kind} ${name}`);
        claims.set(`${kind}:${name}`, module.name);
      }
    }
    const deps = {};
    for (const name of (module.needs ?? []) as string[]) {
      Object.defineProperty(deps, name, {
        enumerable: true,
        get() {
          const found = services[name];
          if (!found) throw new Error(`Module ${module.name} reads ${name} before it is built: read it when called`);
          return found;
        },
      });
    }
    services[module.name] = module.create(kernel, deps);
  }
  return services as unknown as Services;
}

/**
 * Every module's queues and workers. Sending works in every process; `work` only runs in workers.
 *
 * @example
 * ```ts
 * import { buildApp, registerJobs } from './app';
 * import type { AppDeps } from './context';
 *
 * declare const deps: AppDeps;
 * const { ctx } = await buildApp(deps);
 * await registerJobs(ctx); // before deps.queue.start(...)
 * ```
 */
export async function registerJobs(ctx: AppContext): Promise<void> {
  await registerMailJobs(ctx);
  for (const module of MODULES) await module.jobs?.({ ...ctx, services: ctx.services[module.name as keyof Services] });
}
