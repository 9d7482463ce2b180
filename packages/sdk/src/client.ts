import createFetchClient, { type Client } from 'openapi-fetch';
import { apiOrigin, type OAuthCredentials, TokenManager } from './oauth.js';
import type { ResourceContext } from './request.js';
import { recordingsResource, teamResource, webhooksResource } from './resources/admin.js';
import { auditLogResource } from './resources/audit-log.js';
import { demosResource, hotspotsResource, stepsResource } from './resources/demos.js';
import { oauthAppsResource } from './resources/oauth-apps.js';
import { analyticsResource, sharesResource, viewsResource } from './resources/sharing.js';
import type { paths } from './schema.js';
import { createTransport, DEFAULT_RETRY, type RetryOptions } from './transport.js';

/**
 * Options shared by both kinds of credential.
 *
 * @example
 * ```ts
 * import { createClient, type CommonOptions } from '@demoshare/sdk';
 * const common: CommonOptions = { baseUrl: 'https://demos.example.com', retry: { maxRetries: 4 } };
 * const client = createClient({ ...common, apiKey: process.env.DEMOSHARE_API_KEY! });
 * ```
 */
export interface CommonOptions {
  /**
   * The API's origin, e.g. `https://demos.example.com` (APP_URL, or API_URL where the API has its own);
   * a trailing `/v1` is accepted and dropped.
   */
  baseUrl: string;
  /** Retries of 429 and 503 (default: 2, waiting `Retry-After` up to 60 s); `false` for none. */
  retry?: RetryOptions | false;
  /** A `fetch` to send requests with (default: the global one), e.g. one with a proxy agent. */
  fetch?: typeof fetch;
  /** Headers added to every request. */
  headers?: Record<string, string>;
}

/**
 * The options of {@link createClient}: an API key, or OAuth tokens (see {@link OAuthCredentials}).
 *
 * @example
 * ```ts
 * import { createClient, type ClientOptions } from '@demoshare/sdk';
 * const options: ClientOptions = { baseUrl: 'https://demos.example.com', apiKey: 'dsk_...' };
 * const client = createClient(options);
 * ```
 */
export type ClientOptions = CommonOptions & ({ apiKey: string } | OAuthCredentials);

/**
 * Creates a client of the Demoshare API. With an API key (`dsk_...`) every request carries it; with
 * OAuth tokens the client also renews the access token, before it expires and when the server refuses
 * it, one refresh at a time, and hands every new pair to `onTokens`.
 *
 * The resources wrap the main endpoints (they throw {@link DemoshareError} on failure and unwrap the
 * `{data}` envelope); `api` is the typed openapi-fetch client for every route of the OpenAPI document,
 * with the same credential, refresh and retries (it does not throw: use {@link unwrap}).
 *
 * API keys and OAuth tokens cannot call the session-only endpoints (`/v1/api-keys`, `/v1/auth/*`,
 * `/v1/oauth/authorizations`): a credential cannot mint credentials, so the client has no wrapper for them.
 *
 * @example
 * ```ts
 * import { createClient } from '@demoshare/sdk';
 *
 * const client = createClient({ baseUrl: 'https://demos.example.com', apiKey: process.env.DEMOSHARE_API_KEY! });
 * for await (const demo of client.demos.list({ status: 'published' })) console.log(demo.title, demo.share_url);
 *
 * const oauth = createClient({
 *   baseUrl: 'https://demos.example.com',
 *   clientId: 'app_...', clientSecret: 'dss_...',
 *   accessToken: stored.accessToken, refreshToken: stored.refreshToken, expiresAt: stored.expiresAt,
 *   onTokens: (tokens) => db.saveTokens(userId, tokens),
 * });
 * ```
 */
export function createClient(options: ClientOptions) {
  const origin = apiOrigin(options.baseUrl);
  const retry = options.retry === false ? false : { ...DEFAULT_RETRY, ...options.retry };
  const base = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const auth =
    'apiKey' in options
      ? { apiKey: options.apiKey }
      : { tokens: new TokenManager(options, (path, form) => transport.postForm(path, form)) };
  const transport = createTransport({ baseUrl: origin, fetch: base, retry, auth, headers: options.headers ?? {} });
  const api: Client<paths> = createFetchClient<paths>({ baseUrl: origin, fetch: transport.fetch });
  const ctx: ResourceContext = { api, fetch: transport.fetch, origin };
  return {
    /** The typed openapi-fetch client of every route (answers `{data, error, response}`; see `unwrap`). */
    api,
    demos: demosResource(ctx),
    steps: stepsResource(ctx),
    hotspots: hotspotsResource(ctx),
    shares: sharesResource(ctx),
    views: viewsResource(ctx),
    analytics: analyticsResource(ctx),
    webhooks: webhooksResource(ctx),
    team: teamResource(ctx),
    recordings: recordingsResource(ctx),
    oauthApps: oauthAppsResource(ctx),
    auditLog: auditLogResource(ctx),
  };
}

/**
 * What {@link createClient} returns.
 *
 * @example
 * ```ts
 * import { createClient, type DemoshareClient } from '@demoshare/sdk';
 * async function publishedTitles(client: DemoshareClient) {
 *   return (await client.demos.list({ status: 'published' }).toArray()).map((d) => d.title);
 * }
 * ```
 */
export type DemoshareClient = ReturnType<typeof createClient>;
