import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import { assetIdsOf, rowsOf, sameSnapshot, snapshotOf } from './demo-snapshot';
import * as versions from './demo-versions.repo';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';

export interface DemoVersionsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
}

/**
 * Freezes the demo's draft as its next version, in the caller's transaction (which holds the demo's row
 * lock). Answers the version, or undefined when the draft is the newest version already.
 */
export async function writeVersion(tx: Executor, demo: DemoRow, userId: string | null, now: Date) {
  const content = await repo.loadDemo(tx, demo.workspaceId, demo.id);
  if (!content) throw notFound('Demo');
  if (content.steps.length === 0) throw conflict('A demo needs at least one step to be published');
  const snapshot = snapshotOf(content);
  return versions.insertNextVersion(tx, {
    id: newId('demoVersion', now.getTime()),
    demoId: demo.id,
    snapshot,
    stepCount: snapshot.steps.length,
    assetIds: assetIdsOf(snapshot),
    publishedById: userId,
    publishedAt: now,
  });
}

/** Publishing changes, the version history, and restoring a version into the draft. */
export function createDemoVersions(deps: DemoVersionsDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  /**
   * POST /v1/demos/:id/publish: the draft becomes the version viewers see. From `draft` it is the same
   * move as PATCH status `published`; on a published demo it publishes the changes. A draft that is the
   * newest version already changes nothing.
   */
  async function publish(auth: AuthContext, id: string, actor: Actor) {
    const published = await db.transaction(async (tx) => {
      const demo = await repo.lockDemo(tx, auth.workspaceId, id);
      if (!demo) throw notFound('Demo');
      if (demo.status === 'generating') {
        throw conflict('This demo is being generated: publish it once generation has finished');
      }
      if (demo.status === 'archived') throw conflict('An archived demo cannot be published: move it back to draft first');
      if (demo.status === 'published') {
        const [latest, content] = await Promise.all([
          versions.latestVersion(tx, demo.id),
          repo.loadDemo(tx, auth.workspaceId, demo.id),
        ]);
        if (latest && content && sameSnapshot(latest.snapshot, snapshotOf(content))) return undefined;
      }
      const now = clock.now();
      const version = await writeVersion(tx, demo, auth.userId, now);
      const updated = await repo.updateDemo(tx, demo.id, { status: 'published', publishedAt: now, updatedAt: now });
      if (demo.status !== 'published') {
        await emitEvent(tx, clock, {
          workspaceId: auth.workspaceId,
          kind: 'demo.updated',
          data: { demo_id: demo.id, changes: ['status'], status: 'published', title: updated!.title },
        });
      }
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'demo.published',
        data: { demo_id: demo.id, title: updated!.title, published_at: now.toISOString(), version: version.number },
      });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'demo.published',
        target: { type: 'demo', id: demo.id, label: updated!.title },
        changes:
          demo.status === 'published'
            ? { version: version.number }
            : { status: { from: demo.status, to: 'published' }, version: version.number },
      });
      return version;
    });
    if (published) await deps.changes.announce(tags.demo(id));
  }

  async function requireDemo(auth: AuthContext, id: string) {
    const found = await repo.findDemo(db, auth.workspaceId, id);
    if (!found) throw notFound('Demo');
    return found.demo;
  }

  /** GET /v1/demos/:id/versions */
  async function list(auth: AuthContext, id: string, page: { limit: number; offset: number }) {
    await requireDemo(auth, id);
    return versions.listVersions(db, id, page);
  }

  /**
   * POST /v1/demos/:id/versions/:number/restore: the version's title, configuration, steps and hotspots
   * replace the draft's (with the ids they had, so `goto` targets still point at their steps). Viewers
   * see nothing of it until the draft is published.
   */
  async function restore(auth: AuthContext, id: string, number: number) {
    await db.transaction(async (tx) => {
      const demo = await repo.lockDemo(tx, auth.workspaceId, id);
      if (!demo) throw notFound('Demo');
      if (demo.status === 'generating') throw conflict('This demo is being generated: restore a version once it has finished');
      const version = await versions.findVersion(tx, demo.id, number);
      if (!version) throw notFound('Version');
      const now = clock.now();
      // A step still in the draft keeps its edited mark; one the restore brings back was put back by a
      // person, so it counts as edited (keep_edited_steps keeps it). Versions do not store the mark.
      const editedAt = new Map((await repo.listSteps(tx, demo.id)).map((s) => [s.id, s.editedAt]));
      await repo.deleteAllSteps(tx, demo.id);
      const rows = rowsOf(demo.id, version.snapshot, now);
      for (const step of rows.steps) step.editedAt = editedAt.has(step.id) ? editedAt.get(step.id)! : now;
      await repo.insertSteps(tx, rows.steps);
      await repo.insertHotspots(tx, rows.hotspots);
      await repo.updateDemo(tx, demo.id, { title: version.snapshot.title, configuration: version.snapshot.configuration });
      const updated = await repo.touchAfterStepChange(tx, demo.id, now);
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'demo.updated',
        data: {
          demo_id: demo.id,
          changes: ['title', 'configuration', 'steps'],
          status: updated.status,
          title: updated.title,
          restored_version: version.number,
        },
      });
    });
    await deps.changes.announce(tags.demo(id));
  }

  return { publish, list, restore };
}

export type DemoVersionsService = ReturnType<typeof createDemoVersions>;
