import { defineModule } from '../module';
import { authorizationsRoutes } from './authorizations.routes';
import { authorizeRoutes } from './authorize.routes';
import { createOAuthAppsService, type OAuthAppsService } from './oauth-apps.service';
import { oauthAppsRoutes } from './oauth-apps.routes';
import { createOAuthGrantsService, type OAuthGrantsService } from './oauth-grants.service';
import { createOAuthTokensService, type OAuthTokensService } from './oauth-tokens.service';
import { registrationRoutes } from './registration.routes';
import { tokenRoutes } from './token.routes';
import { oauthMetadataRoute } from './well-known.routes';
import { members, users } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';

declare module '../module' {
  interface Services {
    oauth: { oauthApps: OAuthAppsService; oauthTokens: OAuthTokensService; oauthGrants: OAuthGrantsService };
  }
}

/**
 * OAuth 2.0: client apps, consent, codes, tokens, revocation and the RFC 8414 metadata. Asks accounts'
 * reader who is a member where; the bearer hook (app.ts) and the MCP module resolve access tokens through
 * `oauthTokens.resolve`.
 *
 * @example
 * ```ts
 * // another module: needs: ['oauth'], then
 * const auth = await deps.oauth.oauthTokens.resolve('dsa_…'); // AuthContext | null
 * ```
 */
export const oauthModule = defineModule({
  name: 'oauth',
  owns: { tables: 'oauth.tables.ts', ids: ['oauthApp', 'oauthGrant', 'oauthToken'], permissions: ['oauth_apps.manage', 'oauth_grants.manage', 'oauth_grants.manage_all'] },
  reads: { tables: [members, users, workspaces] },
  needs: ['accounts'],
  create: (kernel, { accounts }) => {
    const oauthTokens = createOAuthTokensService({
      ...kernel,
      digestKey: kernel.secrets.keyDigest,
      sealingKey: kernel.secrets.sealing,
      members: accounts.reader,
    });
    return {
      oauthApps: createOAuthAppsService({ ...kernel, digestKey: kernel.secrets.keyDigest }),
      oauthTokens,
      oauthGrants: createOAuthGrantsService(kernel),
    };
  },
  routes(app, ctx) {
    oauthAppsRoutes(app, ctx);
    authorizeRoutes(app, ctx);
    authorizationsRoutes(app, ctx);
    tokenRoutes(app, ctx);
    registrationRoutes(app, ctx);
  },
  pages: oauthMetadataRoute,
});
