/** RFC 6749 §5.2 error codes, answered by the token and revocation endpoints in the RFC's own format. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  /** The token endpoint's rate limit (429 with Retry-After). */
  | 'temporarily_unavailable'
  /** RFC 8707: a `resource` that is not this API. */
  | 'invalid_target';

/**
 * An error answered in RFC 6749's own body (`{ error, error_description }`), not the API's envelope.
 *
 * @example
 * ```ts
 * throw new OAuthError('invalid_grant', 'This authorization code has expired'); // 400
 * ```
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
