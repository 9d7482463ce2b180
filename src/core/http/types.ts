import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext, Permission } from '../../auth/permissions';
import { AppError } from '../errors';

/** The Fastify instance every route module receives: zod schemas type params, query, body and replies. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route needs (PERMISSIONS in auth/permissions.ts). Every /v1 route declares this or `public`. */
    permission?: Permission;
    /** No credential needed; rate-limited per IP. */
    public?: boolean;
    /** A viewer route or page (with `public`): rate-limited per IP on the viewer budget, not the public one. */
    viewer?: boolean;
  }
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** The caller of a route that declared a permission (the auth hook has resolved it). */
export function callerOf(request: { auth?: AuthContext }): AuthContext {
  if (!request.auth) throw new AppError('unauthorized', 'Authentication required');
  return request.auth;
}
