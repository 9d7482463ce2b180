// A demo whole, in and out, for demo files (src/demo-format): its content with document-local ids and assets by
// digest, read from the draft or a version, and written as a new demo or over the draft of the demo with a key.
import type { Actor } from '../audit/actor';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { AppError, conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import * as chapters from './chapters.repo';
import { insertCreatedDemo } from './create-demo';
import { storedConfiguration } from './demo-configuration.schemas';
import * as docs from './demo-documents.repo';
import { type AssetStore, placeBytes, withBytes } from './asset-bytes';
import { insertPlacedAsset } from './step-assets';
import { canonicalJson, type DemoContent, type DemoSnapshot, rowsOf, type SnapshotStep, snapshotOf } from './demo-snapshot';
import * as versions from './demo-versions.repo';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';
import { publishLocked } from './publish-demo';
import type { StepContent } from './story.schemas';

/**
 * A demo's content as a demo file holds it: a snapshot (demo-snapshot.ts) whose steps are `step-1`, `step-2`…
 * and chapters `chapter-1`… in order, whose hotspots have no id (''), and whose asset ids are the assets' SHA-256
 * digests (lowercase hex). Two demos with the same content have the same portable form, whatever their ids.
 */
export interface PortableDemo {
  snapshot: DemoSnapshot;
  sourceUrl: string | null;
}

/** An asset's bytes and type, named by its digest in a {@link PortableDemo}. */
export interface PortableAsset {
  contentType: string;
  bytes: Buffer;
}

/** Which content a demo file is made from: the editor's draft, the newest published version, or version n. */
export type ContentVersion = 'draft' | 'published' | number;

export type PushOutcome = 'created' | 'updated' | 'unchanged';

export interface PushResult {
  demoId: string;
  outcome: PushOutcome;
  changes: string[];
  publishedVersion: number | null;
}

/** Thrown at the end of a dry run's transaction to roll it back, carrying what the push would have done. */
class DryRun extends Error {
  constructor(readonly result: PushResult) {
    super('dry run');
  }
}

export interface DemoDocumentsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Changes;
  /** Where imported assets' bytes go, and exported ones are read from (undefined: their rows). */
  assetStore: AssetStore;
}

export const stepLocalId = (index: number) => `step-${index + 1}`;
export const chapterLocalId = (index: number) => `chapter-${index + 1}`;
const GOTO_ACTIONS = new Set(['goto', 'submit']);

/** Maps what an action names (a step or chapter id) through `ids`; addresses and absent targets pass as they are. */
function mapTarget(type: string, target: string | null | undefined, steps: Map<string, string>, chaptersById: Map<string, string>) {
  if (typeof target !== 'string') return target ?? null;
  if (GOTO_ACTIONS.has(type)) return steps.get(target) ?? target;
  if (type === 'chapter') return chaptersById.get(target) ?? target;
  return target;
}

function mapContent(content: StepContent, steps: Map<string, string>, chaptersById: Map<string, string>): StepContent {
  return {
    ...content,
    buttons: content.buttons.map((b) => ({
      ...b,
      action: { ...b.action, target: mapTarget(b.action.type, b.action.target as string | null | undefined, steps, chaptersById) },
    })),
  };
}

/**
 * Renames a snapshot's ids and asset ids: steps, chapters and assets through the maps (hotspots through
 * `hotspotId`), every reference to them (chapter of a step, action targets, page-patch images) with them.
 */
function renamed(
  snapshot: DemoSnapshot,
  steps: Map<string, string>,
  chaptersById: Map<string, string>,
  assetOf: (id: string) => string,
  hotspotId: (stepIndex: number, index: number) => string,
): DemoSnapshot {
  return {
    ...(snapshot.chapters ? { chapters: snapshot.chapters.map((c) => ({ ...c, id: chaptersById.get(c.id) ?? c.id })) } : {}),
    title: snapshot.title,
    configuration: snapshot.configuration,
    steps: snapshot.steps.map((s, i): SnapshotStep => {
      const step: SnapshotStep = {
        ...s,
        id: steps.get(s.id) ?? s.id,
        image_asset_id: s.image_asset_id ? assetOf(s.image_asset_id) : null,
        html_asset_id: s.html_asset_id ? assetOf(s.html_asset_id) : null,
        hotspots: s.hotspots.map((h, k) => ({
          ...h,
          id: hotspotId(i, k),
          action_target: mapTarget(h.action_type, h.action_target, steps, chaptersById),
        })),
      };
      if (s.chapter_id) step.chapter_id = chaptersById.get(s.chapter_id) ?? s.chapter_id;
      if (s.content) step.content = mapContent(s.content, steps, chaptersById);
      if (s.patches) step.patches = s.patches.map((p) => (p.op === 'image' && p.value ? { ...p, value: assetOf(p.value) } : p));
      return step;
    }),
  };
}

/** The asset ids a snapshot names: step images and snapshots, page-patch images. */
function assetIdsIn(snapshot: DemoSnapshot): string[] {
  const ids = new Set<string>();
  for (const s of snapshot.steps) {
    if (s.image_asset_id) ids.add(s.image_asset_id);
    if (s.html_asset_id) ids.add(s.html_asset_id);
    for (const p of s.patches ?? []) if (p.op === 'image' && p.value) ids.add(p.value);
  }
  return [...ids];
}

/** A demo's content (rows) in its portable form; `digestOf` gives each asset id's SHA-256. */
export function portableOf(content: DemoContent, sourceUrl: string | null, digestOf: (assetId: string) => string): PortableDemo {
  return portableOfSnapshot(snapshotOf(content), sourceUrl, digestOf);
}

function portableOfSnapshot(snapshot: DemoSnapshot, sourceUrl: string | null, digestOf: (assetId: string) => string): PortableDemo {
  const steps = new Map(snapshot.steps.map((s, i) => [s.id, stepLocalId(i)]));
  const chaptersById = new Map((snapshot.chapters ?? []).map((c, i) => [c.id, chapterLocalId(i)]));
  const portable = renamed(snapshot, steps, chaptersById, digestOf, () => '');
  // Positions are the order itself: 1..n whatever gaps the source had.
  for (const [i, s] of portable.steps.entries()) s.position = i + 1;
  for (const [i, c] of (portable.chapters ?? []).entries()) c.position = i + 1;
  portable.configuration = storedConfiguration(snapshot.configuration, {});
  return { snapshot: portable, sourceUrl };
}

/** Same content, whatever the ids: the test a push makes before it changes anything. */
export const samePortable = (a: PortableDemo, b: PortableDemo) => canonicalJson(a) === canonicalJson(b);

/** What differs between two portable demos, by the names `demo.updated` uses. */
function changesBetween(before: PortableDemo, after: PortableDemo): string[] {
  const changes: string[] = [];
  if (before.snapshot.title !== after.snapshot.title) changes.push('title');
  if (canonicalJson(before.snapshot.configuration) !== canonicalJson(after.snapshot.configuration)) changes.push('configuration');
  if (before.sourceUrl !== after.sourceUrl) changes.push('source_url');
  if (canonicalJson(before.snapshot.chapters ?? []) !== canonicalJson(after.snapshot.chapters ?? [])) changes.push('chapters');
  if (canonicalJson(before.snapshot.steps) !== canonicalJson(after.snapshot.steps)) changes.push('steps');
  return changes;
}

/**
 * Reads and writes demos whole for demo files. Reads give the portable form and the assets by digest; writes
 * run in one transaction (the demo, its chapters, steps, hotspots and assets commit together or not at all)
 * and keep the ids of the steps and chapters already there, by position, so that analytics and links to
 * steps keep meaning the same step. `demo.created` / `demo.updated` are recorded as the editor's own writes do.
 *
 * @example
 * ```ts
 * const documents = createDemoDocuments(kernel);
 * const { portable, assets } = await documents.read(auth, 'demo_01j…', 'draft');
 * const again = await documents.push(auth, 'onboarding', portable, assets, { publish: false, actor }); // 'unchanged'
 * ```
 */
export function createDemoDocuments(deps: DemoDocumentsDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  async function contentOf(tx: Executor, demo: DemoRow, version: ContentVersion): Promise<DemoSnapshot> {
    if (version === 'draft') {
      const content = await repo.loadDemo(tx, demo.workspaceId, demo.id);
      if (!content) throw notFound('Demo');
      return snapshotOf(content);
    }
    const found = version === 'published' ? await repo.latestVersion(tx, demo.id) : await versions.findVersion(tx, demo.id, version);
    if (!found) {
      if (version === 'published') throw conflict('This demo has never been published: export the draft (version=draft)');
      throw notFound('Version');
    }
    return found.snapshot as DemoSnapshot;
  }

  /** The assets a portable demo names, stored for `demo` (reusing those it has with the same digest); id by digest. */
  async function storeAssets(tx: Executor, demo: DemoRow, portable: PortableDemo, assets: Map<string, PortableAsset>, now: Date) {
    const have = new Map((await docs.listAssetDigests(tx, demo.id)).map((a) => [`${a.sha256} ${a.contentType}`, a.id]));
    const ids = new Map<string, string>();
    for (const digest of assetIdsIn(portable.snapshot)) {
      const asset = assets.get(digest);
      if (!asset) throw new AppError('invalid_request', `The asset sha256:${digest} is missing`);
      let id = have.get(`${digest} ${asset.contentType}`);
      if (!id) {
        // The blob before its row, as every asset (asset-bytes.ts): a store that fails rolls the import back.
        id = await insertPlacedAsset(tx, demo, await placeBytes(deps.assetStore, asset), now);
      }
      ids.set(digest, id);
    }
    return ids;
  }

  /** The draft of the locked `demo` becomes `portable`: title, configuration, source, chapters, steps, hotspots, assets. */
  async function writeContent(tx: Executor, demo: DemoRow, portable: PortableDemo, assets: Map<string, PortableAsset>, now: Date) {
    const [oldSteps, oldChapters] = await Promise.all([repo.listSteps(tx, demo.id), chapters.listChapters(tx, demo.id)]);
    const oldAssets = assetIdsIn(snapshotOf({ demo, steps: oldSteps, hotspots: [], chapters: [] }));
    const assetIds = await storeAssets(tx, demo, portable, assets, now);
    const stepIds = new Map(portable.snapshot.steps.map((s, i) => [s.id, oldSteps[i]?.id ?? newId('step')]));
    const chapterIds = new Map((portable.snapshot.chapters ?? []).map((c, i) => [c.id, oldChapters[i]?.id ?? newId('chapter')]));
    const snapshot = renamed(portable.snapshot, stepIds, chapterIds, (digest) => assetIds.get(digest)!, () => newId('hotspot'));
    await docs.deleteStepRows(tx, demo.id);
    await chapters.deleteAllChapters(tx, demo.id);
    const rows = rowsOf(demo.id, snapshot, now);
    for (const step of rows.steps) step.editedAt = now;
    await chapters.insertChapters(tx, rows.chapters);
    await repo.insertSteps(tx, rows.steps);
    await repo.insertHotspots(tx, rows.hotspots);
    const kept = new Set(assetIds.values());
    await repo.deleteAssets(tx, demo.id, oldAssets.filter((id) => !kept.has(id)));
    await repo.updateDemo(tx, demo.id, {
      title: snapshot.title,
      configuration: storedConfiguration(undefined, snapshot.configuration),
      sourceUrl: portable.sourceUrl,
    });
    return repo.touchAfterStepChange(tx, demo.id, now);
  }

  async function claimKey(tx: Executor, workspaceId: string, key: string, demoId?: string) {
    await docs.lockKey(tx, workspaceId, key);
    const holder = await docs.findDemoByKey(tx, workspaceId, key);
    if (holder && holder.id !== demoId) {
      throw new AppError('conflict', `The key ${key} names another demo of this workspace (${holder.id})`, {
        details: [{ field: 'key', message: `is the key of ${holder.id}: push to update it, or choose another key` }],
      });
    }
    return holder;
  }

  async function createIn(tx: Executor, auth: AuthContext, portable: PortableDemo, assets: Map<string, PortableAsset>, key: string | null) {
    const now = clock.now();
    const demo = await insertCreatedDemo(tx, clock, {
      id: newId('demo'),
      workspaceId: auth.workspaceId,
      title: portable.snapshot.title,
      sourceUrl: portable.sourceUrl,
      type: 'interactive',
      status: 'draft',
      configuration: storedConfiguration(undefined, portable.snapshot.configuration),
      generateWithAi: false,
      createdById: auth.memberId,
      key,
      createdAt: now,
      updatedAt: now,
    });
    return writeContent(tx, demo, portable, assets, now);
  }

  return {
    /** A demo's content in its portable form with the assets it names, by digest; 404, or 409 for `published` never published. */
    async read(auth: Pick<AuthContext, 'workspaceId'>, id: string, version: ContentVersion) {
      const found = await repo.findDemo(db, auth.workspaceId, id);
      if (!found) throw notFound('Demo');
      const snapshot = await contentOf(db, found.demo, version);
      const rows = await withBytes(deps.assetStore, await docs.listAssets(db, id, assetIdsIn(snapshot)));
      const byId = new Map(rows.map((r) => [r.id, r]));
      const assets = new Map<string, PortableAsset>();
      for (const r of rows) assets.set(r.sha256, { contentType: r.contentType, bytes: r.bytes });
      // An asset gone from the database (never expected: versions keep theirs) is left out rather than named.
      const digestOf = (assetId: string) => byId.get(assetId)?.sha256 ?? assetId;
      const portable = portableOfSnapshot(snapshot, found.demo.sourceUrl, digestOf);
      for (const s of portable.snapshot.steps) {
        if (s.image_asset_id && !assets.has(s.image_asset_id)) s.image_asset_id = null;
        if (s.html_asset_id && !assets.has(s.html_asset_id)) s.html_asset_id = null;
      }
      return { demo: found.demo, portable, assets };
    },

    /** A new draft demo with this content (and key, refused with 409 when another demo has it); answers its id. */
    async create(auth: AuthContext, portable: PortableDemo, assets: Map<string, PortableAsset>, key: string | null) {
      const demo = await db.transaction(async (tx) => {
        if (key) await claimKey(tx, auth.workspaceId, key);
        return createIn(tx, auth, portable, assets, key);
      });
      await deps.changes.announce(tags.demo(demo.id));
      return demo.id;
    },

    /**
     * Creates the demo with `key`, or makes its draft this content; nothing at all when the draft has it already
     * (no revision, no event). With `publish`, publishes in the same transaction (no new version when the newest
     * one is this content).
     */
    async push(
      auth: AuthContext,
      key: string,
      portable: PortableDemo,
      assets: Map<string, PortableAsset>,
      options: { publish: boolean; actor: Actor; dryRun?: boolean },
    ) {
      const run = db.transaction(async (tx) => {
        await docs.lockKey(tx, auth.workspaceId, key);
        const holder = await docs.findDemoByKey(tx, auth.workspaceId, key);
        let outcome: PushOutcome = 'unchanged';
        let changes: string[] = [];
        let demo: DemoRow;
        if (!holder) {
          demo = await createIn(tx, auth, portable, assets, key);
          outcome = 'created';
        } else {
          const locked = await repo.lockDemo(tx, auth.workspaceId, holder.id);
          if (!locked) throw notFound('Demo');
          if (locked.status === 'generating') throw conflict('This demo is being generated: push again when generation finishes');
          demo = locked;
          const content = await repo.loadDemo(tx, auth.workspaceId, locked.id);
          const digests = new Map((await docs.listAssetDigests(tx, locked.id)).map((a) => [a.id, a.sha256]));
          const current = portableOf(content!, locked.sourceUrl, (id) => digests.get(id) ?? id);
          if (!samePortable(current, portable)) {
            changes = changesBetween(current, portable);
            demo = await writeContent(tx, locked, portable, assets, clock.now());
            outcome = 'updated';
            await emitEvent(tx, clock, {
              workspaceId: auth.workspaceId,
              kind: 'demo.updated',
              data: { demo_id: demo.id, changes, status: demo.status, title: demo.title },
            });
          }
        }
        const version = options.publish ? await publishLocked(deps, tx, auth, demo, options.actor) : undefined;
        const result = { demoId: demo.id, outcome, changes, publishedVersion: version?.number ?? null };
        // A dry run is the whole push, checks included, rolled back at the end: what it would do, and nothing done.
        if (options.dryRun) throw new DryRun(result);
        return result;
      });
      const result = await run.catch((error: unknown) => {
        if (error instanceof DryRun) return error.result;
        throw error;
      });
      if (options.dryRun) return result;
      if (result.outcome !== 'unchanged' || result.publishedVersion !== null) await deps.changes.announce(tags.demo(result.demoId));
      return result;
    },

    /**
     * The digests of the captured pages the demo with `key` holds (none without such a demo): they were cleaned
     * when they were stored, and cleaning is idempotent, so a push that names them again need not clean them.
     */
    async pageDigestsOfKey(auth: Pick<AuthContext, 'workspaceId'>, key: string) {
      const demo = await docs.findDemoByKey(db, auth.workspaceId, key);
      if (!demo) return new Set<string>();
      return new Set((await docs.listAssetDigests(db, demo.id)).filter((a) => a.contentType.startsWith('text/html')).map((a) => a.sha256));
    },

    /** A demo's key (null without one); 404 outside the workspace. */
    async keyOf(auth: Pick<AuthContext, 'workspaceId'>, id: string) {
      const found = await repo.findDemo(db, auth.workspaceId, id);
      if (!found) throw notFound('Demo');
      return found.demo.key;
    },

    /** Sets or clears a demo's key: 409 when another demo of the workspace has it. */
    async setKey(auth: Pick<AuthContext, 'workspaceId'>, id: string, key: string | null) {
      await db.transaction(async (tx) => {
        const demo = await repo.lockDemo(tx, auth.workspaceId, id);
        if (!demo) throw notFound('Demo');
        if (key) await claimKey(tx, auth.workspaceId, key, demo.id);
        await docs.setDemoKey(tx, demo.id, key);
      });
      return key;
    },
  };
}

/** The port demo files read and write demos through: see {@link createDemoDocuments}. */
export type DemoDocumentsService = ReturnType<typeof createDemoDocuments>;
