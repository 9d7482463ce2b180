// RFC 8707 resource indicators: which of this server's protected resources a request or a grant names.
import { OAuthError } from './oauth-error';
import type { OAuthContext } from './oauth-context';

/**
 * A resource indicator must name this API or its MCP endpoint, exactly.
 *
 * @example
 * ```ts
 * checkResource(ctx, 'https://api.example.com/mcp'); // passes; any other address is invalid_target
 * ```
 */
export function checkResource(ctx: Pick<OAuthContext, 'resources'>, resource: string | undefined) {
  if (resource !== undefined && !ctx.resources.includes(resource)) {
    throw new OAuthError('invalid_target', `resource must be one of ${ctx.resources.join(', ')}`);
  }
}

/** A token request may repeat the authorisation's resource, not name another one. */
export function sameResource(grant: { resource: string | null }, resource: string | undefined) {
  if (resource !== undefined && grant.resource !== null && resource !== grant.resource) {
    throw new OAuthError('invalid_target', `This authorisation is for ${grant.resource}`);
  }
}
