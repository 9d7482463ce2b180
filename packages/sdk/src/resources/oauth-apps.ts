import { PageIterator } from '../pagination.js';
import { type ResourceContext, unwrap } from '../request.js';
import type { CreatedOAuthApp, OAuthApp, QueryParams, RequestBody } from '../types.js';

/** OAuth apps registered by the workspace (admins, scope `oauth_apps:write`). */
export function oauthAppsResource(ctx: ResourceContext) {
  const { api } = ctx;
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    /**
     * The workspace's apps (never their secrets).
     * @example
     * ```ts
     * for await (const app of client.oauthApps.list()) console.log(app.client_id, app.name);
     * ```
     */
    list(query: QueryParams<'/v1/oauth/apps', 'get'> = {}): PageIterator<OAuthApp> {
      return new PageIterator((page) => unwrap(api.GET('/v1/oauth/apps', { params: { query: { ...query, ...page } } })), query);
    },
    /**
     * Registers an app; a confidential one's `client_secret` is in this answer only.
     * @example
     * ```ts
     * const app = await client.oauthApps.create({ name: 'Acme CRM', redirect_uris: ['https://crm.example.com/cb'], scopes: ['demos:read'] });
     * await vault.save('demoshare-client-secret', app.client_secret);
     * ```
     */
    async create(body: RequestBody<'/v1/oauth/apps', 'post'>): Promise<CreatedOAuthApp> {
      return (await unwrap(api.POST('/v1/oauth/apps', { body }))).data;
    },
    /**
     * Replaces the app's secret at once (issued tokens stay valid); the new one is in this answer only.
     * @example
     * ```ts
     * const { client_secret } = await client.oauthApps.rotateSecret(appId);
     * ```
     */
    async rotateSecret(id: string): Promise<CreatedOAuthApp> {
      return (await unwrap(api.POST('/v1/oauth/apps/{id}/rotate-secret', path(id)))).data;
    },
    /**
     * Deletes the app, ending every authorisation of it at once.
     * @example
     * ```ts
     * await client.oauthApps.delete(appId);
     * ```
     */
    async delete(id: string): Promise<void> {
      await unwrap(api.DELETE('/v1/oauth/apps/{id}', path(id)));
    },
  };
}
