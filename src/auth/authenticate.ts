// Who is calling: a bearer token or the session cookie (with CSRF), resolved by the resolvers each module registers.
import type { FastifyRequest } from 'fastify';
import { safeEqual } from '../core/crypto';
import { AppError } from '../core/errors';
import type { AuthContext } from './permissions';

/**
 * The web app's session cookie (HttpOnly): its value is looked up by the SessionResolver.
 *
 * @example
 * ```ts
 * import { SESSION_COOKIE } from './authenticate';
 *
 * const cookie = `${SESSION_COOKIE}=…; Path=/; HttpOnly; Secure; SameSite=Lax`;
 * ```
 */
export const SESSION_COOKIE = 'ds_session';
/**
 * The cookie the web app reads its CSRF token from (not HttpOnly, so the page can echo it).
 *
 * @example
 * ```ts
 * import { CSRF_COOKIE } from './authenticate';
 *
 * const token = document.cookie.match(new RegExp(`${CSRF_COOKIE}=([^;]+)`))?.[1];
 * ```
 */
export const CSRF_COOKIE = 'ds_csrf';
/**
 * The header a session must echo its CSRF token in on every unsafe method (double submit).
 *
 * @example
 * ```ts
 * import { CSRF_HEADER } from './authenticate';
 *
 * await fetch('/v1/demos', { method: 'POST', headers: { [CSRF_HEADER]: 'token from the ds_csrf cookie' } });
 * ```
 */
export const CSRF_HEADER = 'x-csrf-token';

/** Turns a bearer token of one kind (`dsk_` API key, OAuth access token...) into who is calling. */
export interface BearerResolver {
  prefix: string;
  resolve(token: string): Promise<AuthContext | null>;
}

export interface SessionResolver {
  resolve(cookieValue: string): Promise<{ auth: AuthContext; csrfToken: string } | null>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthenticatorOptions {
  /**
   * RFC 9728: the address of the protected resource metadata, named in every 401's challenge so that an
   * OAuth client can discover the authorization server from a failed call alone.
   */
  resourceMetadata?: string;
}

/**
 * The one authentication step: a bearer token (matched to its resolver by prefix) or the session cookie
 * (with its CSRF header on unsafe methods), else the 401 of DESIGN.md with its `WWW-Authenticate` challenge.
 *
 * @example
 * ```ts
 * import type { FastifyRequest } from 'fastify';
 * import { createAuthenticator, type BearerResolver, type SessionResolver } from './authenticate';
 *
 * declare const apiKeys: BearerResolver, sessions: SessionResolver, request: FastifyRequest;
 * const authenticator = createAuthenticator([apiKeys], sessions, { resourceMetadata: 'https://demos.example.com/.well-known/oauth-protected-resource' });
 * const auth = await authenticator.authenticate(request); // or throws a 401 AppError
 * ```
 */
export function createAuthenticator(bearers: BearerResolver[], sessions: SessionResolver, options: AuthenticatorOptions = {}) {
  const metadata = options.resourceMetadata ? `, resource_metadata="${options.resourceMetadata}"` : '';
  function unauthorized(message: string, invalidToken: boolean): AppError {
    const challenge = invalidToken
      ? `Bearer realm="demoshare"${metadata}, error="invalid_token", error_description="${message}"`
      : `Bearer realm="demoshare"${metadata}`;
    return new AppError('unauthorized', message, { headers: { 'www-authenticate': challenge } });
  }

  return {
    /** Resolves the caller or throws the 401 of DESIGN.md. */
    async authenticate(request: FastifyRequest): Promise<AuthContext> {
      const header = request.headers.authorization;
      if (header !== undefined) {
        const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
        if (!match?.[1]) throw unauthorized('Authorization header must be "Bearer <token>"', true);
        const token = match[1];
        const resolver = bearers.find((b) => token.startsWith(b.prefix));
        const auth = resolver ? await resolver.resolve(token) : null;
        if (!auth) throw unauthorized('The access token is invalid, expired or revoked', true);
        return auth;
      }
      const cookie = request.cookies[SESSION_COOKIE];
      if (cookie) {
        const session = await sessions.resolve(cookie);
        if (!session) throw unauthorized('Your session has expired: sign in again', false);
        if (!SAFE_METHODS.has(request.method)) {
          const sent = request.headers[CSRF_HEADER];
          if (typeof sent !== 'string' || !safeEqual(sent, session.csrfToken)) {
            throw new AppError('forbidden', `Missing or wrong ${CSRF_HEADER} header (cross-site request refused)`);
          }
        }
        return session.auth;
      }
      throw unauthorized('Authentication required: send "Authorization: Bearer <API key or access token>"', false);
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
