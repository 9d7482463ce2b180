// A body that a route validates itself (one that may also be an image) is refused as a declared body schema is.
import type { FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * `body` parsed by `schema`, with the validator Fastify runs for a route's declared body schema. On failure
 * it throws the error Fastify raises then, so the error handler (error-handler.ts) words the 400 and its
 * details as for every other route. A missing body is parsed as `{}`.
 *
 * @example
 * ```ts
 * // A route whose body is either an image (a Buffer) or JSON:
 * const input = Buffer.isBuffer(request.body) ? { image: request.body } : parseBody(createStepBody, request.body);
 * ```
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const validate = validatorCompiler({ schema, method: 'POST', url: '', httpPart: 'body' });
  const result = validate(body ?? {}) as { value?: z.output<T>; error?: FastifySchemaValidationError[] };
  if (!result.error) return result.value as z.output<T>;
  throw Object.assign(new Error('The body does not match its schema'), {
    statusCode: 400,
    validation: result.error,
    validationContext: 'body' as const,
  });
}
