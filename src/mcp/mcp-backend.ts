// The port the MCP tools run on (McpBackend): one method per REST route they mirror.
import type { ErrorDetail } from '../core/errors';
import type { PaginationQuery } from '../core/pagination';

/**
 * What the MCP tools need of a Demoshare instance: one method per REST route they mirror, answering the
 * route's JSON (`data`, and `meta` for pages). Two implementations: the server's services in process
 * (`/mcp`, mcp-services.backend.ts) and the REST API over HTTP (`demoshare mcp`, mcp-http.backend.ts).
 */
export interface McpBackend {
  /** GET /v1/demos */
  listDemos(query: { search?: string; status?: string } & PaginationQuery): Promise<Page>;
  /** GET /v1/demos/:id */
  getDemo(id: string): Promise<Json>;
  /** POST /v1/demos */
  createDemo(body: { source_url: string; title?: string; generate_with_ai: true }): Promise<Json>;
  /** POST /v1/demos/:id/publish */
  publishDemo(id: string): Promise<Json>;
  /** GET /v1/demos/:id/shares */
  listShares(demoId: string): Promise<Json[]>;
  /** POST /v1/demos/:id/shares */
  createShare(demoId: string, body: ShareBody): Promise<Json>;
  /** GET /v1/analytics */
  workspaceAnalytics(query: AnalyticsQuery): Promise<Json>;
  /** GET /v1/demos/:id/analytics */
  demoAnalytics(demoId: string, query: AnalyticsQuery & { version?: number }): Promise<Json>;
  /** GET /v1/demos/:id/analytics/paths */
  demoPaths(demoId: string, query: Omit<AnalyticsQuery, 'granularity'> & { version?: number }): Promise<Json>;
  /** GET /v1/demos/:id/views */
  listViews(demoId: string, query: ViewsQuery): Promise<Page>;
  /** POST /v1/shares/:id/experiment */
  startAbTest(shareId: string, body: StartAbTestBody): Promise<Json>;
  /** GET /v1/shares/:id/experiments */
  listAbTests(shareId: string, query: PaginationQuery): Promise<Page>;
  /** GET /v1/shares/:id/experiment/results, or /experiments/:experiment_id/results for one of the link's tests */
  abTestResults(shareId: string, experimentId?: string): Promise<Json>;
  /** POST /v1/shares/:id/experiment/stop */
  stopAbTest(shareId: string, body: { winner_arm_id?: string | null }): Promise<Json>;
}

export interface StartAbTestBody {
  name?: string;
  metric?: 'completion' | 'form_conversion' | 'cta_click';
  arms: Array<{ demo_id: string; version?: number | null; weight: number; label?: string }>;
}

export type Json = Record<string, unknown>;

/** A list's page as the REST routes answer it (core/pagination.ts), without the request id. */
export interface Page {
  data: Json[];
  meta: { total: number } & PaginationQuery;
}

export interface ShareBody {
  name?: string;
  password?: string;
  expires_at?: string | null;
  require_identification?: boolean;
  allowed_emails?: string[];
  allowed_domains?: string[];
}

export interface AnalyticsQuery {
  start_date?: string;
  end_date?: string;
  granularity?: 'day' | 'week' | 'month';
  include_internal?: boolean;
}

export interface ViewsQuery extends PaginationQuery {
  start_date?: string;
  end_date?: string;
  viewer_email?: string;
  include_internal?: boolean;
}

/** An error as the API answers it (`{error: {code, message, details?, request_id?}}`), for a tool error. */
export class McpApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'McpApiError';
  }
}
