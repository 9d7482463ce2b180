// RFC 8414 and RFC 9728 metadata under /.well-known, and the resource addresses (API, /mcp) that tokens may name.
import { SCOPES } from '../auth/permissions';
import type { Config } from '../config';
import type { ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';

const trim = (url: string) => url.replace(/\/+$/, '');

/** The API's own address: RFC 8707 resource indicators and RFC 9728 metadata name it. */
export const apiOrigin = (config: Pick<Config, 'APP_URL' | 'API_URL'>) => trim(config.API_URL ?? config.APP_URL);

/** The protected resources this server is: the REST API and the MCP endpoint. */
export const protectedResources = (config: Pick<Config, 'APP_URL' | 'API_URL'>) => [apiOrigin(config), `${apiOrigin(config)}/mcp`];

/** Where the REST API's protected resource metadata lives (RFC 9728 §3.1): named in every 401 of /v1. */
export const protectedResourceMetadataUrl = (config: Pick<Config, 'APP_URL' | 'API_URL'>) =>
  `${apiOrigin(config)}/.well-known/oauth-protected-resource`;

/** RFC 8414 authorization server metadata and RFC 9728 protected resource metadata, outside /v1. */
export function oauthMetadataRoute(app: ZodApp, ctx: ModuleContext<Services['oauth']>) {
  const appUrl = trim(ctx.config.APP_URL);
  const apiUrl = apiOrigin(ctx.config);
  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async () => ({
    issuer: appUrl,
    authorization_endpoint: `${appUrl}/oauth/authorize`,
    token_endpoint: `${apiUrl}/v1/oauth/token`,
    revocation_endpoint: `${apiUrl}/v1/oauth/revoke`,
    ...(ctx.config.OAUTH_DYNAMIC_REGISTRATION ? { registration_endpoint: `${apiUrl}/v1/oauth/register` } : {}),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    scopes_supported: [...SCOPES],
  }));

  const resourceMetadata = (resource: string, name: string) => ({
    resource,
    authorization_servers: [appUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: name,
    resource_documentation: `${apiUrl}/docs`,
  });
  const [api, mcp] = protectedResources(ctx.config) as [string, string];
  // GET /.well-known/oauth-protected-resource — RFC 9728 metadata of the REST API
  app.get('/.well-known/oauth-protected-resource', { schema: { hide: true } }, async () => resourceMetadata(api, 'Demoshare API'));
  // GET /.well-known/oauth-protected-resource/mcp — the same for the MCP endpoint at /mcp
  app.get('/.well-known/oauth-protected-resource/mcp', { schema: { hide: true } }, async () =>
    resourceMetadata(mcp, 'Demoshare MCP server'),
  );
}
