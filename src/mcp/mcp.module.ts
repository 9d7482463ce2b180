import type { Actor } from '../audit/actor';
import type { AuthContext } from '../auth/permissions';
import type { BearerResolver } from '../auth/authenticate';
import { defineModule } from '../module';
import { ACCESS_TOKEN_PREFIX } from '../oauth/token-issuing';
import type { McpBackend } from './mcp-backend';
import { createServicesBackend } from './mcp-services.backend';
import { mcpRoutes } from './mcp.routes';

declare module '../module' {
  interface Services {
    mcp: {
      /** The tools' backend on this server's services, for one caller. */
      backendFor(auth: AuthContext, actor: Actor): McpBackend;
      /** The bearer credentials /mcp accepts: the REST API's (API keys, OAuth access tokens). */
      bearers(): BearerResolver[];
    };
  }
}

/**
 * The MCP server at /mcp (Streamable HTTP): tools over the demos, shares, analytics, views and A/B test services.
 * `demoshare mcp` (mcp-stdio.ts) serves the same tools over stdio on a remote instance's REST API.
 *
 * @example
 * ```ts
 * // app.ts lists it with the other modules; a caller then reaches the tools through the bearer it holds:
 * const backend = services.mcp.backendFor(auth, actor);
 * const page = await backend.listDemos({ search: 'pricing', page: 1, per_page: 20 });
 * ```
 */
export const mcpModule = defineModule({
  name: 'mcp',
  owns: {},
  needs: ['apiKeys', 'oauth', 'demos', 'shares', 'analytics', 'viewing', 'experiments'],
  create: (kernel, deps) => ({
    backendFor: (auth, actor) =>
      createServicesBackend(
        {
          config: kernel.config,
          origins: kernel.origins,
          demos: deps.demos.demos,
          versions: deps.demos.versions,
          shares: deps.shares.shares,
          analytics: deps.analytics.analytics,
          views: deps.viewing.views,
          experiments: deps.experiments.experiments,
        },
        auth,
        actor,
      ),
    bearers: () => [
      { prefix: deps.apiKeys.apiKeys.prefix, resolve: deps.apiKeys.apiKeys.resolve },
      { prefix: ACCESS_TOKEN_PREFIX, resolve: deps.oauth.oauthTokens.resolve },
    ],
  }),
  pages: mcpRoutes,
});
