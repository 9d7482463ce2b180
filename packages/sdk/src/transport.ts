import { retryAfterSeconds } from './errors.js';
import { apiOrigin, type FormPoster, postForm, type TokenManager } from './oauth.js';

/**
 * How the client retries answers that say "not now": 429 `rate_limited` and 503 `unavailable`.
 *
 * @example
 * ```ts
 * import { createClient, type RetryOptions } from '@demoshare/sdk';
 * const retry: RetryOptions = { maxRetries: 5, maxDelayMs: 30_000 };
 * const client = createClient({ baseUrl: 'https://demos.example.com', apiKey: 'dsk_...', retry });
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /**
   * The longest wait the client accepts (default 60 000 ms, the API's rate-limit window). A
   * `Retry-After` longer than this is not waited for: the call fails at once with a `RateLimitError` (or
   * `ServerError`) whose `retryAfter` says how long the server asked for.
   */
  maxDelayMs?: number;
  /** First wait when the server gives no `Retry-After` (default 500 ms), doubled at each retry, ±20 %. */
  baseDelayMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
  retry: Required<RetryOptions> | false;
  /** `Authorization: Bearer` for every request: an API key, or the OAuth token manager. */
  auth: { apiKey: string } | { tokens: TokenManager } | undefined;
  /** Added to every request that does not set them itself. */
  headers: Record<string, string>;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 2, maxDelayMs: 60_000, baseDelayMs: 500 };

const RETRYABLE = new Set([429, 503]);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long to wait before retry number `attempt` (0-based): the server's Retry-After, else a backoff. */
function delayFor(response: Response, attempt: number, retry: Required<RetryOptions>): number {
  const seconds = retryAfterSeconds(response.headers);
  if (seconds !== null) return seconds * 1000;
  const backoff = retry.baseDelayMs * 2 ** attempt;
  return Math.round(backoff * (0.8 + Math.random() * 0.4));
}

/** True when the server refused the token itself (expired, revoked), not the request. */
function tokenRefused(response: Response): boolean {
  if (response.status !== 401) return false;
  const challenge = response.headers.get('www-authenticate');
  return challenge === null || /invalid_token/i.test(challenge);
}

/**
 * The `fetch` every request of the client goes through: it adds the credential, renews an OAuth token
 * that the server refused (once per request), and retries 429 and 503 after the server's `Retry-After`
 * (or a backoff), within `maxRetries` and `maxDelayMs`. Each attempt sends a clone of the request, so
 * a body can be sent again.
 */
export function createTransport(options: TransportOptions): { fetch: typeof fetch; postForm: FormPoster } {
  const base = options.fetch;
  const retry = options.retry;

  async function send(request: Request, authorize: boolean): Promise<Response> {
    let attempt = 0;
    let renewed = false;
    for (;;) {
      const outgoing = request.clone();
      for (const [name, value] of Object.entries(options.headers)) {
        if (!outgoing.headers.has(name)) outgoing.headers.set(name, value);
      }
      let token: string | undefined;
      if (authorize && options.auth) {
        token = 'apiKey' in options.auth ? options.auth.apiKey : await options.auth.tokens.token();
        outgoing.headers.set('authorization', `Bearer ${token}`);
      }
      const response = await base(outgoing);
      if (token && !renewed && options.auth && 'tokens' in options.auth && options.auth.tokens.canRefresh && tokenRefused(response)) {
        await response.body?.cancel();
        await options.auth.tokens.refresh(token);
        renewed = true;
        continue;
      }
      if (retry && RETRYABLE.has(response.status) && attempt < retry.maxRetries) {
        const delay = delayFor(response, attempt, retry);
        if (delay <= retry.maxDelayMs) {
          await response.body?.cancel();
          await sleep(delay);
          attempt++;
          continue;
        }
      }
      return response;
    }
  }

  const authorized = ((input: RequestInfo | URL, init?: RequestInit) =>
    send(input instanceof Request && init === undefined ? input : new Request(input, init), true)) as typeof fetch;
  const anonymous = ((input: RequestInfo | URL, init?: RequestInit) =>
    send(input instanceof Request && init === undefined ? input : new Request(input, init), false)) as typeof fetch;
  return {
    fetch: authorized,
    postForm: (path, form) => postForm(anonymous, apiOrigin(options.baseUrl), path, form),
  };
}
