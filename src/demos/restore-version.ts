import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { conflict, notFound } from '../core/errors';
import { emitEvent } from '../events/outbox';
import * as chapters from './chapters.repo';
import { rowsOf } from './demo-snapshot';
import * as versions from './demo-versions.repo';
import type { DemoWriteDeps } from './demo-writes';
import * as repo from './demos.repo';

/**
 * POST /v1/demos/:id/versions/:number/restore: the version's title, configuration, chapters, steps and hotspots
 * replace the draft's (with the ids they had, so `goto` targets still point at their steps). Viewers
 * see nothing of it until the draft is published.
 */
export async function restoreVersion(deps: DemoWriteDeps, auth: AuthContext, id: string, number: number) {
  const { clock } = deps;
  const { db } = deps.database;
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
    await chapters.deleteAllChapters(tx, demo.id);
    const rows = rowsOf(demo.id, version.snapshot, now);
    for (const step of rows.steps) step.editedAt = editedAt.has(step.id) ? editedAt.get(step.id)! : now;
    // Chapters first: steps name theirs.
    await chapters.insertChapters(tx, rows.chapters);
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
