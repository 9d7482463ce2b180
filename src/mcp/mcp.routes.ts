// /mcp: MCP over Streamable HTTP (stateless), authenticated and rate-limited like the REST API.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../audit/actor';
import { createAuthenticator } from '../auth/authenticate';
import { type AuthContext, authorize } from '../auth/permissions';
import { AppError } from '../core/errors';
import type { ZodApp } from '../core/http/types';
import { rateLimitHeaders } from '../core/rate-limit';
import type { ModuleContext, Services } from '../module';
import { createMcpServer } from './mcp-server';

export const MCP_PATH = '/mcp';

/** RFC 9728: where an MCP client finds the authorization server of this resource. */
export const resourceMetadataUrl = (apiUrl: string) =>
  `${apiUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource${MCP_PATH}`;

/**
 * POST /mcp: the MCP Streamable HTTP endpoint, stateless (one server and transport per request, no
 * session). A bearer credential only (API key or OAuth access token; never the session cookie, so no
 * CSRF to answer); each tool call is authorised by the permission of the REST route it mirrors. GET and
 * DELETE (the SSE stream and session end of stateful servers) answer 405.
 */
export function mcpRoutes(app: ZodApp, ctx: ModuleContext<Services['mcp']>) {
  const { config, rateLimits, log } = ctx;
  const metadata = resourceMetadataUrl(config.API_URL ?? config.APP_URL);
  const apiPolicy = { points: config.RATE_LIMIT_PER_MINUTE, duration: 60 };
  const publicPolicy = { points: config.RATE_LIMIT_PUBLIC_PER_MINUTE, duration: 60 };
  const sameOrigins = new Set([config.APP_URL, config.API_URL ?? config.APP_URL].map((url) => new URL(url).origin));
  const authenticator = createAuthenticator(ctx.services.bearers(), { resolve: async () => null });

  /** The MCP authorization specification's 401: the challenge names the protected resource metadata. */
  const challenge = (message: string, invalidToken: boolean) =>
    new AppError('unauthorized', message, {
      headers: {
        'www-authenticate': invalidToken
          ? `Bearer resource_metadata="${metadata}", error="invalid_token", error_description="${message.replaceAll('"', "'")}"`
          : `Bearer resource_metadata="${metadata}"`,
      },
    });

  async function authenticate(request: FastifyRequest): Promise<AuthContext> {
    if (request.headers.authorization === undefined) {
      throw challenge('Authentication required: send "Authorization: Bearer <API key or OAuth access token>"', false);
    }
    try {
      return await authenticator.authenticate(request);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'unauthorized') throw error;
      // Failed credentials count against the caller's address, as on /v1.
      await rateLimits.consume('public', publicPolicy, `ip:${request.ip}`);
      throw challenge(error.message, true);
    }
  }

  app.post(
    MCP_PATH,
    {
      schema: { hide: true },
      // Before the body is parsed, as the /v1 auth hook: an unauthenticated caller learns nothing more.
      onRequest: async (request, reply) => {
        // The transport's rule against DNS rebinding: a browser page of another origin is refused. MCP
        // clients (not browsers) send no Origin; the web app's own origin may.
        const origin = request.headers.origin;
        if (origin !== undefined && !sameOrigins.has(origin)) {
          throw new AppError('forbidden', `Requests to ${MCP_PATH} from the web origin ${origin} are refused`);
        }
        const auth = await authenticate(request);
        request.auth = auth;
        // The same budget as the credential's REST calls: MCP is not a way around it.
        // A 429 carries its Retry-After and X-RateLimit-* headers in the AppError.
        reply.headers(rateLimitHeaders(await rateLimits.consume('api', apiPolicy, `${auth.kind}:${auth.credentialId}`)));
      },
    },
    async (request, reply) => {
      const auth = request.auth as AuthContext;
      const server = createMcpServer(ctx.services.backendFor(auth, actorOf(request)), {
        authorize: (permission) => authorize(auth, permission),
        onUnexpected: (error, tool) => log.error({ err: error, tool, request_id: request.id }, 'MCP tool failed'),
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // The transport writes the response itself; headers set so far (request id, rate limit) go with it.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.setHeader('x-request-id', request.id);
      reply.raw.on('close', () => {
        void transport.close().catch(() => {});
        void server.close().catch(() => {});
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        log.error({ err: error, request_id: request.id }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
        }
      }
    },
  );

  // Named here, or the web app's pages would answer them. The SDK's clients take a 405 on GET as "no stream".
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    schema: { hide: true },
    handler: async () => {
      throw new AppError('method_not_allowed', 'This MCP server is stateless: POST JSON-RPC messages to /mcp', {
        headers: { allow: 'POST' },
      });
    },
  });
}
