// Which client is asking: a registered app or the built-in recorder client, and its authentication (RFC 6749 §2.3).
import { safeEqual } from '../core/crypto';
import { OAuthError } from './oauth-error';
import * as repo from './oauth.repo';
import { type OAuthContext, secretDigest } from './oauth-context';
import { RECORDER_CLIENT_ID } from './recorder-client';

/** A client's credentials as the token and revocation endpoints received them (form or HTTP Basic). */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
}

/**
 * A registered app, or the built-in recorder client with the redirect addresses this instance trusts.
 *
 * @example
 * ```ts
 * const app = await findClient(ctx, 'demoshare-recorder'); // redirectUris: the trusted extension builds'
 * ```
 */
export async function findClient(ctx: Pick<OAuthContext, 'db' | 'recorderRedirects'>, clientId: string | undefined) {
  const app = clientId ? await repo.findApp(ctx.db, clientId) : undefined;
  return app?.id === RECORDER_CLIENT_ID ? { ...app, redirectUris: ctx.recorderRedirects } : app;
}

/**
 * The client of a token or revocation request: a public client must send no secret, a confidential one
 * its secret (compared in constant time). Anything else is `invalid_client`.
 *
 * @example
 * ```ts
 * const app = await authenticateClient(ctx, { clientId: 'oauthApp_01j…', clientSecret: 'dss_…' });
 * ```
 */
export async function authenticateClient(
  ctx: Pick<OAuthContext, 'db' | 'recorderRedirects' | 'digestKey'>,
  { clientId, clientSecret }: ClientCredentials,
) {
  const app = await findClient(ctx, clientId);
  if (!app) throw new OAuthError('invalid_client', 'Unknown client');
  if (app.isPublic) {
    if (clientSecret) throw new OAuthError('invalid_client', 'This public client has no secret');
    return app;
  }
  if (!clientSecret || !app.secretDigest || !safeEqual(secretDigest(ctx, clientSecret), app.secretDigest)) {
    throw new OAuthError('invalid_client', 'Client authentication failed');
  }
  return app;
}
