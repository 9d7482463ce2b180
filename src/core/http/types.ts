// ZodApp (Fastify with the zod type provider) and the helpers routes share to read their caller.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../errors';

/** The Fastify instance every route module receives: zod schemas type params, query, body and replies. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * The caller of a route that declared a permission (the auth hook has resolved it). Generic so that core
 * needs nothing of auth: `request.auth` is declared by src/auth/permissions.ts.
 */
export function callerOf<A>(request: { auth?: A }): A {
  if (!request.auth) throw new AppError('unauthorized', 'Authentication required');
  return request.auth;
}
