import type { components } from './schema.js';

/**
 * The `code` of an API error, from the error table of the OpenAPI document (`invalid_request`,
 * `not_found`, `rate_limited`, ...), or the `error` of an OAuth token-endpoint answer (`invalid_grant`,
 * ...). Any other string is a code this version of the SDK does not know yet.
 *
 * @example
 * ```ts
 * import { DemoshareError, type ErrorCode } from '@demoshare/sdk';
 * const retryable: ErrorCode[] = ['rate_limited', 'unavailable'];
 * try { await client.demos.get('demo_01jd3k7q9x8v2m4n6p0r5s7t9w'); }
 * catch (error) { if (error instanceof DemoshareError && retryable.includes(error.code)) console.log('later'); }
 * ```
 */
export type ErrorCode = components['schemas']['Error']['error']['code'] | OAuthErrorCode | (string & {});

/**
 * The RFC 6749 error codes of the token and revocation endpoints.
 *
 * @example
 * ```ts
 * import { OAuthError, type OAuthErrorCode } from '@demoshare/sdk';
 * const signInAgain: OAuthErrorCode = 'invalid_grant';
 * try { await client.demos.get(id); }
 * catch (error) { if (error instanceof OAuthError && error.code === signInAgain) redirectToConsent(); }
 * ```
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  /** With status 429: the token endpoint's rate limit (thrown as a `RateLimitError`, with `retryAfter`). */
  | 'temporarily_unavailable';

/**
 * One entry of an error's `details`: which field was refused and why.
 *
 * @example
 * ```ts
 * import { InvalidRequestError, type ErrorDetail } from '@demoshare/sdk';
 * try { await client.demos.create({ title: '' }); }
 * catch (error) { if (error instanceof InvalidRequestError) error.details.forEach((d: ErrorDetail) => console.log(d.field, d.message)); }
 * ```
 */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** What the constructor of {@link DemoshareError} takes. */
interface ErrorInit {
  status: number;
  code: ErrorCode;
  message: string;
  requestId: string | null;
  details?: ErrorDetail[];
  retryAfter?: number | null;
  headers?: Headers;
}

/**
 * An error answer of the Demoshare API (`{"error": {code, message, request_id, details?}}`), thrown by
 * every method of the client. Subclasses narrow the common cases (`NotFoundError`, `RateLimitError`, ...);
 * `code` is the API's own code, so `switch (error.code)` works as well as `instanceof`.
 *
 * @example
 * ```ts
 * import { DemoshareError } from '@demoshare/sdk';
 * try {
 *   await client.demos.get('demo_01jd3k7q9x8v2m4n6p0r5s7t9w');
 * } catch (error) {
 *   if (error instanceof DemoshareError) console.error(error.status, error.code, error.message, error.requestId);
 *   else throw error;
 * }
 * ```
 */
export class DemoshareError extends Error {
  /** The HTTP status (404, 429, ...). */
  readonly status: number;
  /** The API's error code (`not_found`, `insufficient_scope`, ...), or the OAuth `error` of the token endpoint. */
  readonly code: ErrorCode;
  /** `request_id` of the failed request (also its `X-Request-Id`): quote it when asking for help. */
  readonly requestId: string | null;
  /** Which fields were refused, where the API says (mostly `invalid_request`). */
  readonly details: ErrorDetail[];
  /** Seconds the server asked to wait (`Retry-After`), on 429 and 503. */
  readonly retryAfter: number | null;
  /** The response's headers. */
  readonly headers: Headers;

  constructor(init: ErrorInit) {
    super(init.message);
    this.name = 'DemoshareError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.retryAfter = init.retryAfter ?? null;
    this.headers = init.headers ?? new Headers();
  }
}

/**
 * 400 `invalid_request` (or `checksum_mismatch`): the request was malformed; see `details`.
 *
 * @example
 * ```ts
 * import { InvalidRequestError } from '@demoshare/sdk';
 * try { await client.demos.create({ title: '' }); }
 * catch (error) { if (error instanceof InvalidRequestError) console.log(error.details); }
 * ```
 */
export class InvalidRequestError extends DemoshareError {
  override readonly name = 'InvalidRequestError';
}

/**
 * 401 `unauthorized`: no credential, or one that is malformed, expired or revoked (after an automatic
 * OAuth refresh was tried, where one was possible).
 *
 * @example
 * ```ts
 * import { AuthenticationError } from '@demoshare/sdk';
 * try { await client.demos.list().firstPage(); }
 * catch (error) { if (error instanceof AuthenticationError) console.log('the API key was revoked'); }
 * ```
 */
export class AuthenticationError extends DemoshareError {
  override readonly name = 'AuthenticationError';
}

/**
 * 403 `insufficient_scope` (the credential lacks a scope, named in the message) or `forbidden` (the
 * member's role does not allow it).
 *
 * @example
 * ```ts
 * import { PermissionError } from '@demoshare/sdk';
 * try { await client.webhooks.create({ url, events: ['demo.completed'] }); }
 * catch (error) { if (error instanceof PermissionError && error.code === 'insufficient_scope') console.log(error.message); }
 * ```
 */
export class PermissionError extends DemoshareError {
  override readonly name = 'PermissionError';
}

/**
 * 404 `not_found`: no such record in the credential's workspace.
 *
 * @example
 * ```ts
 * import { NotFoundError } from '@demoshare/sdk';
 * const demo = await client.demos.get(id).catch((error) => (error instanceof NotFoundError ? null : Promise.reject(error)));
 * ```
 */
export class NotFoundError extends DemoshareError {
  override readonly name = 'NotFoundError';
}

/**
 * 409 `conflict` (or `recording_incomplete`): the change contradicts the current state.
 *
 * @example
 * ```ts
 * import { ConflictError } from '@demoshare/sdk';
 * try { await client.demos.publish(id); }
 * catch (error) { if (error instanceof ConflictError) console.log('not publishable yet:', error.message); }
 * ```
 */
export class ConflictError extends DemoshareError {
  override readonly name = 'ConflictError';
}

/**
 * 429 `rate_limited`, when the retries the client makes on its own are spent or the server asked to wait
 * longer than `retry.maxDelayMs`: `retryAfter` says how many seconds to wait.
 *
 * @example
 * ```ts
 * import { RateLimitError } from '@demoshare/sdk';
 * try { await client.demos.get(id); }
 * catch (error) { if (error instanceof RateLimitError) await new Promise((r) => setTimeout(r, (error.retryAfter ?? 1) * 1000)); }
 * ```
 */
export class RateLimitError extends DemoshareError {
  override readonly name = 'RateLimitError';
}

/**
 * 5xx: `internal_error` (quote `requestId`) or `unavailable` (a dependency is down; retried on its own).
 *
 * @example
 * ```ts
 * import { ServerError } from '@demoshare/sdk';
 * try { await client.demos.get(id); }
 * catch (error) { if (error instanceof ServerError) console.error('Demoshare failed, request', error.requestId); }
 * ```
 */
export class ServerError extends DemoshareError {
  override readonly name = 'ServerError';
}

/**
 * An error of the OAuth token endpoint (RFC 6749 form), e.g. `invalid_grant` when a refresh token was
 * revoked or already used: the user has to authorize the app again.
 *
 * @example
 * ```ts
 * import { OAuthError } from '@demoshare/sdk';
 * try { await client.demos.get(id); }
 * catch (error) { if (error instanceof OAuthError && error.code === 'invalid_grant') console.log('connect again'); }
 * ```
 */
export class OAuthError extends DemoshareError {
  override readonly name = 'OAuthError';
}

const STATUS_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
};

function classFor(status: number): typeof DemoshareError {
  if (status === 400) return InvalidRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return DemoshareError;
}

/**
 * `Retry-After` in seconds (a number of seconds or an HTTP date), or null when absent or unreadable.
 *
 * @example
 * ```ts
 * import { retryAfterSeconds } from '@demoshare/sdk';
 * retryAfterSeconds(new Headers({ 'retry-after': '7' })); // 7
 * ```
 */
export function retryAfterSeconds(headers: Headers, now: number = Date.now()): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The typed error for a failed response and its parsed body (JSON, text or nothing): the API's
 * `{error: {...}}`, the token endpoint's `{error, error_description}`, or, for an answer that is neither
 * (a proxy's HTML page), a code from the status.
 *
 * @example
 * ```ts
 * import { errorFromResponse } from '@demoshare/sdk';
 * const res = await fetch('https://demos.example.com/v1/demos', { headers: { authorization: 'Bearer dsk_...' } });
 * if (!res.ok) throw errorFromResponse(res, await res.json().catch(() => undefined));
 * ```
 */
export function errorFromResponse(response: Response, body: unknown): DemoshareError {
  const base = {
    status: response.status,
    headers: response.headers,
    retryAfter: retryAfterSeconds(response.headers),
    requestId: response.headers.get('x-request-id'),
  };
  const error = isRecord(body) ? body.error : undefined;
  if (isRecord(error) && typeof error.code === 'string') {
    const details = Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [];
    const requestId = typeof error.request_id === 'string' ? error.request_id : base.requestId;
    const message = typeof error.message === 'string' ? error.message : error.code;
    return new (classFor(response.status))({ ...base, code: error.code, message, requestId, details });
  }
  if (typeof error === 'string' && isRecord(body)) {
    const description = typeof body.error_description === 'string' ? body.error_description : error;
    // The token endpoint's own limits and failures keep their class: a 429 is a RateLimitError wherever it comes from.
    const Class = response.status === 429 || response.status >= 500 ? classFor(response.status) : OAuthError;
    return new Class({ ...base, code: error, message: description });
  }
  const code = STATUS_CODES[response.status] ?? `http_${response.status}`;
  const text = typeof body === 'string' && body.length > 0 && body.length < 200 ? `: ${body}` : '';
  return new (classFor(response.status))({ ...base, code, message: `HTTP ${response.status}${text}` });
}
