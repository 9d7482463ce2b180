// Every thrown value becomes the one error body: AppErrors as they are, Fastify's and zod's mapped onto codes.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { BLOB_MISSING } from '../blob-store/blob-store';
import { isConnectionLoss } from '../connection-loss';
import { AppError, ERROR_CODES, ERROR_STATUS, type ErrorCode, type ErrorDetail } from '../errors';

/**
 * The code a framework's or library's client error stands for, by its status: the first code of that status
 * in the one table (core/errors.ts), so 403 is `forbidden`, never `insufficient_scope`.
 */
const CODE_OF_STATUS = new Map<number, ErrorCode>();
for (const code of ERROR_CODES) if (!CODE_OF_STATUS.has(ERROR_STATUS[code])) CODE_OF_STATUS.set(ERROR_STATUS[code], code);

/** Fastify's own errors that a client can cause, mapped onto the documented codes. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Unsupported Content-Type: send application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_request', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'Request body is too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_request',
    message: 'Body is empty but Content-Type is application/json',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_request', message: 'Malformed JSON body' },
  // The router's own refusals (app.ts passes them here through `frameworkErrors`): without the mapping they
  // were Fastify's bodies, and the second a 414, outside the table.
  FST_ERR_BAD_URL: { code: 'invalid_request', message: 'Malformed URL: a % in the path must start a valid escape' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'invalid_request', message: 'A path segment is too long to name anything' },
};

/** What a 503 for a lost database connection asks the client to wait before retrying. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** "1 MB", "64 KB", "500 bytes": a limit as people read it. */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  const kb = bytes / 1024;
  return kb >= 1 ? `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB` : `${bytes} bytes`;
}

/**
 * Converts any thrown value into the one error body of DESIGN.md. `bodyLimit` (the route's) lets a body
 * that is too large be told the limit it went over.
 */
export function toAppError(error: unknown, bodyLimit?: number): AppError {
  if (error instanceof AppError) return error;
  const err = error as FastifyError;
  if (err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && bodyLimit) {
    return new AppError('payload_too_large', `Request body is too large: the limit is ${formatBytes(bodyLimit)}`);
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details: ErrorDetail[] = err.validation.map((v) => {
      const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const where = err.validationContext === 'body' ? path : path || err.validationContext || '';
      const keys = (v.params as { keys?: string[] }).keys;
      if (v.keyword === 'unrecognized_keys' && keys) {
        return { field: keys.map((k) => (path ? `${path}.${k}` : k)).join(', '), message: 'unknown field' };
      }
      return { field: where || (err.validationContext ?? 'body'), message: v.message ?? 'is invalid' };
    });
    const first = details[0];
    return new AppError(
      'invalid_request',
      first ? `Invalid ${err.validationContext ?? 'request'}: ${first.field} ${first.message}` : 'Invalid request',
      { details },
    );
  }
  const mapped = err?.code ? FASTIFY_CODES[err.code] : undefined;
  if (mapped) return new AppError(mapped.code, mapped.message);
  if (err instanceof SyntaxError && err.statusCode === 400) return new AppError('invalid_request', 'Malformed JSON body');
  if (typeof err?.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError(CODE_OF_STATUS.get(err.statusCode) ?? 'invalid_request', err.message);
  }
  if (isConnectionLoss(error)) {
    // The pool reconnects by itself once the database is back, and a connection frees up once the load
    // passes (DATABASE_ACQUIRE_TIMEOUT): a retry after a few seconds succeeds.
    return new AppError('unavailable', 'The database is unreachable or overloaded for the moment; retry in a few seconds', {
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
  return new AppError('internal_error', 'Something went wrong on our side; the request id identifies it in our logs', {
    cause: error,
  });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({
      error: {
        code: error.code,
        message: error.message,
        request_id: request.id,
        ...(error.details && error.details.length > 0 ? { details: error.details } : {}),
      },
    });
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request.routeOptions.bodyLimit);
    if (appError.code === 'unavailable') {
      // The overload guard's refusals (core/http/overload.ts) have no cause: it logs when shedding starts and
      // stops, with the delays it measured, and a line per refusal would cost more than the refusal.
      if (appError.cause !== undefined) {
        // During an outage every request ends here for the same cause: one short line each, not a stack each.
        const cause = (error as { cause?: { message?: string } })?.cause?.message ?? (error as Error)?.message;
        // The asset store's 503s (core/blob-store) say so; every other 503 with a cause is the database's.
        // Bytes lost from the store are no outage that passes: an error, naming the asset.
        if (appError.message.startsWith(BLOB_MISSING)) request.log.error({ cause }, 'asset bytes missing from the asset store: answered 503');
        else {
          const what = appError.message.startsWith('The asset store') ? 'asset store out of reach or refusing writes' : 'database out of reach or out of connections';
          request.log.warn({ cause }, `${what}: answered 503`);
        }
      }
    } else if (appError.status >= 500) {
      const cause = isResponseSerializationError(error) ? { route: request.routeOptions.url, error } : error;
      request.log.error({ err: cause }, 'request failed');
    }
    return sendError(request, reply, appError);
  });
}
