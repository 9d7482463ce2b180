import { type ErrorDetail, humanDetail, humanMessage } from './human-errors';
/**
 * The one HTTP client of the web app: same-origin /v1 calls with the session cookie, the CSRF header on
 * unsafe methods, `{data, meta}` unwrapped and `{error}` turned into an ApiError.
 */

export type { ErrorDetail };

export interface ListMeta {
  total: number;
  page: number;
  per_page: number;
  request_id: string;
}

/** A refusal of the API. `message` is written for people; `apiMessage` is the API's own. */
export class ApiError extends Error {
  readonly apiMessage: string;

  constructor(
    readonly status: number,
    /** The API's error code (`invalid_request`, `conflict`...), or `network_error` when no answer came. */
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId?: string,
  ) {
    super(humanMessage(status, code, message, details));
    this.apiMessage = message;
    this.name = 'ApiError';
  }

  /** Field name → message, for showing `details` under the matching inputs. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const d of this.details) {
      for (const field of d.field.split(', ')) out[field] ??= humanDetail(d.message);
    }
    return out;
  }
}

const CSRF_COOKIE = 'ds_csrf';
const SAFE = new Set(['GET', 'HEAD']);

export function csrfToken(): string {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${CSRF_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(CSRF_COOKIE.length + 1)) : '';
}

let unauthorizedHandler: () => void = () => {};

/** What to do when the session is gone (the session provider signs the user out and shows /login). */
export function onUnauthorized(handler: () => void) {
  unauthorizedHandler = handler;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** For sign-in and the session probe: a 401 there is an answer, not an expired session. */
  allowUnauthorized?: boolean;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE.has(method)) headers['x-csrf-token'] = csrfToken();
  const query = options.query
    ? `?${new URLSearchParams(Object.entries(options.query).filter((e): e is [string, string] => e[1] !== undefined).map(([k, v]) => [k, String(v)]))}`
    : '';
  try {
    return await fetch(`/v1${path}${query}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach Demoshare. Check your connection and try again.');
  }
}

async function fail(response: Response, options: RequestOptions): Promise<never> {
  const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string; request_id?: string; details?: ErrorDetail[] } } | null;
  const error = body?.error
    ? new ApiError(response.status, body.error.code, body.error.message, body.error.details, body.error.request_id)
    : new ApiError(response.status, 'internal_error', `The server answered ${response.status}. Try again in a moment.`);
  if (response.status === 401 && !options.allowUnauthorized) unauthorizedHandler();
  throw error;
}

/** Calls the API and returns `data` (or undefined for a 204). */
export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  if (!response.ok) return fail(response, options);
  if (response.status === 204) return undefined as T;
  const body = (await response.json()) as { data: T };
  return body.data;
}

/** Calls a list endpoint and returns its rows with the page information. */
export async function apiList<T>(path: string, options: RequestOptions = {}): Promise<{ rows: T[]; meta: ListMeta }> {
  const response = await send('GET', path, options);
  if (!response.ok) return fail(response, options);
  const body = (await response.json()) as { data: T[]; meta: ListMeta };
  return { rows: body.data, meta: body.meta };
}

/** Sends a file as the raw body (step images, the logo), with the CSRF header, and returns `data`. */
export async function apiUpload<T>(path: string, file: Blob, method: 'POST' | 'PUT' = 'POST'): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/v1${path}`, {
      method,
      headers: { accept: 'application/json', 'content-type': file.type || 'application/octet-stream', 'x-csrf-token': csrfToken() },
      credentials: 'same-origin',
      body: file,
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach Demoshare. Check your connection and try again.');
  }
  if (!response.ok) return fail(response, {});
  return ((await response.json()) as { data: T }).data;
}
