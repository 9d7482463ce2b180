import { errorFromResponse } from './errors.js';

/**
 * What the token endpoint answered, in the SDK's shape: handed to `onTokens` after every refresh, and
 * returned by {@link exchangeCode}. Store `refreshToken` (it changes on every refresh) and, to spare a
 * refresh on start-up, `expiresAt`.
 *
 * @example
 * ```ts
 * import { createClient, type TokenSet } from '@demoshare/sdk';
 * const client = createClient({
 *   baseUrl: 'https://demos.example.com', clientId: 'app_...', accessToken, refreshToken,
 *   onTokens: (tokens: TokenSet) => db.saveTokens(userId, tokens),
 * });
 * ```
 */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (the server's `expires_in`, counted from when the answer came). */
  expiresAt: Date;
  /** The granted scopes, space-separated. */
  scope: string;
  tokenType: 'Bearer';
}

/**
 * The OAuth credentials of a client acting on behalf of a user.
 *
 * @example
 * ```ts
 * import { createClient, type OAuthCredentials } from '@demoshare/sdk';
 * const oauth: OAuthCredentials = { accessToken: 'dsa_...', refreshToken: 'dsr_...', clientId: 'app_...', clientSecret: 'dss_...' };
 * const client = createClient({ baseUrl: 'https://demos.example.com', ...oauth });
 * ```
 */
export interface OAuthCredentials {
  /** The current access token (`dsa_...`). */
  accessToken: string;
  /** The refresh token (`dsr_...`): without it the client cannot renew the access token. */
  refreshToken?: string;
  /** The app's client id (`app_...`): needed to refresh. */
  clientId?: string;
  /** The app's secret (`dss_...`), for confidential clients; public (PKCE) clients have none. */
  clientSecret?: string;
  /** When `accessToken` expires, if known: the client refreshes shortly before instead of after a 401. */
  expiresAt?: Date | number;
  /**
   * Called with the new pair after every refresh, before the request that needed it goes on. Refresh
   * tokens are single-use: persist the new one here, or the next start of your app cannot refresh.
   */
  onTokens?: (tokens: TokenSet) => void | Promise<void>;
}

/** Refresh this long before the known expiry, so that a request never leaves with a token about to die. */
const EXPIRY_MARGIN_MS = 60_000;

/** Posts a form to an OAuth endpoint of the server (through the client's retries). */
export type FormPoster = (path: string, form: Record<string, string>) => Promise<Response>;

async function tokenSetFrom(response: Response): Promise<TokenSet> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: errorFromResponse reports the status.
  }
  if (!response.ok) throw errorFromResponse(response, body);
  const t = body as { access_token: string; refresh_token: string; expires_in: number; scope: string };
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresAt: new Date(Date.now() + t.expires_in * 1000),
    scope: t.scope,
    tokenType: 'Bearer',
  };
}

/**
 * Holds the OAuth pair of one client and renews it: before the known expiry, and after a 401. One refresh
 * at a time: refresh tokens are single-use, and presenting one twice is treated by the server as theft
 * (the whole authorisation is revoked), so concurrent requests that find the token stale wait for the
 * same refresh.
 */
export class TokenManager {
  private accessToken: string;
  private refreshToken: string | undefined;
  private expiresAt: number | undefined;
  private inflight: Promise<void> | undefined;

  constructor(
    private readonly credentials: OAuthCredentials,
    private readonly post: FormPoster,
  ) {
    this.accessToken = credentials.accessToken;
    this.refreshToken = credentials.refreshToken;
    this.expiresAt = credentials.expiresAt === undefined ? undefined : new Date(credentials.expiresAt).getTime();
  }

  get canRefresh(): boolean {
    return this.refreshToken !== undefined && this.credentials.clientId !== undefined;
  }

  /** The token to send now: refreshed first when it is known to expire within a minute. */
  async token(): Promise<string> {
    if (this.inflight) await this.inflight;
    if (this.canRefresh && this.expiresAt !== undefined && Date.now() >= this.expiresAt - EXPIRY_MARGIN_MS) {
      await this.refresh(this.accessToken);
    }
    return this.accessToken;
  }

  /**
   * Renews the pair, unless `stale` is no longer the current access token (another request renewed it
   * meanwhile): then the caller simply retries with the current one.
   */
  async refresh(stale: string): Promise<void> {
    if (this.inflight) return this.inflight;
    if (stale !== this.accessToken) return;
    this.inflight = this.run().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async run(): Promise<void> {
    const { clientId, clientSecret, onTokens } = this.credentials;
    const form: Record<string, string> = { grant_type: 'refresh_token', refresh_token: this.refreshToken!, client_id: clientId! };
    if (clientSecret) form.client_secret = clientSecret;
    const tokens = await tokenSetFrom(await this.post('/v1/oauth/token', form));
    this.accessToken = tokens.accessToken;
    this.refreshToken = tokens.refreshToken;
    this.expiresAt = tokens.expiresAt.getTime();
    await onTokens?.(tokens);
  }
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** The API's origin, whether it was given as `https://host` or `https://host/v1`. */
export function apiOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * A PKCE pair (RFC 7636, S256): send `challenge` to the authorization page, keep `verifier` for
 * {@link exchangeCode}. Public clients (no secret) must use it; confidential ones may.
 *
 * @example
 * ```ts
 * import { createPkce } from '@demoshare/sdk';
 * const { verifier, challenge } = await createPkce();
 * session.pkceVerifier = verifier;
 * ```
 */
export async function createPkce(): Promise<{ verifier: string; challenge: string; method: 'S256' }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest), method: 'S256' };
}

/**
 * Options of {@link authorizationUrl}.
 *
 * @example
 * ```ts
 * import { authorizationUrl, type AuthorizationUrlOptions } from '@demoshare/sdk';
 * const options: AuthorizationUrlOptions = { appUrl: 'https://demos.example.com', clientId: 'app_...', redirectUri: 'https://crm.example.com/cb', state: 'x' };
 * const url = authorizationUrl(options);
 * ```
 */
export interface AuthorizationUrlOptions {
  /** The Demoshare web app's origin (APP_URL), where the consent page is. */
  appUrl: string;
  clientId: string;
  /** Exactly as registered. */
  redirectUri: string;
  /** Space-separated scopes, or a list; all of the app's scopes when omitted. */
  scope?: string | readonly string[];
  /** An unguessable value you check when the browser comes back. */
  state: string;
  /** The PKCE challenge from {@link createPkce} (S256). */
  codeChallenge?: string;
}

/**
 * The address of the consent page to send the user's browser to (step 1 of the authorization code flow).
 *
 * @example
 * ```ts
 * import { authorizationUrl, createPkce } from '@demoshare/sdk';
 * const pkce = await createPkce();
 * const url = authorizationUrl({ appUrl: 'https://demos.example.com', clientId: 'app_...', redirectUri: 'https://crm.example.com/cb',
 *   scope: ['demos:read', 'analytics:read'], state: crypto.randomUUID(), codeChallenge: pkce.challenge });
 * ```
 */
export function authorizationUrl(options: AuthorizationUrlOptions): string {
  const url = new URL('/oauth/authorize', apiOrigin(options.appUrl));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', options.clientId);
  url.searchParams.set('redirect_uri', options.redirectUri);
  if (options.scope !== undefined) {
    url.searchParams.set('scope', typeof options.scope === 'string' ? options.scope : options.scope.join(' '));
  }
  url.searchParams.set('state', options.state);
  if (options.codeChallenge) {
    url.searchParams.set('code_challenge', options.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

/**
 * Options of {@link exchangeCode}.
 *
 * @example
 * ```ts
 * import { exchangeCode, type ExchangeCodeOptions } from '@demoshare/sdk';
 * const options: ExchangeCodeOptions = { baseUrl: 'https://demos.example.com', clientId: 'app_...', code, redirectUri: 'https://crm.example.com/cb', codeVerifier };
 * const tokens = await exchangeCode(options);
 * ```
 */
export interface ExchangeCodeOptions {
  /** The API's origin. */
  baseUrl: string;
  clientId: string;
  clientSecret?: string;
  /** The `code` the browser came back with (single use, valid 60 s). */
  code: string;
  /** The same redirect URI as in the authorization request. */
  redirectUri: string;
  /** The PKCE verifier, when the authorization request carried a challenge. */
  codeVerifier?: string;
  fetch?: typeof fetch;
}

/**
 * Exchanges an authorization code for tokens (step 3 of the flow); hand the result to
 * {@link createClient}.
 *
 * @example
 * ```ts
 * import { createClient, exchangeCode } from '@demoshare/sdk';
 * const tokens = await exchangeCode({ baseUrl: 'https://demos.example.com', clientId: 'app_...', clientSecret: 'dss_...',
 *   code: new URL(callbackUrl).searchParams.get('code')!, redirectUri: 'https://crm.example.com/cb' });
 * const client = createClient({ baseUrl: 'https://demos.example.com', clientId: 'app_...', clientSecret: 'dss_...', ...tokens });
 * ```
 */
export async function exchangeCode(options: ExchangeCodeOptions): Promise<TokenSet> {
  const form: Record<string, string> = {
    grant_type: 'authorization_code',
    code: options.code,
    redirect_uri: options.redirectUri,
    client_id: options.clientId,
  };
  if (options.clientSecret) form.client_secret = options.clientSecret;
  if (options.codeVerifier) form.code_verifier = options.codeVerifier;
  return tokenSetFrom(await postForm(options.fetch ?? fetch, options.baseUrl, '/v1/oauth/token', form));
}

/**
 * Revokes a token (RFC 7009): an access token ends alone, a refresh token ends the whole authorisation.
 * Resolves whether or not the token existed.
 *
 * @example
 * ```ts
 * import { revokeToken } from '@demoshare/sdk';
 * await revokeToken({ baseUrl: 'https://demos.example.com', clientId: 'app_...', clientSecret: 'dss_...', token: stored.refreshToken });
 * ```
 */
export async function revokeToken(options: {
  baseUrl: string;
  clientId: string;
  clientSecret?: string;
  token: string;
  fetch?: typeof fetch;
}): Promise<void> {
  const form: Record<string, string> = { token: options.token, client_id: options.clientId };
  if (options.clientSecret) form.client_secret = options.clientSecret;
  const response = await postForm(options.fetch ?? fetch, options.baseUrl, '/v1/oauth/revoke', form);
  const text = await response.text();
  if (!response.ok) {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Reported by status.
    }
    throw errorFromResponse(response, body);
  }
}

/** A form POST to `path` of the API. */
export function postForm(send: typeof fetch, baseUrl: string, path: string, form: Record<string, string>): Promise<Response> {
  return send(
    new Request(`${apiOrigin(baseUrl)}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    }),
  );
}
