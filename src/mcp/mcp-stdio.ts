// `demoshare mcp`: the MCP server on stdin/stdout, calling a remote instance with an API key or OAuth access token.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { createHttpBackend } from './mcp-http.backend';
import { createMcpServer, SERVER_VERSION } from './mcp-server';

/** What `demoshare mcp` reads from its environment: the instance and the credential it calls it with. */
const settings = z.object({
  DEMOSHARE_API_KEY: z
    .string({ error: 'DEMOSHARE_API_KEY is required: an API key (dsk_...) of the workspace to use' })
    .trim()
    .regex(/^(dsk|dsa)_\S+$/, 'DEMOSHARE_API_KEY must be an API key (dsk_...) or an OAuth access token (dsa_...)'),
  DEMOSHARE_URL: z
    .url({ protocol: /^https?$/, error: 'DEMOSHARE_URL must be the http(s) address of the instance' })
    .default('http://localhost:3000'),
});

/**
 * `demoshare mcp`: the MCP tools over stdio for a local assistant (Claude Desktop and the like), calling
 * the instance at DEMOSHARE_URL through its REST API with DEMOSHARE_API_KEY, so it works against any
 * instance. stdout carries the protocol only; messages go to stderr. Resolves when stdin ends.
 */
export async function runMcpStdio(env: NodeJS.ProcessEnv, stderr: (line: string) => void): Promise<number> {
  const parsed = settings.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) stderr(issue.message);
    return 2;
  }
  const { DEMOSHARE_API_KEY: token, DEMOSHARE_URL: url } = parsed.data;
  const backend = createHttpBackend({ url, token, userAgent: `demoshare-mcp/${SERVER_VERSION}` });
  const server = createMcpServer(backend, {
    onUnexpected: (error, tool) => stderr(`${tool} failed: ${(error as Error).stack ?? String(error)}`),
  });
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    transport.onclose = resolve;
  });
  await server.connect(transport);
  stderr(`Demoshare MCP server (stdio) for ${url}`);
  await ended;
  await server.close().catch(() => {});
  return 0;
}
