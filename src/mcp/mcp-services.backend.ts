// McpBackend on this process's services, for /mcp: the same JSON the REST routes answer, without HTTP.
import { z } from 'zod';
import type { AnalyticsService } from '../analytics/analytics.service';
import { analyticsSchema, pathAnalyticsSchema, workspaceAnalyticsSchema } from '../analytics/analytics.schemas';
import type { Actor } from '../audit/actor';
import type { AuthContext } from '../auth/permissions';
import { toLimitOffset } from '../core/pagination';
import type { PublicOrigins } from '../core/public-origins';
import { demoUrls, demoDetailSchema, demoSchema, toDemo, toDemoDetail } from '../demos/demos.schemas';
import type { DemoVersionsService } from '../demos/demo-versions.service';
import type { DemosService } from '../demos/demos.service';
import type { DemoStatus } from '../demos/demos.tables';
import type { SharesService } from '../shares/shares.service';
import { shareSchema, toShare, toShareInput } from '../shares/shares.schemas';
import { toView, viewSchema } from '../viewing/views.schemas';
import type { ExperimentsService } from '../experiments/experiments.service';
import { experimentResultsSchema, experimentSchema } from '../experiments/experiments.schemas';
import type { ViewsService } from '../viewing/views.service';
import type { Json, McpBackend } from './mcp-backend';
import { shareUrls } from '../core/share-urls';

export interface ServicesBackendDeps {
  config: { APP_URL: string; API_URL?: string };
  /** The workspace's origin for share links (its custom domain once verified). */
  origins: Pick<PublicOrigins, 'of'>;
  demos: Pick<DemosService, 'list' | 'get' | 'create'>;
  versions: Pick<DemoVersionsService, 'publish'>;
  shares: Pick<SharesService, 'list' | 'create'>;
  analytics: Pick<AnalyticsService, 'workspace' | 'demo' | 'paths'>;
  views: Pick<ViewsService, 'list'>;
  experiments: Pick<ExperimentsService, 'start' | 'list' | 'results' | 'stop'>;
}

/** Encoded through the REST route's response schema: the same fields, the same JSON. */
const encode = <S extends z.ZodType>(schema: S, value: unknown) => z.encode(schema, value as z.output<S>) as Json;

/**
 * The MCP tools' backend on this server's services, for one caller: what the REST routes do, without HTTP.
 * The permission is checked before (mcp-server.ts `authorize`), as the auth hook does for a route.
 */
export function createServicesBackend(deps: ServicesBackendDeps, auth: AuthContext, actor: Actor): McpBackend {
  // Share links on the caller's workspace's custom domain once verified, else APP_URL: resolved per call (cached).
  const urlsNow = async () => demoUrls(deps.config.API_URL ?? deps.config.APP_URL, await deps.origins.of(auth.workspaceId));
  const linksNow = async () => shareUrls(await deps.origins.of(auth.workspaceId));
  const detail = async (found: Awaited<ReturnType<DemosService['get']>>) => encode(demoDetailSchema, toDemoDetail(found, await urlsNow()));
  const range = (q: { start_date?: string; end_date?: string; include_internal?: boolean }) => ({
    startDate: q.start_date,
    endDate: q.end_date,
    includeInternal: q.include_internal,
  });

  return {
    async listDemos(q) {
      const { rows, total } = await deps.demos.list(
        auth,
        { status: q.status as DemoStatus | undefined, search: q.search },
        { ...toLimitOffset(q), after: null },
      );
      const urls = await urlsNow();
      return {
        data: rows.map((r) => encode(demoSchema, toDemo(r.demo, r.stepCount, urls, r.shareToken, r.latestVersion))),
        meta: { total, page: q.page, per_page: q.per_page },
      };
    },
    getDemo: async (id) => detail(await deps.demos.get(auth, id)),
    async createDemo(body) {
      const input = { title: body.title, sourceUrl: body.source_url, type: 'interactive', generateWithAi: body.generate_with_ai };
      return detail(await deps.demos.create(auth, input));
    },
    async publishDemo(id) {
      await deps.versions.publish(auth, id, actor);
      return detail(await deps.demos.get(auth, id));
    },
    async listShares(demoId) {
      const links = await linksNow();
      return (await deps.shares.list(auth, demoId)).map((s) => encode(shareSchema, toShare(s, links)));
    },
    async createShare(demoId, body) {
      const share = await deps.shares.create(auth, demoId, toShareInput(body), actor);
      return encode(shareSchema, toShare(share, await linksNow()));
    },
    workspaceAnalytics: async (q) =>
      encode(workspaceAnalyticsSchema, await deps.analytics.workspace(auth, { ...range(q), granularity: q.granularity })),
    demoAnalytics: async (demoId, q) =>
      encode(analyticsSchema, await deps.analytics.demo(auth, demoId, { ...range(q), granularity: q.granularity, version: q.version })),
    demoPaths: async (demoId, q) => encode(pathAnalyticsSchema, await deps.analytics.paths(auth, demoId, { ...range(q), version: q.version })),
    async listViews(demoId, q) {
      const filters = { ...range(q), viewerEmail: q.viewer_email };
      const { rows, total } = await deps.views.list(auth, demoId, filters, { ...toLimitOffset(q), after: null });
      return {
        data: rows.map((r) => encode(viewSchema, toView(r, r.stepTimes))),
        meta: { total, page: q.page, per_page: q.per_page },
      };
    },
    async startAbTest(shareId, body) {
      const arms = body.arms.map((a) => ({ demoId: a.demo_id, version: a.version, weight: a.weight, label: a.label }));
      return encode(experimentSchema, await deps.experiments.start(auth, shareId, { name: body.name, metric: body.metric, arms }, actor));
    },
    async listAbTests(shareId, q) {
      const { rows, total } = await deps.experiments.list(auth, shareId, toLimitOffset(q));
      return { data: rows.map((r) => encode(experimentSchema, r)), meta: { total, page: q.page, per_page: q.per_page } };
    },
    abTestResults: async (shareId, experimentId) => encode(experimentResultsSchema, await deps.experiments.results(auth, shareId, experimentId)),
    stopAbTest: async (shareId, body) => encode(experimentSchema, await deps.experiments.stop(auth, shareId, body.winner_arm_id, actor)),
  };
}
