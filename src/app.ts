import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { accountsRoutes } from './accounts/accounts.routes';
import { authorizeRoutes } from './oauth/authorize.routes';
import { createOAuthAppsService } from './oauth/oauth-apps.service';
import { oauthAppsRoutes } from './oauth/oauth-apps.routes';
import { ACCESS_TOKEN_PREFIX, createOAuthTokensService } from './oauth/oauth-tokens.service';
import { oauthMetadataRoute, tokenRoutes } from './oauth/token.routes';
import { createAccountsService } from './accounts/accounts.service';
import { apiKeysRoutes } from './api-keys/api-keys.routes';
import { createApiKeysService } from './api-keys/api-keys.service';
import { registerAuth } from './auth/auth.hook';
import { createAuthenticator } from './auth/authenticate';
import { CredentialCache } from './auth/credential-cache';
import type { AppContext, AppDeps } from './context';
import { createLocalBus } from './core/bus';
import { Changes } from './core/changes';
import { systemClock } from './core/clock';
import { deriveKey } from './core/crypto';
import { unavailableGenerator } from './demos/demos.generator';
import { demosRoutes } from './demos/demos.routes';
import { createDemosService } from './demos/demos.service';
import { stepsRoutes } from './demos/steps.routes';
import { createStepsService } from './demos/steps.service';
import { registerContentTypePolicy } from './core/http/content-type';
import { registerErrorHandler } from './core/http/error-handler';
import { registerNotFound } from './core/http/not-found';
import type { ZodApp } from './core/http/types';
import { newId } from './core/ids';
import { AddressPolicy } from './core/net/address-policy';
import { SafeFetch } from './core/net/safe-fetch';
import { RateLimits } from './core/rate-limit';
import { healthRoutes } from './health/health.routes';
import { createLogMailer } from './mail/mailer';
import { createTeamService } from './team/team.service';
import { teamRoutes } from './team/team.routes';
import { createDemoReader } from './demos/demos.reader';
import { addShareViews } from './shares/shares.repo';
import { createShareLinks } from './shares/share-links';
import { sharesRoutes } from './shares/shares.routes';
import { createSharesService } from './shares/shares.service';
import { ViewerCache } from './viewer/viewer-cache';
import { createViewerContent } from './viewer/viewer-content.service';
import { viewerPages } from './viewer/viewer.pages';
import { viewerRoutes } from './viewer/viewer.routes';
import { createViewerGates } from './viewer/viewer.service';
import { createIngestion } from './views/views.ingest';
import { viewsRoutes } from './views/views.routes';
import { createViewsService } from './views/views.service';
import { webRoutes } from './web/web.routes';
import { webhooksRoutes } from './webhooks/webhooks.routes';
import { createWebhooksService } from './webhooks/webhooks.service';

/** The v1 route modules, in the order they appear in the OpenAPI document. */
const V1_MODULES = [
  accountsRoutes,
  apiKeysRoutes,
  teamRoutes,
  demosRoutes,
  stepsRoutes,
  oauthAppsRoutes,
  authorizeRoutes,
  tokenRoutes,
  webhooksRoutes,
  sharesRoutes,
  viewsRoutes,
  viewerRoutes,
];

/**
 * Builds the whole HTTP application from its dependencies without listening or starting workers, so that
 * tests run it in-process with `app.inject()`. Nothing here runs at import time.
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
  }).withTypeProvider() as unknown as ZodApp;

  const ctx = createContext(deps, app);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerNotFound(app);
  // Hooks on every request take a callback rather than returning a promise: one microtask less each.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Demoshare API',
        version: '1.0.0',
        description:
          'Host interactive product demos and share them with viewers. Every response is wrapped in ' +
          '`{data, meta}`; errors in `{error: {code, message, request_id, details?}}`.',
      },
      servers: [{ url: config.API_URL ?? config.APP_URL }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (dsk_...) or an OAuth access token.' },
        },
      },
    },
    transform: jsonSchemaTransform,
    // Puts the schemas named with .meta({ id }) into components.schemas, where the routes' $refs point.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  const bearers = [
    { prefix: 'dsk_', resolve: ctx.services.apiKeys.resolve },
    { prefix: ACCESS_TOKEN_PREFIX, resolve: ctx.services.oauthTokens.resolve },
  ];
  registerAuth(app, ctx, createAuthenticator(bearers, {
    resolve: async (cookie) => {
      const entry = await ctx.services.accounts.resolveSession(cookie);
      return entry ? { auth: entry.auth, csrfToken: entry.csrfToken ?? '' } : null;
    },
  }));

  registerContentTypePolicy(app);

  await app.register(
    async (v1) => {
      const api = v1 as unknown as ZodApp;
      for (const register of V1_MODULES) register(api, ctx);
      // GET /v1/openapi.json — this API's OpenAPI 3.1 document
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/v1' },
  );
  healthRoutes(app, ctx);
  oauthMetadataRoute(app, ctx);
  await viewerPages(app, ctx);
  await webRoutes(app);
  app.addHook('onClose', async () => {
    // Background loops (webhook deliveries) stop first: they still need the network client and the database.
    await ctx.queue.stopLoops();
    await ctx.net.close();
  });

  return { app: app as unknown as FastifyInstance, ctx };
}

function createContext(deps: AppDeps, app: ZodApp): AppContext {
  const clock = deps.clock ?? systemClock;
  const bus = deps.bus ?? createLocalBus();
  const changes = new Changes(bus, (error) => app.log.warn({ err: error }, 'a change was not announced to other processes'));
  const credentials = new CredentialCache(changes);
  const mailer = deps.mailer ?? createLogMailer(app.log);
  const secrets = {
    keyDigest: deriveKey(deps.secretKey, 'api-key-digest'),
    sealing: deriveKey(deps.secretKey, 'sealing'),
  };
  const base = { config: deps.config, database: deps.database, queue: deps.queue, clock, bus, changes, mailer, credentials, secrets };
  const rateLimits = new RateLimits(deps.redis);
  const net = new SafeFetch(AddressPolicy.fromList(deps.config.ALLOW_PRIVATE_NETWORK_CIDRS));
  const viewerCache = new ViewerCache(changes);
  const demoReader = createDemoReader(deps.database);
  const ingestion = createIngestion({ ...base, log: app.log, countLinkViews: addShareViews });
  const gates = createViewerGates({
    ...base,
    rateLimits,
    cache: viewerCache,
    demos: demoReader,
    passwordAttempts: deps.config.SHARE_PASSWORD_ATTEMPTS,
    passwordWindowSeconds: Math.ceil(deps.config.SHARE_PASSWORD_WINDOW / 1000),
    sessionTtlMs: deps.config.VIEWER_SESSION_TTL,
    log: app.log,
  });
  const content = createViewerContent({
    gates,
    cache: viewerCache,
    demos: demoReader,
    record: ingestion.ingest,
    apiUrl: deps.config.API_URL ?? deps.config.APP_URL,
  });
  return {
    ...base,
    net,
    rateLimits,
    generator: deps.generator ?? unavailableGenerator,
    services: {
      accounts: createAccountsService({ ...base, sessionTtlMs: deps.config.SESSION_TTL }),
      apiKeys: createApiKeysService({
        ...base,
        digestKey: secrets.keyDigest,
        rotationGraceMs: deps.config.KEY_ROTATION_GRACE,
      }),
      team: createTeamService({
        ...base,
        appUrl: deps.config.APP_URL,
        invitationTtlMs: deps.config.INVITATION_TTL,
        log: app.log,
      }),
      oauthApps: createOAuthAppsService({ ...base, digestKey: secrets.keyDigest }),
      oauthTokens: createOAuthTokensService({ ...base, digestKey: secrets.keyDigest }),
      demos: createDemosService({
        ...base,
        rateLimits,
        generationPerMinute: deps.config.GENERATION_PER_MINUTE,
        generationConcurrency: deps.config.GENERATION_CONCURRENCY,
        log: app.log,
        links: createShareLinks(deps.database),
      }),
      steps: createStepsService(base),
      webhooks: createWebhooksService({
        ...base,
        net,
        sealingKey: secrets.sealing,
        rotationGraceMs: deps.config.WEBHOOK_ROTATION_GRACE,
        maxAttempts: deps.config.WEBHOOK_RETRY_DELAYS.length + 1,
      }),
      shares: createSharesService({ ...base, demos: demoReader }),
      viewer: { ...gates, ...content },
      ingestion,
      views: createViewsService({ ...base, demos: demoReader }),
    },
    viewerCache,
  };
}
