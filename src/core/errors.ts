/**
 * The one table that maps an error code to its HTTP status.
 *
 * @example
 * ```ts
 * import { ERROR_STATUS } from './errors';
 *
 * ERROR_STATUS.not_found; // 404
 * ```
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  /** A body that does not match its Content-Digest (RFC 9530): it changed on the way; send it again. */
  checksum_mismatch: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** Completing a recording (docs/recording-upload.md) before every step is uploaded. */
  recording_incomplete: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** Well-formed, but what it describes cannot be accepted as it is (a story with problems, a lead form's bad fields); `details` names each. */
  validation_error: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  /** A video or GIF asked for where the server has no ffmpeg (FFMPEG_PATH, docs/video.md). */
  ffmpeg_missing: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
/**
 * Every error code, for the OpenAPI document's enum.
 *
 * @example
 * ```ts
 * import { ERROR_CODES } from './errors';
 *
 * ERROR_CODES.includes('rate_limited'); // true
 * ```
 */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one error type of the service: every failure a client can see is one of these.
 *
 * @example
 * ```ts
 * import { AppError } from './errors';
 *
 * throw new AppError('invalid_request', 'title is required', { details: [{ field: 'title', message: 'Required' }] });
 * ```
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * A 404 `not_found` whose message names what was looked for.
 *
 * @example
 * ```ts
 * import { notFound } from './errors';
 *
 * throw notFound('Demo'); // 404 { code: 'not_found', message: 'Demo not found' }
 * ```
 */
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
/**
 * A 409 `conflict`: the request is valid but the state forbids it.
 *
 * @example
 * ```ts
 * import { conflict } from './errors';
 *
 * throw conflict('This e-mail address already has an account');
 * ```
 */
export const conflict = (message: string) => new AppError('conflict', message);
/**
 * A 400 `invalid_request`, with the fields at fault when known.
 *
 * @example
 * ```ts
 * import { invalid } from './errors';
 *
 * throw invalid('end_date is before start_date', [{ field: 'end_date', message: 'is before start_date' }]);
 * ```
 */
export const invalid = (message: string, details?: ErrorDetail[]) =>
  new AppError('invalid_request', message, { details });
/**
 * A 403 `forbidden`: authenticated, but not allowed this.
 *
 * @example
 * ```ts
 * import { forbidden } from './errors';
 *
 * throw forbidden('Only admins can change roles');
 * ```
 */
export const forbidden = (message: string) => new AppError('forbidden', message);
