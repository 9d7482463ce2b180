// Publishing is a copy: the draft is frozen as the next numbered version, and viewers are served that version, never the draft.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { AppError, conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import { assetIdsOf, sameSnapshot, snapshotOf } from './demo-snapshot';
import * as versions from './demo-versions.repo';
import type { DemoWriteDeps } from './demo-writes';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';
import { problemsOfContent } from './story-graph';

/**
 * Freezes the demo's draft as its next version, in the caller's transaction (which holds the demo's row
 * lock). Answers the version, or undefined when the draft is the newest version already.
 */
export async function writeVersion(tx: Executor, demo: DemoRow, userId: string | null, now: Date) {
  const content = await repo.loadDemo(tx, demo.workspaceId, demo.id);
  if (!content) throw notFound('Demo');
  if (content.steps.length === 0) throw conflict('A demo needs at least one step to be published');
  // A story viewers could get lost in is not published: each problem names its step (story-graph.ts).
  const problems = problemsOfContent(content);
  if (problems.length > 0) {
    throw new AppError(
      'validation_error',
      `The story has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}: ${problems.map((p) => p.message).join('; ')}`,
      // The same list, in the same order, as GET /v1/demos/:id's story_problems.
      { details: problems.map((p) => ({ field: 'story', message: p.message })) },
    );
  }
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

/**
 * POST /v1/demos/:id/publish: the draft becomes the version viewers see. From `draft` it is the same
 * move as PATCH status `published`; on a published demo it publishes the changes. A draft that is the
 * newest version already changes nothing.
 */
export async function publishDemo(deps: DemoWriteDeps, auth: AuthContext, id: string, actor: Actor) {
  const { db } = deps.database;
  const published = await db.transaction(async (tx) => {
    const demo = await repo.lockDemo(tx, auth.workspaceId, id);
    if (!demo) throw notFound('Demo');
    return publishLocked(deps, tx, auth, demo, actor);
  });
  if (published) await deps.changes.announce(tags.demo(id));
}

/**
 * Publishes a demo whose row `tx` holds locked (POST /v1/demos/:id/publish, and a push with ?publish=true in
 * the push's own transaction). Answers the new version, or undefined when the draft is the newest version
 * already. The caller announces `tags.demo(id)` after the commit when a version was made.
 */
export async function publishLocked(deps: Pick<DemoWriteDeps, 'clock'>, tx: Executor, auth: AuthContext, demo: DemoRow, actor: Actor) {
  const { clock } = deps;
  if (demo.status === 'generating') {
    throw conflict('This demo is being generated: publish it once generation has finished');
  }
  if (demo.status === 'archived') throw conflict('An archived demo cannot be published: move it back to draft first');
  if (demo.status === 'published') {
    const [latest, content] = await Promise.all([repo.latestVersion(tx, demo.id), repo.loadDemo(tx, auth.workspaceId, demo.id)]);
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
}
