// What an MCP tool is (its definition and how it reports progress), and the paging arguments of the list tools.
import type { z } from 'zod';
import type { Permission } from '../auth/permissions';
import { paginationQuery } from '../core/pagination';
import type { McpBackend } from './mcp-backend';

/**
 * The MCP tools, for both transports: `/mcp` runs them on the server's services, `demoshare mcp` (stdio)
 * on a remote instance's REST API. Names, descriptions and input schemas are written for a model: each
 * says when to use the tool and what comes back. `permission` is the one of the REST route mirrored.
 */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  permission: Permission;
  /** Changes nothing: the client may call it without asking the user. */
  readOnly: boolean;
  run(backend: McpBackend, input: z.output<S>, progress: Progress): Promise<unknown>;
}

/** Reports how far a long call is (MCP progress notifications), when the client asked for them. */
export type Progress = (progress: number, total: number, message: string) => Promise<void>;

export const tool = <S extends z.ZodObject>(definition: ToolDefinition<S>) => definition as unknown as ToolDefinition;

// The REST lists' own `page` and `per_page` (their JSON Schema is the same as a plain number's).
export const { page, per_page: perPage } = paginationQuery.shape;
