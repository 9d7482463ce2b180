// Builds an MCP server holding the tool list (mcp-tools.ts), each tool checked against the caller's permissions.
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Permission } from '../auth/permissions';
import { AppError } from '../core/errors';
import { McpApiError, type McpBackend } from './mcp-backend';
import { TOOLS, toolScope } from './mcp-tools';

export interface McpServerOptions {
  /**
   * Throws the API's 403 when the caller may not use `permission` (in process, where no REST route checks
   * it). Over HTTP the remote API checks, so the stdio server passes none.
   */
  authorize?: (permission: Permission) => void;
  /** An unexpected error (not an API error), before it becomes a generic tool error. */
  onUnexpected?: (error: unknown, tool: string) => void;
}

export const SERVER_NAME = 'demoshare';
/** This package's version, which the server announces to clients. */
export const SERVER_VERSION: string = createRequire(import.meta.url)('../../package.json').version;

const INSTRUCTIONS =
  'Demoshare hosts interactive product demos. Typical flow: create_demo_from_url, then get_generation_status ' +
  'with wait_seconds until done, get_demo to review the steps, publish_demo, create_share_link to get the URL ' +
  'to send; get_analytics_overview, get_demo_analytics and list_views tell how viewers engage. Ids look like ' +
  'demo_..., shr_..., view_....';

/** The tool error of an API error: the same code and message the REST API would answer. */
function toolError(code: string, message: string, details?: unknown, requestId?: string): CallToolResult {
  const error = { code, message, ...(details ? { details } : {}), ...(requestId ? { request_id: requestId } : {}) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/**
 * An MCP server with every tool of TOOLS on `backend`. One per HTTP request (stateless) or per stdio
 * process; what differs between the two is only the backend and who authorises.
 */
export function createMcpServer(backend: McpBackend, options: McpServerOptions): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: INSTRUCTIONS });
  for (const definition of TOOLS) {
    const scope = toolScope(definition);
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: `${definition.description} Requires the ${scope} scope.`,
        inputSchema: definition.input,
        annotations: {
          title: definition.title,
          readOnlyHint: definition.readOnly,
          destructiveHint: false,
          openWorldHint: false,
        },
      },
      async (input: unknown, extra): Promise<CallToolResult> => {
        const token = extra._meta?.progressToken;
        const progress = async (done: number, total: number, message: string) => {
          if (token === undefined) return;
          await extra
            .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total, message } })
            .catch(() => {});
        };
        try {
          options.authorize?.(definition.permission);
          const result = await definition.run(backend, input as never, progress);
          return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] };
        } catch (error) {
          if (error instanceof AppError) return toolError(error.code, error.message, error.details);
          if (error instanceof McpApiError) return toolError(error.code, error.message, error.details, error.requestId);
          options.onUnexpected?.(error, definition.name);
          return toolError('internal_error', 'Something went wrong on the server; try again later');
        }
      },
    );
  }
  return server;
}
