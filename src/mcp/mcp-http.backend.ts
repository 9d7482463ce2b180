// McpBackend over a remote instance's REST API, for `demoshare mcp` (stdio).
import { type Json, McpApiError, type McpBackend, type Page } from './mcp-backend';

export interface HttpBackendOptions {
  /** The instance's API origin, e.g. https://demos.example.com (its REST API is under /v1). */
  url: string;
  /** An API key (dsk_...) or an OAuth access token. */
  token: string;
  userAgent: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Query parameters: strings, numbers and booleans, as the REST API reads them; undefined ones left out. */
type Query = object;

/**
 * The MCP tools' backend on a Demoshare instance's REST API, for `demoshare mcp` (stdio): the instance
 * authenticates the key and checks every route's permission, so a tool is refused exactly as the route is.
 */
export function createHttpBackend(options: HttpBackendOptions): McpBackend {
  const base = `${options.url.replace(/\/+$/, '')}/v1`;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function call(method: string, path: string, query?: Query, body?: unknown): Promise<{ data: unknown; meta?: unknown }> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'application/json',
          'user-agent': options.userAgent,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new McpApiError('unavailable', `Could not reach Demoshare at ${options.url}: ${(error as Error).message}`);
    }
    const text = await res.text();
    let parsed: { data?: unknown; meta?: unknown; error?: { code?: string; message?: string; details?: []; request_id?: string } };
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new McpApiError('internal_error', `Demoshare at ${options.url} answered ${res.status} with a body that is not JSON`);
    }
    if (!res.ok) {
      const error = parsed.error;
      throw new McpApiError(
        error?.code ?? 'internal_error',
        error?.message ?? `Demoshare answered ${res.status}`,
        error?.details,
        error?.request_id,
      );
    }
    return { data: parsed.data, meta: parsed.meta };
  }

  const one = async (method: string, path: string, query?: Query, body?: unknown) =>
    (await call(method, path, query, body)).data as Json;
  const page = async (path: string, query: Query): Promise<Page> => {
    const { data, meta } = await call('GET', path, query);
    const { total, page, per_page } = meta as Page['meta'];
    return { data: data as Json[], meta: { total, page, per_page } };
  };
  const id = encodeURIComponent;

  return {
    listDemos: (q) => page('/demos', q),
    getDemo: (demoId) => one('GET', `/demos/${id(demoId)}`),
    createDemo: (body) => one('POST', '/demos', undefined, body),
    publishDemo: (demoId) => one('POST', `/demos/${id(demoId)}/publish`),
    listShares: async (demoId) => (await call('GET', `/demos/${id(demoId)}/shares`)).data as Json[],
    createShare: (demoId, body) => one('POST', `/demos/${id(demoId)}/shares`, undefined, body),
    workspaceAnalytics: (q) => one('GET', '/analytics', q),
    demoAnalytics: (demoId, q) => one('GET', `/demos/${id(demoId)}/analytics`, q),
    demoPaths: (demoId, q) => one('GET', `/demos/${id(demoId)}/analytics/paths`, q),
    listViews: (demoId, q) => page(`/demos/${id(demoId)}/views`, q),
    startAbTest: (shareId, body) => one('POST', `/shares/${id(shareId)}/experiment`, undefined, body),
    listAbTests: (shareId, q) => page(`/shares/${id(shareId)}/experiments`, q),
    abTestResults: (shareId, experimentId) =>
      one('GET', experimentId === undefined ? `/shares/${id(shareId)}/experiment/results` : `/shares/${id(shareId)}/experiments/${id(experimentId)}/results`),
    stopAbTest: (shareId, body) => one('POST', `/shares/${id(shareId)}/experiment/stop`, undefined, body),
  };
}
