import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, ERROR_STATUS } from './errors';
import { toAppError } from './http/error-handler';

describe('error codes', () => {
  it('maps each documented code to its one status', () => {
    expect(ERROR_STATUS).toEqual({
      invalid_request: 400,
      checksum_mismatch: 400,
      unauthorized: 401,
      forbidden: 403,
      insufficient_scope: 403,
      not_found: 404,
      method_not_allowed: 405,
      conflict: 409,
      recording_incomplete: 409,
      gone: 410,
      payload_too_large: 413,
      unsupported_media_type: 415,
      validation_error: 422,
      rate_limited: 429,
      internal_error: 500,
      unavailable: 503,
      ffmpeg_missing: 503,
    });
    for (const code of ERROR_CODES) expect(new AppError(code, 'x').status).toBe(ERROR_STATUS[code]);
  });
});

describe('toAppError', () => {
  it('passes an AppError through unchanged', () => {
    const error = new AppError('conflict', 'taken');
    expect(toAppError(error)).toBe(error);
  });

  it.each([
    ['FST_ERR_CTP_BODY_TOO_LARGE', 'payload_too_large'],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'unsupported_media_type'],
    ['FST_ERR_CTP_INVALID_JSON_BODY', 'invalid_request'],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 'invalid_request'],
  ])('maps Fastify’s %s to %s', (code, expected) => {
    const error = Object.assign(new Error('raw fastify text'), { code, statusCode: 400 });
    const mapped = toAppError(error);
    expect(mapped.code).toBe(expected);
    expect(mapped.message).not.toBe('raw fastify text');
  });

  it('maps other client errors by status', () => {
    expect(toAppError(Object.assign(new Error('nope'), { statusCode: 404 })).code).toBe('not_found');
    expect(toAppError(Object.assign(new Error('odd'), { statusCode: 418 })).code).toBe('invalid_request');
  });

  it('turns anything else into a generic 500 that keeps the cause for the log but shows none of it', () => {
    const cause = new Error('relation "members" does not exist at select * from members');
    const mapped = toAppError(cause);
    expect(mapped.code).toBe('internal_error');
    expect(mapped.status).toBe(500);
    expect(mapped.message).not.toContain('members');
    expect(mapped.details).toBeUndefined();
    expect(mapped.cause).toBe(cause);
    expect(toAppError('a string').code).toBe('internal_error');
    expect(toAppError(undefined).code).toBe('internal_error');
    expect(toAppError(Object.assign(new Error('boom'), { statusCode: 502 })).code).toBe('internal_error');
  });
});

describe('toAppError on a lost database connection', () => {
  it.each([
    ['admin_shutdown (pg_terminate_backend)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a connection exception', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a dropped socket', new Error('Connection terminated unexpectedly')],
    ['a database closed to connections', Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000' })],
    [
      'a driver error wrapped by Drizzle',
      Object.assign(new Error('Failed query: select 1'), { cause: Object.assign(new Error('terminating'), { code: '57P01' }) }),
    ],
  ])('answers 503 unavailable with Retry-After for %s', (_name, error) => {
    const mapped = toAppError(error);
    expect(mapped.code).toBe('unavailable');
    expect(mapped.status).toBe(503);
    expect(mapped.headers?.['retry-after']).toMatch(/^\d+$/);
    expect(mapped.message).not.toMatch(/ECONNREFUSED|administrator|select/);
  });

  it('leaves other SQLSTATEs of class 55 and 57 as internal errors', () => {
    expect(toAppError(Object.assign(new Error('lastval is not yet defined'), { code: '55000' })).code).toBe('internal_error');
    expect(toAppError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })).code).toBe(
      'internal_error',
    );
  });
});
