import { and, asc, count, desc, eq, ilike, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { workspaces } from '../workspaces/workspaces.tables';
import type { Executor } from '../db/client';
import { afterRow } from '../db/keyset';
import type { PageWindow } from '../core/pagination';
import type { DemoSnapshot } from './demo-snapshot';
import type { DemoSummaryRow } from './demos.schemas';
import { assets, type chapters, type DemoStatus, demoVersions, demos, hotspots, steps } from './demos.tables';

export type DemoRow = typeof demos.$inferSelect;
export type StepRow = typeof steps.$inferSelect;
export type HotspotRow = typeof hotspots.$inferSelect;
type ChapterRow = typeof chapters.$inferSelect;

// Spelled out: Drizzle leaves column names unqualified inside a select list, which a subquery misreads.
const stepCount = sql<number>`(select count(*)::int from "steps" s where s."demo_id" = "demos"."id")`.mapWith(Number);
const latestVersionNumber = sql<number | null>`(select max(v."number") from "demo_versions" v where v."demo_id" = "demos"."id")`;

/** `%`, `_` and `\` match themselves: a search for "50%" finds "50%", not everything starting with 50. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function insertDemo(db: Executor, row: typeof demos.$inferInsert) {
  const [created] = await db.insert(demos).values(row).returning();
  return created!;
}

/** The columns a list item shows (demos.schemas.ts toDemo): not the configuration, nor generation bookkeeping. */
const listedColumns: { [K in keyof DemoSummaryRow]: (typeof demos)[K] } = {
  id: demos.id,
  title: demos.title,
  sourceUrl: demos.sourceUrl,
  type: demos.type,
  status: demos.status,
  generateWithAi: demos.generateWithAi,
  createdAt: demos.createdAt,
  updatedAt: demos.updatedAt,
  publishedAt: demos.publishedAt,
  thumbnailAssetId: demos.thumbnailAssetId,
  generationStatus: demos.generationStatus,
  generationError: demos.generationError,
  generationErrorCode: demos.generationErrorCode,
  generationStartedAt: demos.generationStartedAt,
  generationFinishedAt: demos.generationFinishedAt,
  generationCaptureMode: demos.generationCaptureMode,
  generationWriter: demos.generationWriter,
  createdById: demos.createdById,
};

/** Only a published demo shows its latest version and share_url: a draft's row costs no lookup for them. */
const whenPublished = (value: SQL) => sql`case when "demos"."status" = 'published' then ${value} end`;

/**
 * One page of the workspace's demos, newest first, in one statement: each row with its step count, and
 * when published its latest version and share_url token (`linkToken`, the shares module's correlated
 * subquery on the demo's id); the total of the filter rides along as a subquery computed once. The order is
 * the index demos_workspace_created_id_idx's, so a page reads its own rows (plus the skipped ones with an
 * offset; `window.after`, a keyset, skips none). Only a page with no row, past the end, costs a second
 * statement for the total.
 */
export async function listDemos(
  db: Executor,
  workspaceId: string,
  filter: { status?: DemoStatus; search?: string },
  window: PageWindow,
  linkToken: (demoId: SQL) => SQL<string | null>,
) {
  const conditions: (SQL | undefined)[] = [eq(demos.workspaceId, workspaceId)];
  if (filter.status) conditions.push(eq(demos.status, filter.status));
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    conditions.push(or(ilike(demos.title, pattern), ilike(demos.sourceUrl, pattern)));
  }
  const where = and(...conditions);
  const total = sql<number>`(select count(*)::int from ${demos} where ${where})`.mapWith(Number);
  const found = await db
    .select({
      demo: listedColumns,
      stepCount,
      latestVersion: sql<number | null>`${whenPublished(latestVersionNumber)}`,
      shareToken: sql<string | null>`${whenPublished(linkToken(sql`"demos"."id"`))}`,
      total,
    })
    .from(demos)
    .where(window.after ? and(where, afterRow(demos, demos.createdAt, demos.id, window.after, 'desc')) : where)
    .orderBy(desc(demos.createdAt), desc(demos.id))
    .limit(window.limit)
    .offset(window.offset);
  const rows = found.map(({ total: _, ...row }) => row);
  if (found[0]) return { rows, total: found[0].total };
  if (window.offset === 0 && !window.after) return { rows, total: 0 };
  const [counted] = await db.select({ n: count() }).from(demos).where(where);
  return { rows, total: counted?.n ?? 0 };
}

export async function findDemo(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select({ demo: demos, stepCount })
    .from(demos)
    .where(and(eq(demos.workspaceId, workspaceId), eq(demos.id, id)))
    .limit(1);
  return row;
}

/** Locks the demo row for the rest of the transaction: step edits of one demo run one at a time. */
export async function lockDemo(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(demos)
    .where(and(eq(demos.workspaceId, workspaceId), eq(demos.id, id)))
    .for('update');
  return row;
}

export async function lockDemoById(db: Executor, id: string) {
  const [row] = await db.select().from(demos).where(eq(demos.id, id)).for('update');
  return row;
}

type JsonRow = Record<string, unknown>;

const stepsJson = sql<JsonRow[]>`coalesce((select json_agg(s order by s."position", s."id") from "steps" s where s."demo_id" = "demos"."id"), '[]'::json)`;
const hotspotsJson = sql<JsonRow[]>`coalesce((select json_agg(h order by h."id") from "hotspots" h where h."demo_id" = "demos"."id"), '[]'::json)`;
const chaptersJson = sql<JsonRow[]>`coalesce((select json_agg(c order by c."position", c."id") from "chapters" c where c."demo_id" = "demos"."id"), '[]'::json)`;

const at = (v: unknown) => new Date(v as string);

function stepFromJson(o: JsonRow): StepRow {
  return {
    id: o.id as string,
    demoId: o.demo_id as string,
    position: o.position as number,
    title: o.title as string,
    description: o.description as string,
    pageUrl: o.page_url as string | null,
    imageAssetId: o.image_asset_id as string | null,
    width: o.width as number | null,
    height: o.height as number | null,
    htmlAssetId: o.html_asset_id as string | null,
    kind: o.kind as StepRow['kind'],
    chapterId: o.chapter_id as string | null,
    content: o.content as StepRow['content'],
    patches: o.patches as StepRow['patches'],
    descriptionHtml: o.description_html as string | null,
    editedAt: o.edited_at ? at(o.edited_at) : null,
    createdAt: at(o.created_at),
    updatedAt: at(o.updated_at),
  };
}

function hotspotFromJson(o: JsonRow): HotspotRow {
  return {
    id: o.id as string,
    stepId: o.step_id as string,
    demoId: o.demo_id as string,
    x: o.x as number,
    y: o.y as number,
    width: o.width as number,
    height: o.height as number,
    selector: o.selector as string | null,
    label: o.label as string,
    tooltip: o.tooltip as string,
    tooltipHtml: o.tooltip_html as string | null,
    actionType: o.action_type as HotspotRow['actionType'],
    actionTarget: o.action_target as string | null,
    createdAt: at(o.created_at),
    updatedAt: at(o.updated_at),
  };
}

function chapterFromJson(o: JsonRow): ChapterRow {
  return {
    id: o.id as string,
    demoId: o.demo_id as string,
    position: o.position as number,
    title: o.title as string,
    description: o.description as string,
    createdAt: at(o.created_at),
    updatedAt: at(o.updated_at),
  };
}

/**
 * A demo with its steps, hotspots and chapters in one round trip: the database builds the two lists as JSON, which
 * costs less than three queries on a busy server (the hot read of the editor and of viewers).
 */
export async function loadDemo(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select({ demo: demos, steps: stepsJson, hotspots: hotspotsJson, chapters: chaptersJson, brandColor: workspaces.brandColor })
    .from(demos)
    .innerJoin(workspaces, eq(workspaces.id, demos.workspaceId))
    .where(and(eq(demos.workspaceId, workspaceId), eq(demos.id, id)))
    .limit(1);
  if (!row) return undefined;
  return {
    demo: row.demo,
    brandColor: row.brandColor,
    steps: row.steps.map(stepFromJson),
    hotspots: row.hotspots.map(hotspotFromJson),
    chapters: row.chapters.map(chapterFromJson),
  };
}

export async function updateDemo(db: Executor, id: string, patch: Partial<typeof demos.$inferInsert>) {
  const [row] = await db
    .update(demos)
    .set({ ...patch, revision: sql`${demos.revision} + 1` })
    .where(eq(demos.id, id))
    .returning();
  return row;
}

/**
 * What a viewer path needs of a demo: whether it is published, and the version viewers are served (the
 * newest) with its number of steps. The draft's own steps do not count: viewers never see them.
 */
export async function findDemoState(db: Executor, id: string) {
  const [row] = await db
    .select({
      status: demos.status,
      version: sql<number | null>`(select v."number" from "demo_versions" v where v."demo_id" = "demos"."id" order by v."number" desc limit 1)`,
      stepCount: sql<number | null>`(select v."step_count" from "demo_versions" v where v."demo_id" = "demos"."id" order by v."number" desc limit 1)`,
    })
    .from(demos)
    .where(eq(demos.id, id))
    .limit(1);
  return row
    ? { status: row.status as DemoStatus, version: row.version ?? null, stepCount: row.stepCount ?? 0 }
    : undefined;
}

/** Bumps updated_at and points the thumbnail at the first step's image, after any change to the steps. */
export async function touchAfterStepChange(db: Executor, id: string, now: Date) {
  const [row] = await db
    .update(demos)
    .set({
      updatedAt: now,
      revision: sql`${demos.revision} + 1`,
      thumbnailAssetId: sql`(select s."image_asset_id" from "steps" s where s."demo_id" = ${id} order by s."position" limit 1)`,
    })
    .where(eq(demos.id, id))
    .returning();
  return row!;
}

export async function deleteDemo(db: Executor, id: string) {
  await db.delete(demos).where(eq(demos.id, id));
}

export async function countGenerating(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(demos)
    .where(and(eq(demos.workspaceId, workspaceId), eq(demos.status, 'generating')));
  return row?.n ?? 0;
}

export async function listGenerating(db: Executor) {
  return db.select().from(demos).where(eq(demos.status, 'generating'));
}

/**
 * Renews the lease of a running generation, only while `attempt` is still the demo's: false once the
 * generation was taken over (or finished, or the demo deleted). The revision stays: no reader sees the lease.
 */
export async function renewGenerationLease(db: Executor, demoId: string, attempt: string, at: Date): Promise<boolean> {
  const renewed = await db
    .update(demos)
    .set({ generationHeartbeatAt: at })
    .where(and(eq(demos.id, demoId), eq(demos.status, 'generating'), eq(demos.generationAttempt, attempt)))
    .returning({ id: demos.id });
  return renewed.length > 0;
}

/** Running generations whose lease was last renewed before `before`: their worker is presumed dead. */
export async function listLapsedGenerations(db: Executor, before: Date) {
  return db
    .select({ id: demos.id, generationJobId: demos.generationJobId })
    .from(demos)
    .where(
      and(
        eq(demos.status, 'generating'),
        eq(demos.generationStatus, 'running'),
        isNotNull(demos.generationHeartbeatAt),
        lt(demos.generationHeartbeatAt, before),
      ),
    );
}

// ---- steps ---------------------------------------------------------------------------------------

export async function listSteps(db: Executor, demoId: string) {
  return db.select().from(steps).where(eq(steps.demoId, demoId)).orderBy(asc(steps.position), asc(steps.id));
}

export async function findStep(db: Executor, demoId: string, stepId: string) {
  const [row] = await db
    .select()
    .from(steps)
    .where(and(eq(steps.demoId, demoId), eq(steps.id, stepId)))
    .limit(1);
  return row;
}

export async function insertSteps(db: Executor, rows: (typeof steps.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return db.insert(steps).values(rows).returning();
}

export async function updateStep(db: Executor, id: string, patch: Partial<typeof steps.$inferInsert>) {
  const [row] = await db.update(steps).set(patch).where(eq(steps.id, id)).returning();
  return row!;
}

/** Deletes steps and the assets only they used (hotspots go with them by cascade). */
export async function deleteSteps(db: Executor, demoId: string, rows: StepRow[]) {
  if (rows.length === 0) return;
  await db.delete(steps).where(
    and(
      eq(steps.demoId, demoId),
      inArray(
        steps.id,
        rows.map((r) => r.id),
      ),
    ),
  );
  const assetIds = rows.flatMap((r) => [r.imageAssetId, r.htmlAssetId]).filter((a): a is string => !!a);
  await deleteAssets(db, demoId, assetIds);
}

/** Renumbers 1..n in the given order, writing only the steps whose number changes. */
export async function renumber(db: Executor, ordered: StepRow[], now: Date) {
  for (const [index, step] of ordered.entries()) {
    if (step.position !== index + 1) {
      await db
        .update(steps)
        .set({ position: index + 1, updatedAt: now })
        .where(eq(steps.id, step.id));
      step.position = index + 1;
    }
  }
}

// ---- hotspots ------------------------------------------------------------------------------------

/** `goto` hotspots whose target step is gone go to the next step instead. */
export async function retargetGotos(db: Executor, demoId: string, stepIds: string[]) {
  await db
    .update(hotspots)
    .set({ actionType: 'next', actionTarget: null })
    .where(and(eq(hotspots.demoId, demoId), eq(hotspots.actionType, 'goto'), sql`not (${inArray(hotspots.actionTarget, stepIds)})`));
}

export async function findHotspot(db: Executor, stepId: string, id: string) {
  const [row] = await db
    .select()
    .from(hotspots)
    .where(and(eq(hotspots.stepId, stepId), eq(hotspots.id, id)))
    .limit(1);
  return row;
}

export async function insertHotspots(db: Executor, rows: (typeof hotspots.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return db.insert(hotspots).values(rows).returning();
}

export async function updateHotspot(db: Executor, id: string, patch: Partial<typeof hotspots.$inferInsert>) {
  const [row] = await db.update(hotspots).set(patch).where(eq(hotspots.id, id)).returning();
  return row!;
}

export async function deleteHotspot(db: Executor, id: string) {
  await db.delete(hotspots).where(eq(hotspots.id, id));
}

export async function deleteHotspotsOfStep(db: Executor, stepId: string) {
  await db.delete(hotspots).where(eq(hotspots.stepId, stepId));
}

// ---- assets --------------------------------------------------------------------------------------

/** An asset row; its bytes may be a subquery that copies bytes already in the database (StoredBytes). */
export async function insertAsset(db: Executor, row: Omit<typeof assets.$inferInsert, 'bytes'> & { bytes: Buffer | SQL | null }) {
  await db.insert(assets).values(row);
}

/** An asset of one demo; the demo's workspace is checked by the caller. */
export async function findAsset(db: Executor, demoId: string, id: string) {
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.demoId, demoId), eq(assets.id, id)))
    .limit(1);
  return row;
}

/** Type, digest and blob key of assets of one demo (no bytes): where a CDN would find them. */
export async function findAssetPlaces(db: Executor, demoId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: assets.id, contentType: assets.contentType, sha256: assets.sha256, blobKey: assets.blobKey })
    .from(assets)
    .where(and(eq(assets.demoId, demoId), inArray(assets.id, [...ids])));
}

/** Image assets (any demo) whose bytes have this SHA-256, wherever they are kept (the index on sha256); no bytes read. */
export async function findImagesByDigest(db: Executor, sha256: string, limit = 50) {
  return db
    .select({ id: assets.id, demoId: assets.demoId })
    .from(assets)
    .where(and(eq(assets.sha256, sha256), ilike(assets.contentType, 'image/%')))
    .limit(limit);
}

/** Deletes assets of the demo that no published version names: those stay while their version does. */
export async function deleteAssets(db: Executor, demoId: string, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .delete(assets)
    .where(
      and(
        eq(assets.demoId, demoId),
        inArray(assets.id, ids),
        sql`not exists (select 1 from "demo_versions" v where v."demo_id" = ${demoId} and ${assets.id} = any(v."asset_ids"))`,
      ),
    );
}

/** Every step of the demo goes (hotspots by cascade); their assets too, unless a version names them. */
export async function deleteAllSteps(db: Executor, demoId: string) {
  await deleteSteps(db, demoId, await listSteps(db, demoId));
}

/** The version viewers are served while the demo is published: the newest. */
export async function latestVersion(db: Executor, demoId: string) {
  const [row] = await db
    .select()
    .from(demoVersions)
    .where(eq(demoVersions.demoId, demoId))
    .orderBy(desc(demoVersions.number))
    .limit(1);
  return row ? { ...row, snapshot: row.snapshot as unknown as DemoSnapshot } : undefined;
}

/** The bytes a scalar subquery of stored bytes yields (a recorded step's, in its upload row), or null. */
export async function readStoredBytes(db: Executor, select: SQL): Promise<Buffer | null> {
  const result = (await db.execute(sql`select ${select} as "bytes"`)) as unknown as { rows: Array<{ bytes: Buffer | Uint8Array | null }> };
  const bytes = result.rows[0]?.bytes;
  if (!bytes) return null;
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
}
