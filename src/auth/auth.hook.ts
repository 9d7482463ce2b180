// The request hook every /v1 route passes through: authenticate, rate-limit, authorise, before the body is read.
import type { FastifyRequest } from 'fastify';
import type { Kernel } from '../context';
import { AppError } from '../core/errors';
import type { ZodApp } from '../core/http/types';
import { rateLimitHeaders } from '../core/rate-limit';
import type { Authenticator } from './authenticate';
import { type AuthContext, authorize, describeAccess, type Permission, PERMISSIONS } from './permissions';

const isApiPath = (url: string) => url === '/v1' || url.startsWith('/v1/');

/** What one /v1 route declared: exactly one of `permission` and `public` (`permission` wins if both). */
export interface RouteAccess {
  method: string;
  url: string;
  permission?: Permission;
  public?: boolean;
}

const declared = new WeakMap<object, RouteAccess[]>();

/**
 * Every /v1 route's declaration, as the app registered them: the permission matrix test walks the routes
 * with it, so a route is tested against the table by what it declares, not by a list kept beside it.
 *
 * @example
 * ```ts
 * import type { FastifyInstance } from 'fastify';
 * import { declaredAccess } from './auth.hook';
 *
 * declare const app: FastifyInstance; // built by buildApp, after app.ready()
 * const unguarded = declaredAccess(app).filter((route) => route.public);
 * ```
 */
export function declaredAccess(app: object): readonly RouteAccess[] {
  return declared.get(app) ?? [];
}

/**
 * Authentication, rate limiting and authorisation, in that order, before the body is even parsed: an
 * unauthenticated or unauthorised request learns nothing about what its body would have done.
 *
 * @example
 * ```ts
 * import type { ZodApp } from '../core/http/types';
 * import type { Kernel } from '../context';
 * import { registerAuth } from './auth.hook';
 * import type { Authenticator } from './authenticate';
 *
 * declare const app: ZodApp, kernel: Kernel, authenticator: Authenticator;
 * registerAuth(app, kernel, authenticator); // before any /v1 route is registered
 * ```
 */
export function registerAuth(app: ZodApp, ctx: Pick<Kernel, 'config' | 'rateLimits'>, authenticator: Authenticator) {
  const apiPolicy = { points: ctx.config.RATE_LIMIT_PER_MINUTE, duration: 60 };
  const publicPolicy = { points: ctx.config.RATE_LIMIT_PUBLIC_PER_MINUTE, duration: 60 };
  // A viewer playing a demo fetches every step's image and posts events: a budget of its own.
  const viewerPolicy = { points: ctx.config.VIEWER_RATE_LIMIT_PER_MINUTE, duration: 60 };

  const access: RouteAccess[] = [];
  declared.set(app, access);

  // Every /v1 route must say who may call it; a route that forgets fails at start-up, not in production.
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url) || route.url.includes('*')) return;
    const config = route.config as { permission?: Permission; public?: boolean } | undefined;
    if (!config?.permission && !config?.public) {
      throw new Error(`Route ${route.method} ${route.url} declares neither a permission nor public: true`);
    }
    if (config.permission && !Object.hasOwn(PERMISSIONS, config.permission)) {
      throw new Error(`Route ${route.method} ${route.url} declares ${config.permission}, which is not in PERMISSIONS`);
    }
    for (const method of [route.method].flat()) {
      access.push({ method, url: route.url, ...(config.permission ? { permission: config.permission } : { public: true }) });
    }
    if (config.permission) {
      // The operation's `security` is derived from the same declaration, in src/openapi.ts.
      route.schema = route.schema ?? {};
      const schema = route.schema as Record<string, unknown>;
      // A GET and its automatic HEAD share one schema object: prefix the access line once.
      const access = describeAccess(config.permission);
      const own = typeof schema.description === 'string' ? schema.description : '';
      if (!own.startsWith(access)) schema.description = [access, own].filter(Boolean).join(' ');
    }
  });

  async function limit(request: FastifyRequest, bucket: string, policy: typeof apiPolicy, key: string) {
    const state = await ctx.rateLimits.consume(bucket, policy, key);
    request.rateLimitHeaders = rateLimitHeaders(state);
  }

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    try {
      if (config.permission) {
        let auth: AuthContext;
        try {
          auth = await authenticator.authenticate(request);
        } catch (error) {
          // Failed credentials are counted against the caller's address, which slows key guessing.
          if (error instanceof AppError && error.code === 'unauthorized') {
            await limit(request, 'public', publicPolicy, `ip:${request.ip}`);
          }
          throw error;
        }
        request.auth = auth;
        await limit(request, 'api', apiPolicy, `${auth.kind}:${auth.credentialId}`);
        authorize(auth, config.permission);
      } else if (config.viewer) {
        await limit(request, 'viewer', viewerPolicy, `ip:${request.ip}`);
      } else if (isApiPath(request.url)) {
        await limit(request, 'public', publicPolicy, `ip:${request.ip}`);
      }
    } finally {
      if (request.rateLimitHeaders) reply.headers(request.rateLimitHeaders);
    }
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    rateLimitHeaders?: Record<string, string>;
  }
}
