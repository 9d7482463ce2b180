import { base64 } from './resources';
import { type Connection, type PendingAuth, store } from './store';

/** The OAuth client built into every Demoshare instance for this extension (public: PKCE, no secret). */
export const CLIENT_ID = 'demoshare-recorder';
export const SCOPES = 'demos:read demos:write';
/** A token this close to expiry is refreshed before use rather than sent and refused. */
const EXPIRY_MARGIN_MS = 60_000;
/** Consent left unfinished this long is abandoned. */
const PENDING_TTL_MS = 15 * 60_000;

export class RecorderError extends Error {}

interface Metadata {
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
}

/** Accepts "demos.acme.com" or a full address; answers the origin the instance's web app is served from. */
export function normaliseInstance(input: string): string {
  const raw = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new RecorderError('Enter the address of your Demoshare, for example https://demos.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RecorderError('The address must start with https://');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** RFC 8414 metadata tells where the consent page, the token endpoint and the API are. */
async function discover(instanceUrl: string) {
  let meta: Metadata;
  try {
    const res = await fetch(`${instanceUrl}/.well-known/oauth-authorization-server`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(String(res.status));
    meta = (await res.json()) as Metadata;
  } catch {
    throw new RecorderError(`No Demoshare answers at ${instanceUrl}. Check the address.`);
  }
  if (!meta.token_endpoint?.endsWith('/v1/oauth/token')) throw new RecorderError(`${instanceUrl} does not look like a Demoshare instance.`);
  return {
    authorizationEndpoint: meta.authorization_endpoint,
    tokenEndpoint: meta.token_endpoint,
    revocationEndpoint: meta.revocation_endpoint,
    apiUrl: meta.token_endpoint.slice(0, -'/v1/oauth/token'.length),
  };
}

const randomUrlSafe = (bytes: number) => base64(crypto.getRandomValues(new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function challengeOf(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return base64(digest).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Opens the instance's consent page in a tab; the callback page hands the code back to `finishConnect`. */
export async function startConnect(input: string): Promise<void> {
  const instanceUrl = normaliseInstance(input);
  const endpoints = await discover(instanceUrl);
  const pending: PendingAuth = {
    ...endpoints,
    instanceUrl,
    state: randomUrlSafe(24),
    verifier: randomUrlSafe(48),
    redirectUri: chrome.runtime.getURL('oauth-callback.html'),
    startedAt: Date.now(),
  };
  await store.setPendingAuth(pending);
  const url = new URL(pending.authorizationEndpoint);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: pending.redirectUri,
    response_type: 'code',
    scope: SCOPES,
    state: pending.state,
    code_challenge: await challengeOf(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  await chrome.tabs.create({ url: url.toString() });
}

interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

async function tokenRequest(endpoint: string, form: Record<string, string>): Promise<TokenResponse> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await res.json().catch(() => ({}))) as Partial<TokenResponse> & { error?: string; error_description?: string };
  if (!res.ok || !body.access_token) {
    throw new RecorderError(body.error_description ?? body.error ?? `The token endpoint answered ${res.status}`);
  }
  return body as TokenResponse;
}

/** The consent page redirected to our callback page with `code` and `state` (or an error). */
export async function finishConnect(callbackUrl: string): Promise<Connection> {
  const pending = await store.pendingAuth();
  const params = new URL(callbackUrl).searchParams;
  if (!pending || pending.state !== params.get('state') || Date.now() - pending.startedAt > PENDING_TTL_MS) {
    throw new RecorderError('This sign-in was not started here, or took too long. Connect again from the extension.');
  }
  await store.setPendingAuth(null);
  if (params.get('error')) {
    throw new RecorderError(params.get('error') === 'access_denied' ? 'Access was denied.' : (params.get('error_description') ?? 'Sign-in failed.'));
  }
  const tokens = await tokenRequest(pending.tokenEndpoint, {
    grant_type: 'authorization_code',
    code: params.get('code') ?? '',
    redirect_uri: pending.redirectUri,
    client_id: CLIENT_ID,
    code_verifier: pending.verifier,
  });
  const connection: Connection = {
    instanceUrl: pending.instanceUrl,
    apiUrl: pending.apiUrl,
    tokenEndpoint: pending.tokenEndpoint,
    revocationEndpoint: pending.revocationEndpoint,
    kind: 'oauth',
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: Date.now() + tokens.expires_in * 1000,
  };
  await store.setConnection(connection);
  return connection;
}

/** The fallback for headless use: an API key with demos:write, checked before it is kept. */
export async function connectWithKey(input: string, apiKey: string): Promise<Connection> {
  const instanceUrl = normaliseInstance(input);
  const endpoints = await discover(instanceUrl);
  const res = await fetch(`${endpoints.apiUrl}/v1/demos?per_page=1`, { headers: { authorization: `Bearer ${apiKey.trim()}` } });
  if (!res.ok) throw new RecorderError(res.status === 401 ? 'This API key is not valid.' : `The key cannot list demos (${res.status}).`);
  const connection: Connection = { ...endpoints, instanceUrl, kind: 'key', accessToken: apiKey.trim(), refreshToken: null, expiresAt: null };
  await store.setConnection(connection);
  return connection;
}

let refreshing: Promise<Connection> | null = null;

/**
 * One refresh at a time: a refresh token is single-use, and a second concurrent use of it would look like
 * a replay and revoke the whole authorisation.
 */
export function refreshTokens(): Promise<Connection> {
  refreshing ??= (async () => {
    try {
      const current = await store.connection();
      if (!current?.refreshToken) throw new RecorderError('Not connected');
      const tokens = await tokenRequest(current.tokenEndpoint, {
        grant_type: 'refresh_token',
        refresh_token: current.refreshToken,
        client_id: CLIENT_ID,
      }).catch(async (error) => {
        // A refused refresh token will never work again: the user must connect anew.
        await store.setConnection(null);
        throw new RecorderError(`Signed out of Demoshare (${(error as Error).message}). Connect again.`);
      });
      const next: Connection = {
        ...current,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: Date.now() + tokens.expires_in * 1000,
      };
      await store.setConnection(next);
      return next;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** A usable connection, refreshed first when its access token is about to expire. */
export async function freshConnection(): Promise<Connection> {
  const connection = await store.connection();
  if (!connection) throw new RecorderError('Connect the extension to your Demoshare first.');
  if (connection.kind === 'oauth' && connection.expiresAt !== null && connection.expiresAt - Date.now() < EXPIRY_MARGIN_MS) {
    return refreshTokens();
  }
  return connection;
}

/** Revokes the authorisation (RFC 7009) and forgets it. Forgetting happens even when the instance is unreachable. */
export async function disconnect(): Promise<void> {
  const connection = await store.connection();
  await store.setConnection(null);
  if (connection?.kind !== 'oauth' || !connection.refreshToken) return;
  try {
    await fetch(connection.revocationEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: connection.refreshToken, token_type_hint: 'refresh_token', client_id: CLIENT_ID }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    // Nothing more to do here; the tokens expire on their own.
  }
}
