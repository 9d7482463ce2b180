import { defineModule } from '../module';
import { authorizeRoutes } from './authorize.routes';
import { createOAuthAppsService, type OAuthAppsService } from './oauth-apps.service';
import { oauthAppsRoutes } from './oauth-apps.routes';
import { createOAuthTokensService, type OAuthTokensService } from './oauth-tokens.service';
import { oauthMetadataRoute, tokenRoutes } from './token.routes';

declare module '../module' {
  interface Services {
    oauth: { oauthApps: OAuthAppsService; oauthTokens: OAuthTokensService };
  }
}

/** OAuth 2.0: client apps, consent, codes, tokens, revocation and the RFC 8414 metadata. */
export const oauthModule = defineModule({
  name: 'oauth',
  owns: { tables: 'oauth.tables.ts', ids: ['oauthApp', 'oauthGrant', 'oauthToken'], permissions: ['oauth_apps.manage'] },
  create: (kernel) => ({
    oauthApps: createOAuthAppsService({ ...kernel, digestKey: kernel.secrets.keyDigest }),
    oauthTokens: createOAuthTokensService({ ...kernel, digestKey: kernel.secrets.keyDigest }),
  }),
  routes(app, ctx) {
    oauthAppsRoutes(app, ctx);
    authorizeRoutes(app, ctx);
    tokenRoutes(app, ctx);
  },
  pages: oauthMetadataRoute,
});
