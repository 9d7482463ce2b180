import { tags } from '../core/changes';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { conflict, notFound } from '../core/errors';
import { emitEvent } from '../events/outbox';
import { type ConfigurationPatch, resolveConfiguration, storedConfiguration } from './demo-configuration.schemas';
import { writeVersion } from './publish-demo';
import type { DemoWriteDeps } from './demo-writes';
import * as repo from './demos.repo';
import type { DemoStatus } from './demos.tables';

export interface DemoChange {
  title?: string;
  status?: 'draft' | 'published' | 'archived';
  configuration?: ConfigurationPatch;
}

/** Which status a PATCH may move a demo to, from each status. `generating` is left only by its job. */
const TRANSITIONS: Record<DemoStatus, readonly DemoStatus[]> = {
  generating: [],
  draft: ['published', 'archived'],
  published: ['draft', 'archived'],
  archived: ['draft'],
};

/**
 * PATCH /v1/demos/:id: renames, moves the status (publishing freezes the draft as a version) and changes the
 * configuration. Setting what is already there changes nothing and records nothing.
 */
export async function updateDemo(deps: DemoWriteDeps, auth: AuthContext, id: string, change: DemoChange, actor: Actor) {
  const { clock } = deps;
  const changed = await deps.database.db.transaction(async (tx) => {
    const demo = await repo.lockDemo(tx, auth.workspaceId, id);
    if (!demo) throw notFound('Demo');
    const now = clock.now();
    const patch: Parameters<typeof repo.updateDemo>[2] = {};
    const changed: string[] = [];
    if (change.title !== undefined && change.title !== demo.title) {
      patch.title = change.title;
      changed.push('title');
    }
    if (change.configuration !== undefined) {
      const before = demo.configuration;
      const after = storedConfiguration(before, change.configuration);
      // Compared resolved (key order and defaults aside), and by whether the colour is the demo's own.
      const same =
        JSON.stringify(resolveConfiguration(before)) === JSON.stringify(resolveConfiguration(after)) &&
        before.theme_color === after.theme_color;
      if (!same) {
        patch.configuration = after;
        changed.push('configuration');
      }
    }
    let published = false;
    if (change.status !== undefined && change.status !== demo.status) {
      const from = demo.status as DemoStatus;
      if (from === 'generating') {
        throw conflict('This demo is being generated: its status changes to draft when generation finishes');
      }
      if (!TRANSITIONS[from].includes(change.status)) {
        throw conflict(
          `A demo cannot go from ${from} to ${change.status}${from === 'archived' ? ': move it back to draft first' : ''}`,
        );
      }
      if (change.status === 'published') {
        const steps = await repo.listSteps(tx, demo.id);
        if (steps.length === 0) throw conflict('A demo needs at least one step to be published');
        patch.publishedAt = now;
        published = true;
      } else {
        patch.publishedAt = null;
      }
      patch.status = change.status;
      changed.push('status');
    }
    if (changed.length === 0) return false;
    patch.updatedAt = now;
    const updated = await repo.updateDemo(tx, demo.id, patch);
    // Viewers are served the version, never the draft: publishing freezes the draft (title included).
    const version = published ? await writeVersion(tx, updated!, auth.userId, now) : undefined;
    await emitEvent(tx, clock, {
      workspaceId: auth.workspaceId,
      kind: 'demo.updated',
      data: { demo_id: demo.id, changes: changed, status: updated!.status, title: updated!.title },
    });
    if (published) {
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'demo.published',
        data: { demo_id: demo.id, title: updated!.title, published_at: now.toISOString(), version: version!.number },
      });
    }
    // Publishing and unpublishing change who can see a demo: they are audited, edits are not.
    if (changed.includes('status') && (published || demo.status === 'published')) {
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: published ? 'demo.published' : 'demo.unpublished',
        target: { type: 'demo', id: demo.id, label: updated!.title },
        changes: { status: { from: demo.status, to: updated!.status }, ...(version ? { version: version.number } : {}) },
      });
    }
    return true;
  });
  if (changed) await deps.changes.announce(tags.demo(id));
}
